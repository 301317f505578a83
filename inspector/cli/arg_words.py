"""The small languages of repeatable options: `K=V` (`--env`, `--tool-arg`,
`--prompt-args`, `--context-arg`) and `'Name: value'` (`--header`). Shared by `cli` and
`replay`, so both refuse a malformed word with the same message."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from inspector.cli.usage import UsageError

__all__ = ["header_values", "key_values", "server_command"]


def key_values(values: Sequence[str], what: str) -> dict[str, str]:
    """`K=V` words as a dict (a later K wins); `what` names the option in the error."""
    out: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"{what} expects K=V, got {item!r}")
        out[key] = value
    return out


def header_values(values: Sequence[str]) -> dict[str, str]:
    """`'Name: value'` words as a dict, both sides stripped (a later name wins)."""
    headers: dict[str, str] = {}
    for item in values:
        name, sep, value = item.partition(":")
        if not sep or not name.strip():
            raise UsageError(f"--header expects 'Name: value', got {item!r}")
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
