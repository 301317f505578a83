"""The 2026-07-28 cache hints (SEP-2549): reading and judging ttlMs, cacheScope and
resultType; a listing's freshness by its pages' TTLs (a fake clock); and what a new
connection keeps (fresh and public, same server) or lists again."""

from __future__ import annotations

import asyncio
from typing import Any

from inspector.features.catalog.cache_hints import cache_hints
from inspector.features.catalog.lists import Catalog
from inspector.features.catalog.loader import CatalogLoader


def test_good_hints_have_no_problems_and_a_short_description() -> None:
    hints = cache_hints(
        {"tools": [], "ttlMs": 90_000, "cacheScope": "public", "resultType": "complete"}
    )
    assert (hints.ttl_ms, hints.scope, hints.problems) == (90_000, "public", ())
    assert hints.describe() == "ttlMs 90000 (1.5 min) · cacheScope public"


def test_bad_types_ranges_and_result_types_are_findings_and_mean_stale() -> None:
    def problems(**fields: Any) -> tuple[int, tuple[str, ...]]:
        result = {"ttlMs": 1000, "cacheScope": "private", "resultType": "complete", **fields}
        hints = cache_hints({k: v for k, v in result.items() if v is not None}, method="m/list")
        return hints.ttl_ms, hints.problems

    assert problems(ttlMs="5000") == (0, ("ttlMs must be an integer, not '5000' (taken as 0)",))
    assert problems(ttlMs=True)[0] == 0
    assert problems(ttlMs=1.5)[1] == ("ttlMs must be an integer, not 1.5 (taken as 0)",)
    assert problems(ttlMs=-1) == (0, ("ttlMs must be 0 or more, not -1 (taken as 0)",))
    assert problems(ttlMs=None)[1] == (
        "ttlMs is missing (required on a cacheable result; taken as 0)",
    )
    assert problems(cacheScope="session")[1] == (
        'cacheScope must be "public" or "private", not \'session\'',
    )
    assert problems(resultType="task")[1] == (
        "resultType must be \"complete\" for m/list, not 'task'",
    )
    assert problems(resultType=None)[1][0].startswith("resultType is missing")


def test_legacy_results_are_never_cached() -> None:
    hints = cache_hints({"tools": [], "ttlMs": 60_000, "cacheScope": "public"}, modern=False)
    assert (hints.ttl_ms, hints.scope, hints.problems) == (0, None, ())
    assert cache_hints({"tools": []}, modern=False).present is False


def _loader(clock: list[float]) -> tuple[Catalog, CatalogLoader]:
    catalog = Catalog()

    def start(coro: Any, _name: str) -> asyncio.Task[Any]:
        coro.close()
        raise AssertionError("nothing is listed here")

    loader = CatalogLoader(catalog, start, lambda _c, _m: None)
    loader.clock = lambda: clock[0]
    return catalog, loader


def _page(ttl: int, scope: str = "public", name: str = "t") -> dict[str, Any]:
    return {
        "tools": [{"name": name, "inputSchema": {"type": "object"}}],
        "ttlMs": ttl,
        "cacheScope": scope,
        "resultType": "complete",
    }


def test_a_listing_is_fresh_until_its_first_page_goes_stale() -> None:
    clock = [100.0]
    catalog, _ = _loader(clock)
    tools = catalog.tools
    tools.apply_page(_page(60_000), first=True, hints=cache_hints(_page(60_000)), now=100.0)
    tools.apply_page(
        _page(10_000, name="u"), first=False, hints=cache_hints(_page(10_000)), now=101.0
    )
    assert tools.fresh(110.9) and not tools.fresh(111.0)
    tools.mark_stale()  # a list_changed invalidates at once
    assert not tools.fresh(105.0)


def test_a_new_connection_keeps_fresh_public_lists_of_the_same_server_only() -> None:
    clock = [100.0]
    catalog, loader = _loader(clock)
    loader.prepare("server-a")
    catalog.tools.apply_page(_page(60_000), first=True, hints=cache_hints(_page(60_000)), now=100.0)
    private = _page(60_000, "private")
    catalog.prompts.apply_page(
        {
            "prompts": [{"name": "p"}],
            **{k: private[k] for k in ("ttlMs", "cacheScope", "resultType")},
        },
        first=True,
        hints=cache_hints(private),
        now=100.0,
    )
    clock[0] = 130.0
    loader.prepare("server-a")  # a reconnect within the TTL
    assert [i.key for i in catalog.tools] == ["t"] and catalog.tools.reused
    assert len(catalog.prompts) == 0  # private: listed again
    clock[0] = 161.0
    loader.prepare("server-a")  # past the TTL
    assert len(catalog.tools) == 0
    catalog.tools.apply_page(_page(60_000), first=True, hints=cache_hints(_page(60_000)), now=161.0)
    loader.prepare("server-b")  # another server (or other settings)
    assert len(catalog.tools) == 0
