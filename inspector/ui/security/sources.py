"""What the Security view scans, from one tab's connection: its definitions as the catalog
holds them, and its rug pulls (a tool changed since it was pinned, or since it was first
listed in this session: `first_seen`). Qt-free; `review.SecurityReview` runs the rules over
every tab. Imported when the first review runs (the rules load Unicode tables: ~0.1 s).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from inspector.features.catalog.lists import Catalog
from inspector.features.catalog.pins import PINNED_FIELDS, PinChange
from inspector.security import SecurityFinding, ServerDefinitions, Severity
from inspector.security.finding import evidence

__all__ = ["CHANGED_RULE", "change_findings", "definitions_of", "unique_names"]

CHANGED_RULE: Final = "changes.definition-changed"
_SPEC: Final = "Security Best Practices; tool definitions that change after they are trusted"


def definitions_of(name: str, catalog: Catalog, instructions: Any = None) -> ServerDefinitions:
    """One tab's definitions under `name`, as listed so far (no request is sent)."""
    return ServerDefinitions(
        name=name,
        tools=[item.raw for item in catalog.tools],
        prompts=[item.raw for item in catalog.prompts],
        resources=[item.raw for item in catalog.resources],
        templates=[item.raw for item in catalog.templates],
        instructions=instructions,
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


def change_findings(
    server: str,
    pinned: Mapping[str, PinChange],
    session: Iterable[tuple[dict[str, Any], dict[str, Any]]],
) -> list[SecurityFinding]:
    """A high finding per tool changed since it was pinned (`pinned`: the catalog's pin
    alerts) or since its first listing in this session (`session`), once per tool."""
    found: list[SecurityFinding] = []
    for name, change in pinned.items():
        found.append(_changed(server, name, change.old, change.new, "since it was pinned"))
    for old, new in session:
        name = str(new.get("name", ""))
        if name not in pinned:
            found.append(_changed(server, name, old, new, "since it was first listed"))
    return found


def _changed(
    server: str, name: str, old: dict[str, Any], new: dict[str, Any], since: str
) -> SecurityFinding:
    fields = [f for f in PINNED_FIELDS if old.get(f) != new.get(f)]
    first = fields[0] if fields else ""
    now = new.get(first)
    text = now if isinstance(now, str) else repr(now)
    return SecurityFinding(
        rule=CHANGED_RULE,
        severity=Severity.HIGH,
        server=server,
        kind="tool",
        item=name,
        field=first,
        pointer=f"/{first}" if first else "",
        offset=-1,
        evidence=evidence(text, 0, 0),
        reason=f"the tool's definition changed {since} ({', '.join(fields) or 'its fields'}):"
        " a rug pull lets a server change what a tool does after it was trusted",
        spec=_SPEC,
    )
