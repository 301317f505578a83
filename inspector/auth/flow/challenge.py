"""`WWW-Authenticate` parsing (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1, RFC 9449 §7.1).

A header may hold several challenges (`Bearer ..., DPoP ...`), and a response may carry
several headers. Each challenge is a scheme followed by comma-separated `name=value`
parameters whose values are tokens or quoted strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

import httpx

__all__ = ["Challenge", "ChallengeInfo", "challenge_info", "parse_www_authenticate"]

_TOKEN: Final = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_TOKEN68: Final = re.compile(r"[A-Za-z0-9\-._~+/]+=*")


@dataclass(frozen=True, slots=True)
class Challenge:
    scheme: str  # as sent; compare case-insensitively
    params: dict[str, str] = field(default_factory=dict)  # names lower-cased


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _quoted(text: str, i: int) -> tuple[str, int]:
    """Read a quoted-string starting at the opening quote; returns (value, index after)."""
    out: list[str] = []
    i += 1
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if ch == '"':
            return "".join(out), i + 1
        out.append(ch)
        i += 1
    return "".join(out), i  # unterminated: take what there is


def parse_www_authenticate(values: str | Iterable[str]) -> list[Challenge]:
    """Every challenge in one or more header values. Never raises; junk is skipped."""
    texts = [values] if isinstance(values, str) else list(values)
    challenges: list[Challenge] = []
    for text in texts:
        i = 0
        current: Challenge | None = None
        while i < len(text):
            i = _skip_ws(text, i)
            if i >= len(text):
                break
            if text[i] == ",":
                i += 1
                continue
            m = _TOKEN.match(text, i)
            if m is None:
                i += 1  # junk character
                continue
            name = m.group(0)
            j = _skip_ws(text, m.end())
            if j < len(text) and text[j] == "=" and current is not None:
                # An auth-param of the current challenge (or token68 ending in '=').
                k = _skip_ws(text, j + 1)
                if k < len(text) and text[k] == '"':
                    value, i = _quoted(text, k)
                else:
                    vm = _TOKEN.match(text, k)
                    value = vm.group(0) if vm else ""
                    i = vm.end() if vm else k
                current.params.setdefault(name.lower(), value)
                continue
            # A new challenge: scheme [token68 | params]
            current = Challenge(scheme=name)
            challenges.append(current)
            i = j
            t = _TOKEN68.match(text, i)
            if t is not None and (t.end() >= len(text) or text[_skip_ws(text, t.end())] == ","):
                after = _skip_ws(text, t.end())
                # `Bearer abc=` alone is token68; `Bearer realm=x` is a param (handled above).
                if "=" not in t.group(0) or t.group(0).endswith("="):
                    tm = _TOKEN.match(text, i)
                    if tm is None or tm.end() != t.end() or after >= len(text):
                        current.params.setdefault("token68", t.group(0))
                        i = t.end()
    return challenges


@dataclass(frozen=True, slots=True)
class ChallengeInfo:
    """What the MCP flow needs from a 401/403."""

    status: int
    schemes: tuple[str, ...] = ()
    resource_metadata: str | None = None
    scope: str | None = None
    error: str | None = None
    error_description: str | None = None
    dpop_nonce: str | None = None  # from the DPoP-Nonce header (RFC 9449 §9)

    @property
    def insufficient_scope(self) -> bool:
        return self.error == "insufficient_scope"

    @property
    def wants_dpop_nonce(self) -> bool:
        return self.error == "use_dpop_nonce" and bool(self.dpop_nonce)


def challenge_info(response: httpx.Response) -> ChallengeInfo:
    challenges = parse_www_authenticate(response.headers.get_list("www-authenticate"))
    preferred: Sequence[Challenge] = [
        c for c in challenges if c.scheme.lower() in ("bearer", "dpop")
    ] or challenges

    def first(name: str) -> str | None:
        for c in preferred:
            value = c.params.get(name)
            if value:
                return value
        return None

    return ChallengeInfo(
        status=response.status_code,
        schemes=tuple(c.scheme for c in challenges),
        resource_metadata=first("resource_metadata"),
        scope=first("scope"),
        error=first("error"),
        error_description=first("error_description"),
        dpop_nonce=response.headers.get("dpop-nonce"),
    )
