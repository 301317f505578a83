"""What the Security view scans, from one tab's connection: what it has listed (no request
is sent), with what is known around it for the rules: the tools' pins and their first
definitions in this session (the rug pull rule), the profile's roots (`file://` resources
outside them). The adapter is the scan CLI's (`compare.security_scan`), so a tab and
`mcp-inspector-qt scan` read a server the same way. Imported when the first review runs
(the rules load Unicode tables: ~0.1 s)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from inspector.compare.security_scan import definitions_from_snapshot
from inspector.compare.snapshot import snapshot_from_connection
from inspector.core.connection import ConnectionModel
from inspector.security import ServerDefinitions
from inspector.ui.security.first_seen import FirstSeen

__all__ = ["definitions_of", "unique_names"]


def definitions_of(
    name: str, connection: ConnectionModel, first_seen: FirstSeen
) -> ServerDefinitions:
    """One tab's definitions under `name`, as listed so far."""
    snap = snapshot_from_connection(connection)
    loader = connection.catalog_loader
    pinned: dict[str, Any] = {}
    if loader.pins is not None and loader.scope is not None:
        pins = loader.pins.pins(loader.scope)
        pinned = {tool: pin.get("definition") for tool, pin in pins.items()}
    profile = connection.profile
    return definitions_from_snapshot(
        name,
        snap,
        roots=[r.uri for r in profile.roots] if profile is not None else (),
        pinned=pinned,
        first_seen=dict(first_seen.see(snap.tools)),
    )


def unique_names(names: Iterable[str]) -> list[str]:
    """The tabs' server names, a repeated one numbered (`demo`, `demo #2`): a finding
    names its server, and two tabs of one server must still read apart."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    return out
