"""Each tool's definition as first listed in a session: the session's own pin, so a tool
that changes while the tab is open is a rug pull even when nothing was pinned. Qt-free."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from inspector.features.catalog.pins import pinned_hash

__all__ = ["FirstSeen"]


@dataclass
class FirstSeen:
    """Each tool's definition as first listed in this session (the session's own pin, over
    the fields a pin covers)."""

    definitions: dict[str, dict[str, Any]] = field(default_factory=dict)
    hashes: dict[str, str] = field(default_factory=dict)

    def clear(self) -> None:
        self.definitions.clear()
        self.hashes.clear()

    def changed(
        self, tools: Iterable[dict[str, Any]]
    ) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(first, now) of each tool whose definition differs from its first listing;
        a tool not seen before is remembered."""
        out = []
        for raw in tools:
            name = raw.get("name")
            if not isinstance(name, str):
                continue
            digest = pinned_hash(raw)  # what a pin covers: `_meta` may change freely
            first = self.hashes.setdefault(name, digest)
            if first == digest:
                self.definitions.setdefault(name, raw)
            else:
                out.append((self.definitions[name], raw))
        return out
