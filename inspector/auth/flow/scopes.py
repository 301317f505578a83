"""Which scopes a login asks for: the spec's scope selection strategy, and the union of
scopes a step-up asks for. Pure functions, so the rules can be read and tested alone."""

from __future__ import annotations

from typing import Final

from inspector.auth.flow.data import ProtectedResource, ServerMetadata

__all__ = ["select_scope", "union_scopes"]

_OFFLINE: Final = "offline_access"


def union_scopes(previous: str | None, new: str | None) -> str | None:
    """The scopes asked before plus the challenged ones, order kept (spec 2026-07-28
    "Step-Up Authorization Flow")."""
    if not previous:
        return new
    if not new:
        return previous
    merged = previous.split()
    for scope in new.split():
        if scope not in merged:
            merged.append(scope)
    return " ".join(merged)


def select_scope(
    *,
    override: str | None,
    challenge_scope: str | None,
    prm: ProtectedResource | None,
    meta: ServerMetadata | None,
    offline_access: bool,
) -> str | None:
    """The spec's "Scope Selection Strategy": the user's override, else the scope of the
    challenge, else all of the PRM's `scopes_supported`, else none (the parameter is
    omitted). `offline_access` is added when the AS lists it (SEP-2207)."""
    scope = override or challenge_scope
    if scope is None and prm is not None and prm.scopes_supported:
        scope = " ".join(prm.scopes_supported)
    if (
        scope
        and offline_access
        and meta is not None
        and meta.scopes_supported is not None
        and _OFFLINE in meta.scopes_supported
        and _OFFLINE not in scope.split()
    ):
        scope = f"{scope} {_OFFLINE}"
    return scope or None
