"""Each tool's definition as first listed in a session: the session's own pin, so a tool
that changes while the tab is open is a rug pull (`changes.definition-changed`) even when
nothing was pinned. Qt-free."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FirstSeen"]


@dataclass
class FirstSeen:
    """tool name -> its definition when first listed in this session."""

    definitions: dict[str, dict[str, Any]] = field(default_factory=dict)

    def clear(self) -> None:
        self.definitions.clear()

    def see(self, tools: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """Remember the tools not seen before; every first definition, by name."""
        for raw in tools:
            name = raw.get("name")
            if isinstance(name, str):
                self.definitions.setdefault(name, raw)
        return self.definitions
