"""The store behind the Errors tab: what must never be hidden. Invalid frames, protocol
violations, failed requests, a server that went away, and notices about asks the app
declined, each with the traffic row it is about."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from inspector.common.listeners import Listeners, Unsubscribe

__all__ = ["ErrorItem", "ErrorStore"]


@dataclass(frozen=True, slots=True)
class ErrorItem:
    wall: float
    category: str  # "invalid frame", "protocol violation", "request failed", "connection", ...
    message: str
    entry_index: int | None = None  # the traffic row it is about, if any


class ErrorStore:
    def __init__(self) -> None:
        self.items: list[ErrorItem] = []
        self._appended: Listeners[[]] = Listeners("error listener")
        self._cleared: Listeners[[]] = Listeners("error listener")

    def __len__(self) -> int:
        return len(self.items)

    def on_append(self, listener: Callable[[], None]) -> Unsubscribe:
        return self._appended.add(listener)

    def on_clear(self, listener: Callable[[], None]) -> Unsubscribe:
        return self._cleared.add(listener)

    def add(self, category: str, message: str, entry_index: int | None = None) -> ErrorItem:
        item = ErrorItem(time.time(), category, message, entry_index)
        self.items.append(item)
        self._appended.emit()
        return item

    def clear(self) -> None:
        self.items.clear()
        self._cleared.emit()

    def forget_entries(self) -> None:
        """The traffic log was cleared: row references no longer point anywhere."""
        self.items = [
            ErrorItem(i.wall, i.category, i.message, None) if i.entry_index is not None else i
            for i in self.items
        ]
