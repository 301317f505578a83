"""Qt-free stores behind the Notifications and Errors tabs.

`LogMessageStore` keeps logging notifications as the indices of their traffic
rows plus one byte for the level, so a flood of a million log lines costs about
nine bytes each here; the text is parsed again only when a row is shown.
`ErrorStore` keeps what must never be hidden: invalid frames, protocol
violations, failed requests, a server that went away, and notices about asks
the app declined.
"""

from __future__ import annotations

import json
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.protocol.jsonrpc import Notification
from inspector.protocol.log_levels import level_index
from inspector.traffic.log import TrafficEntry, TrafficLog

__all__ = ["ErrorItem", "ErrorStore", "LogMessageStore"]


class _Listeners:
    def __init__(self) -> None:
        self._append: list[Callable[[], None]] = []
        self._clear: list[Callable[[], None]] = []

    def on_append(self, listener: Callable[[], None]) -> None:
        self._append.append(listener)

    def on_clear(self, listener: Callable[[], None]) -> None:
        self._clear.append(listener)

    def _appended(self) -> None:
        for listener in self._append:
            listener()

    def _cleared(self) -> None:
        for listener in self._clear:
            listener()


class LogMessageStore(_Listeners):
    """Logging notifications, by traffic row. Cleared with the traffic log."""

    def __init__(self, traffic: TrafficLog) -> None:
        super().__init__()
        self.traffic = traffic
        self.rows = array("q")  # traffic indices
        self.levels = bytearray()
        traffic.on_clear(self.clear)

    def __len__(self) -> int:
        return len(self.rows)

    def add(self, level: str, traffic_index: int) -> None:
        self.rows.append(traffic_index)
        self.levels.append(level_index(level))
        for listener in self._append:
            listener()

    def entry(self, i: int) -> TrafficEntry:
        return self.traffic.entries[self.rows[i]]

    def clear(self) -> None:
        del self.rows[:]
        del self.levels[:]
        self._cleared()

    def indices_at_least(self, minimum: int, start: int = 0) -> list[int]:
        return [i for i, lv in enumerate(self.levels[start:], start) if lv >= minimum]

    @staticmethod
    def fields(entry: TrafficEntry) -> tuple[str, str, str]:
        """(level, logger, message) of a logging notification, parsed from its raw text."""
        frame = entry.parse()
        params: dict[str, Any] = (frame.params or {}) if isinstance(frame, Notification) else {}
        data = params.get("data")
        message = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        logger = params.get("logger")
        level = params.get("level")
        return (
            level if isinstance(level, str) else "?",
            logger if isinstance(logger, str) else "",
            message,
        )


@dataclass(frozen=True, slots=True)
class ErrorItem:
    wall: float
    category: str  # "invalid frame", "protocol violation", "request failed", "connection", ...
    message: str
    entry_index: int | None = None  # the traffic row it is about, if any


class ErrorStore(_Listeners):
    def __init__(self) -> None:
        super().__init__()
        self.items: list[ErrorItem] = []

    def __len__(self) -> int:
        return len(self.items)

    def add(self, category: str, message: str, entry_index: int | None = None) -> ErrorItem:
        item = ErrorItem(time.time(), category, message, entry_index)
        self.items.append(item)
        self._appended()
        return item

    def clear(self) -> None:
        self.items.clear()
        self._cleared()

    def forget_entries(self) -> None:
        """The traffic log was cleared: row references no longer point anywhere."""
        self.items = [
            ErrorItem(i.wall, i.category, i.message, None) if i.entry_index is not None else i
            for i in self.items
        ]
