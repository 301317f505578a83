"""`check_url`: is a URL one the HTTP transports can use (http or https, with a host).
Needs no HTTP stack, so a replay or a window can check a URL without loading httpx."""

from __future__ import annotations

from urllib.parse import urlsplit

from inspector.transports.base import TransportError

__all__ = ["check_url"]


def check_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise TransportError(f"not an http(s) URL: {url!r}")
    if not parts.netloc:
        raise TransportError(f"the URL has no host: {url!r}")
