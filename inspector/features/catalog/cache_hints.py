"""The cache hints of a 2026-07-28 (modern era) list or read result (SEP-2549,
`CacheableResult`): `ttlMs` (how long the result is fresh, from its receipt), `cacheScope`
("public": anyone may reuse it; "private": only within the same authorization context) and
`resultType` ("complete" for a list or read result).

What the client does with them (`CatalogLoader`): a list is not listed again while fresh
unless the user refreshes (Refresh always lists; a list_changed always invalidates). A
missing or negative `ttlMs` is 0, immediately stale, as the SEP says. A "private" result is
dropped when the connection is made again (the authorization context may have changed: a
new token, another user); a "public" one still fresh is kept. Legacy-era results carry
none of this and are never cached. Qt-free, no IO.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

__all__ = ["CACHEABLE_METHODS", "SCOPES", "CacheHints", "cache_hints"]

CACHEABLE_METHODS: Final = frozenset(
    {"tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"}
)
SCOPES: Final = ("public", "private")
_MAX_SHOWN: Final = 40  # characters of a bad value quoted


def _quote(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…"


@dataclass(frozen=True)
class CacheHints:
    """What one result said. `ttl_ms` is the usable TTL (0 when missing or bad)."""

    ttl_ms: int = 0
    scope: str | None = None  # "public", "private", or None when missing or bad
    result_type: str | None = None
    raw_ttl: Any = None  # as sent (None: absent)
    raw_scope: Any = None
    problems: tuple[str, ...] = field(default=())

    @property
    def present(self) -> bool:
        """The result carried any hint (a legacy one carries none)."""
        return self.raw_ttl is not None or self.raw_scope is not None

    def describe(self) -> str:
        """A short line for people: "ttlMs 60000 (1 min) · cacheScope public"."""
        if not self.present:
            return ""
        ttl = _quote(self.raw_ttl) if self.raw_ttl is not None else "absent"
        if isinstance(self.raw_ttl, int) and not isinstance(self.raw_ttl, bool):
            ttl = f"{self.raw_ttl}" + (f" ({_duration(self.raw_ttl)})" if self.raw_ttl > 0 else "")
        scope = _quote(self.raw_scope) if not isinstance(self.raw_scope, str) else self.raw_scope
        return f"ttlMs {ttl} · cacheScope {scope if self.raw_scope is not None else 'absent'}"


def _duration(ms: int) -> str:
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:g} s"
    if seconds < 3600:
        return f"{seconds / 60:.3g} min"
    return f"{seconds / 3600:.3g} h"


def cache_hints(result: Any, *, method: str = "", modern: bool = True) -> CacheHints:
    """Read (and judge) the hints of one result. `modern` False: a legacy-era result,
    whose hints are neither expected nor honoured (a stray one is shown, not used)."""
    if not isinstance(result, dict):
        return CacheHints()
    raw_ttl, raw_scope = result.get("ttlMs"), result.get("cacheScope")
    result_type = result.get("resultType")
    problems: list[str] = []
    ttl = 0
    if raw_ttl is None:
        if modern:
            problems.append("ttlMs is missing (required on a cacheable result; taken as 0)")
    elif isinstance(raw_ttl, bool) or not isinstance(raw_ttl, int | float):
        problems.append(f"ttlMs must be an integer, not {_quote(raw_ttl)} (taken as 0)")
    elif isinstance(raw_ttl, float) and not raw_ttl.is_integer():
        problems.append(f"ttlMs must be an integer, not {raw_ttl!r} (taken as 0)")
    elif raw_ttl < 0:
        problems.append(f"ttlMs must be 0 or more, not {raw_ttl!r} (taken as 0)")
    else:
        ttl = int(raw_ttl)
    scope: str | None = None
    if raw_scope is None:
        if modern:
            problems.append('cacheScope is missing (required: "public" or "private")')
    elif raw_scope in SCOPES:
        scope = str(raw_scope)
    else:
        problems.append(f'cacheScope must be "public" or "private", not {_quote(raw_scope)}')
    if modern:
        if result_type is None:
            problems.append('resultType is missing (required in 2026-07-28; "complete" here)')
        elif result_type != "complete":
            what = method or "a list or read result"
            problems.append(f'resultType must be "complete" for {what}, not {_quote(result_type)}')
    return CacheHints(
        ttl_ms=ttl if modern else 0,
        scope=scope if modern else None,
        result_type=result_type if isinstance(result_type, str) else None,
        raw_ttl=raw_ttl,
        raw_scope=raw_scope,
        problems=tuple(problems),
    )
