"""A target typed by the user (`--stdio`, `--url`, File ▸ New Tab) as a profile for this
run: a stdio command line (shell-quoted) or an HTTP URL."""

from __future__ import annotations

import shlex
from pathlib import Path
from urllib.parse import urlparse

from inspector.settings.profiles import HttpSettings, Profile, StdioSettings

__all__ = ["stdio_profile", "url_profile"]

_MAX_NAME = 48


def stdio_profile(command: str) -> Profile:
    """A profile running `command` (shell-quoted). Raises ValueError for a bad line."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"--stdio: {exc}") from exc
    if not argv:
        raise ValueError("--stdio needs a command")
    return Profile(name=_name(argv), stdio=StdioSettings(command=argv[0], args=argv[1:]))


def _name(argv: list[str]) -> str:
    """ "stdio: python server.py --mode x": the program and its arguments, paths shortened
    to their last part, so two tabs of one interpreter read apart."""
    words = [Path(argv[0]).name, *(Path(a).name if "/" in a else a for a in argv[1:])]
    name = " ".join(words)
    return f"stdio: {name if len(name) <= _MAX_NAME else name[: _MAX_NAME - 1] + '…'}"


def url_profile(url: str) -> Profile:
    """A streamable HTTP profile for `url`. Raises ValueError when it is no http(s) URL."""
    url = url.strip()
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError(f"--url: {url!r} is not an http:// or https:// URL")
    return Profile(name=url, transport="http", http=HttpSettings(url=url))
