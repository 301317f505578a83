"""A target typed by the user (`--stdio`, `--url`, File ▸ New Tab) as a profile for this
run: a stdio command line (shell-quoted) or an HTTP URL."""

from __future__ import annotations

import shlex
from pathlib import Path
from urllib.parse import urlparse

from inspector.settings.profiles import HttpSettings, Profile, StdioSettings

__all__ = ["stdio_profile", "url_profile"]


def stdio_profile(command: str) -> Profile:
    """A profile running `command` (shell-quoted). Raises ValueError for a bad line."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"--stdio: {exc}") from exc
    if not argv:
        raise ValueError("--stdio needs a command")
    return Profile(
        name=f"stdio: {Path(argv[0]).name}", stdio=StdioSettings(command=argv[0], args=argv[1:])
    )


def url_profile(url: str) -> Profile:
    """A streamable HTTP profile for `url`. Raises ValueError when it is no http(s) URL."""
    url = url.strip()
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError(f"--url: {url!r} is not an http:// or https:// URL")
    return Profile(name=url, transport="http", http=HttpSettings(url=url))
