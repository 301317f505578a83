"""The app's network policy from its `_meta.ui.csp`: a Content-Security-Policy for the page,
and the same rule for the request interceptor (which also catches what a CSP cannot, e.g.
a request made before the policy is parsed). Nothing declared means no network at all.

A declared origin is `scheme://host[:port]` (http, https, ws, wss), the host possibly
`*.example.com`; anything else (a keyword such as `'unsafe-eval'`, a `;` that would smuggle a
directive in, a path) is refused with a warning, never copied into the policy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias
from urllib.parse import urlsplit

from inspector.features.mcp_apps.meta import CspDeclaration

__all__ = ["Category", "NetworkPolicy", "csp_header", "valid_origin"]

Category: TypeAlias = Literal["connect", "resource", "frame"]

_ORIGIN: Final = re.compile(
    r"^(?P<scheme>https?|wss?)://(?P<host>(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9a-fA-F:]+\])"
    r"(:(?P<port>\d{1,5}))?/?$"
)
# Always fine: inline data the page carries itself, and the blank documents of frames.
_LOCAL_SCHEMES: Final = frozenset({"data", "blob", "about"})
_DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def valid_origin(text: str) -> bool:
    return _ORIGIN.match(text) is not None


@dataclass(frozen=True, slots=True)
class _Origin:
    scheme: str
    host: str  # lower case; "*.x.y" for a wildcard
    port: int | None

    def matches(self, scheme: str, host: str, port: int | None) -> bool:
        same = scheme == self.scheme or (self.scheme, scheme) in (("https", "wss"), ("http", "ws"))
        if not same:
            return False
        if self.host.startswith("*."):
            suffix = self.host[1:]
            if not host.endswith(suffix) or host == suffix[1:]:
                return False
        elif host != self.host:
            return False
        wanted = self.port if self.port is not None else _DEFAULT_PORTS.get(self.scheme)
        got = port if port is not None else _DEFAULT_PORTS.get(scheme)
        return wanted == got


def _parse(text: str) -> _Origin | None:
    m = _ORIGIN.match(text)
    if m is None:
        return None
    port = m.group("port")
    return _Origin(m.group("scheme").lower(), m.group("host").lower(), int(port) if port else None)


class NetworkPolicy:
    """Which URLs the app may load, by category; `check` says why one may not."""

    def __init__(self, csp: CspDeclaration) -> None:
        self.warnings: list[str] = []
        self.declared = csp
        self._origins: dict[Category, list[_Origin]] = {
            "connect": self._origins_of("connectDomains", csp.connect),
            "resource": self._origins_of("resourceDomains", csp.resource),
            "frame": self._origins_of("frameDomains", csp.frame),
        }
        self.base_uri = [o for o in csp.base_uri if valid_origin(o)]

    def _origins_of(self, key: str, values: tuple[str, ...]) -> list[_Origin]:
        out: list[_Origin] = []
        for value in values:
            origin = _parse(value)
            if origin is None:
                self.warnings.append(
                    f"_meta.ui.csp.{key}: {value!r} is not scheme://host[:port]; ignored"
                )
            else:
                out.append(origin)
        return out

    def allowed(self, category: Category) -> list[str]:
        """The origins of a category as CSP sources."""
        return [
            f"{o.scheme}://{o.host}" + (f":{o.port}" if o.port is not None else "")
            for o in self._origins[category]
        ]

    def check(self, url: str, category: Category) -> str | None:
        """None when allowed, else the reason (for the log)."""
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            return f"malformed URL {url[:200]!r}"
        scheme = parts.scheme.lower()
        if scheme in _LOCAL_SCHEMES:
            return None
        if scheme == "file":
            return "the app may not read local files"
        if scheme not in _DEFAULT_PORTS:
            return f"the {scheme or 'empty'} scheme is not allowed for an app"
        host = (parts.hostname or "").lower()
        for origin in self._origins[category]:
            if origin.matches(scheme, host, port):
                return None
        key = {
            "connect": "connectDomains",
            "resource": "resourceDomains",
            "frame": "frameDomains",
        }[category]
        origin_text = f"{scheme}://{host}" + (f":{port}" if port is not None else "")
        return f"{origin_text} is not in the resource's _meta.ui.csp.{key}"


def csp_header(policy: NetworkPolicy) -> str:
    """The Content-Security-Policy of the app page (the spec's default for an empty
    declaration: inline scripts and styles only, no network)."""
    resource = " ".join(policy.allowed("resource"))
    connect = " ".join(policy.allowed("connect")) or "'none'"
    frame = " ".join(policy.allowed("frame")) or "'none'"
    base = " ".join(policy.base_uri) or "'self'"
    extra = f" {resource}" if resource else ""
    return "; ".join(
        [
            "default-src 'none'",
            f"script-src 'unsafe-inline'{extra}",
            f"style-src 'unsafe-inline'{extra}",
            f"img-src data: blob:{extra}",
            f"font-src data:{extra}",
            f"media-src data: blob:{extra}",
            f"connect-src {connect}",
            f"frame-src {frame}",
            "object-src 'none'",
            f"base-uri {base}",
            "form-action 'none'",
        ]
    )
