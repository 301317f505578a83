"""Header and URL redaction for logs and recordings: no HTTP stack needed (a recording
of a stdio session, or a window that never connects over HTTP, loads no httpx)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final
from urllib.parse import urlsplit, urlunsplit

__all__ = ["REDACTED", "redact_headers", "redact_url"]

REDACTED: Final = "•••redacted•••"
_ALWAYS_SECRET: Final = frozenset(
    {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"}
)
_SECRET_HINTS: Final = ("token", "secret", "password", "apikey", "api-key", "auth")
_SECRET_QUERY: Final = ("token", "secret", "password", "passwd", "key", "auth", "sig", "code")


def redact_headers(
    headers: Mapping[str, str], secret: frozenset[str] = frozenset()
) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in headers.items():
        low = name.lower()
        if low in _ALWAYS_SECRET or low in secret or any(h in low for h in _SECRET_HINTS):
            out[name] = REDACTED
        elif low == "mcp-session-id" and len(value) > 12:
            out[name] = value[:8] + "…"  # enough to tell sessions apart, not to hijack one
        else:
            out[name] = value
    return out


def redact_url(url: str) -> str:
    """The URL without a password and without the values of secret-looking query parameters."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        user, sep, _password = userinfo.partition(":")
        netloc = f"{user}:{REDACTED}@{host}" if sep else f"{userinfo}@{host}"
    query = parts.query
    if query:
        pairs = []
        for item in query.split("&"):
            name, sep, value = item.partition("=")
            low = name.lower()
            if sep and value and any(h in low for h in _SECRET_QUERY):
                value = REDACTED
            pairs.append(f"{name}{sep}{value}")
        query = "&".join(pairs)
    if netloc == parts.netloc and query == parts.query:
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
