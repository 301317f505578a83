"""The small languages of repeatable options: `K=V` (`--env`, `--tool-arg`,
`--prompt-args`, `--context-arg`) and `'Name: value'` (`--header`). Shared by `cli` and
`replay`, so both refuse a malformed word with the same message."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import Final

from inspector.cli.errors import UsageError

__all__ = ["header_values", "key_values", "server_command"]

_TOKEN: Final = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an HTTP field name (RFC 9110)
_BAD_VALUE: Final = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # controls, tab allowed


def key_values(values: Sequence[str], what: str) -> dict[str, str]:
    """`K=V` words as a dict (a later K wins); `what` names the option in the error."""
    out: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"{what} expects K=V, got {item!r}")
        out[key] = value
    return out


def header_values(values: Sequence[str], what: str = "--header") -> dict[str, str]:
    """`'Name: value'` words as a dict, both sides stripped (a later name wins). A name
    that is not an HTTP field name, or a value with a control character (which httpx
    would refuse or send mangled), is a usage error; `what` names the option in it."""
    headers: dict[str, str] = {}
    for item in values:
        name, sep, value = item.partition(":")
        if not sep or not name.strip():
            raise UsageError(f"{what} expects 'Name: value', got {item!r}")
        if not _TOKEN.fullmatch(name.strip()):
            raise UsageError(f"{what}: {name.strip()!r} is not an HTTP header name")
        if _BAD_VALUE.search(value):
            raise UsageError(f"{what}: the value of {name.strip()!r} has a control character")
        headers[name.strip()] = value.strip()
    return headers


def server_command(ns: argparse.Namespace) -> list[str]:
    """The words after `--` (empty for an --url server). Exactly one server is named."""
    command = list(ns.server_command)
    if command and command[0] == "--":
        command = command[1:]
    if ns.url and command:
        raise UsageError("give either --url or a server command after --, not both")
    if not ns.url and not command:
        raise UsageError("no server: give a command after -- (or --url URL)")
    return command
