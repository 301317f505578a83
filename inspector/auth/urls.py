"""URL rules of MCP authorization: canonical resource URIs, well-known locations, checks."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit, urlunsplit

__all__ = [
    "as_metadata_urls",
    "canonical_resource",
    "is_http_url",
    "is_loopback_url",
    "origin_of",
    "prm_urls",
    "resource_covers",
    "strip_query",
]


def is_http_url(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def is_loopback_url(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def strip_query(url: str) -> str:
    """The URL without query and fragment (DPoP `htu`, RFC 9449 §4.2)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def canonical_resource(url: str) -> str:
    """The canonical URI of an MCP server (spec "Canonical Server URI", RFC 8707 §2):
    lower-case scheme and host, no fragment, no query, no trailing slash (unless the path
    is only "/", which is dropped too)."""
    parts = urlsplit(url)
    path = parts.path
    if path.endswith("/"):
        path = path.rstrip("/")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, "", ""))


def prm_urls(server_url: str) -> list[str]:
    """RFC 9728 well-known locations, in the spec's order: path variant, then root."""
    parts = urlsplit(server_url)
    base = f"{parts.scheme}://{parts.netloc}"
    path = parts.path.rstrip("/")
    urls = []
    if path:
        urls.append(f"{base}/.well-known/oauth-protected-resource{path}")
    urls.append(f"{base}/.well-known/oauth-protected-resource")
    return urls


def as_metadata_urls(issuer: str) -> list[tuple[str, str]]:
    """(kind, URL) to try for an issuer, in the spec's priority order (RFC 8414 §3.1 and
    §5, OpenID Connect Discovery 1.0): with a path, OAuth path insertion, OIDC path
    insertion, OIDC path appending; without, OAuth then OIDC."""
    parts = urlsplit(issuer)
    base = f"{parts.scheme}://{parts.netloc}"
    path = parts.path.rstrip("/")
    if path:
        return [
            ("oauth", f"{base}/.well-known/oauth-authorization-server{path}"),
            ("oidc", f"{base}/.well-known/openid-configuration{path}"),
            ("oidc", f"{base}{path}/.well-known/openid-configuration"),
        ]
    return [
        ("oauth", f"{base}/.well-known/oauth-authorization-server"),
        ("oidc", f"{base}/.well-known/openid-configuration"),
    ]


def resource_covers(resource: str, server_url: str) -> bool:
    """Does the protected resource `resource` (from PRM) identify the server at
    `server_url`? Same scheme and authority (case-insensitive), and the resource's path
    is the server's path or a parent of it at a segment boundary (a root PRM names the
    origin)."""
    r = urlsplit(resource)
    s = urlsplit(server_url)
    if r.scheme.lower() != s.scheme.lower() or r.netloc.lower() != s.netloc.lower():
        return False
    if r.query or r.fragment:
        return False
    rpath = r.path.rstrip("/")
    spath = s.path.rstrip("/")
    return spath == rpath or spath.startswith(rpath + "/")
