"""The cacheable results check (2026-07-28, SEP-2549): every list the server declares (its
first page) and one resource read carry `ttlMs` (an integer, 0 or more), `cacheScope`
("public" or "private") and `resultType` "complete". Modern era only."""

from __future__ import annotations

from typing import Any, Final

from inspector.check.probe import CheckContext
from inspector.check.spec import Check, Outcome, fail, ok, skip
from inspector.features.catalog.cache_hints import cache_hints

__all__ = ["CACHE_CHECKS"]

_LISTS: Final = (
    ("tools/list", "tools"),
    ("prompts/list", "prompts"),
    ("resources/list", "resources"),
    ("resources/templates/list", "resources"),
)


async def _cache_hints(ctx: CheckContext) -> Outcome:
    session = await ctx.live()
    findings: list[str] = []
    seen: list[str] = []
    first_uri: str | None = None
    for method, cap in _LISTS:
        if cap not in ctx.capabilities:
            continue
        result: Any = await session.request(method, None, timeout=ctx.options.timeout)
        hints = cache_hints(result, method=method)
        seen.append(f"{method}: {hints.describe() or 'no hints'}")
        findings += [f"{method}: {p}" for p in hints.problems]
        if method == "resources/list" and isinstance(result, dict):
            listed = result.get("resources")
            first = listed[0] if isinstance(listed, list) and listed else None
            uri = first.get("uri") if isinstance(first, dict) else None
            first_uri = uri if isinstance(uri, str) else None
    if first_uri is not None:
        read = await session.read_resource(first_uri)
        hints = cache_hints(read, method="resources/read")
        seen.append(f"resources/read: {hints.describe() or 'no hints'}")
        findings += [f"resources/read {first_uri[:80]!r}: {p}" for p in hints.problems]
    if not seen:
        return skip("the server declares no tools, prompts or resources")
    if findings:
        return fail(f"{len(findings)} finding(s)\n" + "\n".join(findings[:12]))
    return ok("; ".join(seen))


CACHE_CHECKS: Final[tuple[Check, ...]] = (
    Check(
        "cache.hints",
        "list and read results carry valid ttlMs, cacheScope and resultType",
        "2026-07-28 CacheableResult (SEP-2549): ttlMs integer >= 0, cacheScope public or "
        'private, resultType "complete"',
        _cache_hints,
        era="modern",
    ),
)
