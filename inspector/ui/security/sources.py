"""What the Security view scans, from one tab's connection: what it has listed (no request
is sent), with what is known around it for the rules: the tools' pins and their first
definitions in this session (the rug pull rule), the profile's roots (`file://` resources
outside them). Gathered on the event loop (cheap: references to the catalog's items); the
review's worker thread turns it into the rules' input with the scan CLI's own adapter
(`compare.security_scan.definitions_from_snapshot`), so a tab and `mcp-inspector-qt scan`
read a server the same way, and the rules (and their Unicode tables) load off the loop."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from inspector.core.connection import ConnectionModel
from inspector.ui.security.first_seen import FirstSeen

if TYPE_CHECKING:  # compare (and the rules) load with the first review, not the window
    from inspector.compare.snapshot import CatalogSnapshot
    from inspector.security import ServerDefinitions

__all__ = ["TabListing", "listing_of", "unique_names"]


@dataclass(frozen=True)
class TabListing:
    """One tab's server as the review scans it, under `name` (unique among the tabs)."""

    name: str
    snapshot: CatalogSnapshot
    roots: tuple[str, ...] = ()
    pinned: dict[str, Any] = field(default_factory=dict)
    first_seen: dict[str, Any] = field(default_factory=dict)

    def definitions(self) -> ServerDefinitions:
        """The rules' input (imports the rules: call it off the event loop)."""
        from inspector.compare.security_scan import definitions_from_snapshot

        return definitions_from_snapshot(
            self.name,
            self.snapshot,
            roots=self.roots,
            pinned=self.pinned,
            first_seen=self.first_seen,
        )


def listing_of(name: str, connection: ConnectionModel, first_seen: FirstSeen) -> TabListing:
    """One tab's listing under `name`, as listed so far."""
    from inspector.compare.snapshot import snapshot_from_connection

    snap = snapshot_from_connection(connection)
    loader = connection.catalog_loader
    pinned: dict[str, Any] = {}
    if loader.pins is not None and loader.scope is not None:
        pins = loader.pins.pins(loader.scope)
        pinned = {tool: pin.get("definition") for tool, pin in pins.items()}
    profile = connection.profile
    return TabListing(
        name,
        snap,
        roots=tuple(r.uri for r in profile.roots) if profile is not None else (),
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
