"""The Server Card check (a draft, SEP-2127): the card of an HTTP server, looked for where
`registry.server_card` looks, against what the connected server reports (name, version,
title, the transport and protocol versions of the remote connected to, and the primitives
when a card lists them). No card is no finding (skipped); a broken card or a difference
is a warning, never a failure: the proposal is a draft."""

from __future__ import annotations

from typing import Any, Final

from inspector.check.probe import CheckContext
from inspector.check.spec import Check, Outcome, ok, skip, warn
from inspector.protocol.wire.versions import Era
from inspector.registry.card_compare import Observed, compare_card
from inspector.registry.server_card import CardState, fetch_server_card

__all__ = ["CARD_CHECKS"]

_LISTS: Final = (("tools", "name"), ("prompts", "name"), ("resources", "uri"))


async def _listed(ctx: CheckContext, card: dict[str, Any]) -> dict[str, list[str] | None]:
    """The live names (URIs for resources) of each kind the card lists; None for a kind
    the server does not declare. A kind the card leaves out is not listed (no request)."""
    session = await ctx.live()
    out: dict[str, list[str] | None] = {}
    for kind, key in _LISTS:
        if not isinstance(card.get(kind), list):
            continue
        if kind not in ctx.capabilities:
            out[kind] = None
            continue
        if kind == "tools":
            items = await session.list_tools()
        elif kind == "prompts":
            items = await session.list_prompts()
        else:
            items = await session.list_resources()
        out[kind] = [str(i[key]) for i in items if isinstance(i, dict) and key in i]
    return out


async def _card_consistent(ctx: CheckContext) -> Outcome:
    session = await ctx.live()
    url = ctx.profile.http.url
    found = await fetch_server_card(url, timeout=min(ctx.options.timeout, 5.0))
    if found.state is CardState.MISSING:
        return skip(found.describe())
    if found.state is not CardState.FOUND or found.card is None:
        lines = [found.describe(), *(str(p) for p in found.problems[:6])]
        return warn("\n".join(lines))
    ready = session.ready_info
    supported = None
    if ctx.era is Era.MODERN and ready is not None and isinstance(ready.result, dict):
        versions = ready.result.get("supportedVersions")
        if isinstance(versions, list):
            supported = [str(v) for v in versions]
    listed = await _listed(ctx, found.card)
    live = Observed(
        url=url,
        transport="sse" if session.transport_kind == "sse" else "streamable-http",
        server_info=dict(session.server_info),
        protocol_version=session.protocol_version,
        supported_versions=supported,
        tools=listed.get("tools"),
        prompts=listed.get("prompts"),
        resources=listed.get("resources"),
    )
    differences, notes = compare_card(found.card, live)
    findings = [f"schema {p}" for p in found.problems] + [str(d) for d in differences]
    if findings:
        head = f"{len(findings)} finding(s) in the Server Card (draft) at {found.url}"
        return warn("\n".join([head, *findings[:12]]))
    said = f"the Server Card (draft) at {found.url} agrees with the server"
    return ok(said + (f" ({'; '.join(notes)})" if notes else ""))


CARD_CHECKS: Final[tuple[Check, ...]] = (
    Check(
        "card.consistent",
        "the Server Card (a draft), if there is one, agrees with what the server reports",
        "SEP-2127 Server Cards (draft) § Consistency with Runtime Behavior",
        _card_consistent,
        transport="http",
    ),
)
