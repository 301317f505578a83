"""The store behind the Notifications tab: logging notifications, by traffic row.

It keeps the indices of their traffic rows plus one byte for the level, so a flood of a
million log lines costs about nine bytes each here; the text is parsed again only when a
row is shown. Cleared with the traffic log.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Callable, Sequence
from typing import Any

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.common.log_levels import LOG_LEVELS, level_index
from inspector.protocol.wire.jsonrpc import Notification
from inspector.traffic.log import TrafficEntry, TrafficLog
from inspector.traffic.record import TrafficRecord

__all__ = ["LogMessageStore"]


# The levels as servers spell them, straight to their index (level_index for the others).
_KNOWN_LEVELS: dict[str, int] = {name: level_index(name) for name in LOG_LEVELS}


class LogMessageStore:
    """Logging notifications, by traffic row. Cleared with the traffic log."""

    def __init__(self, traffic: TrafficLog) -> None:
        self.traffic = traffic
        self._appended: Listeners[[]] = Listeners("log message listener")
        self._cleared: Listeners[[]] = Listeners("log message listener")
        self.rows = array("q")  # traffic indices
        self.levels = bytearray()
        traffic.on_clear(self.clear)

    def __len__(self) -> int:
        return len(self.rows)

    def on_append(self, listener: Callable[[], None]) -> Unsubscribe:
        return self._appended.add(listener)

    def on_clear(self, listener: Callable[[], None]) -> Unsubscribe:
        return self._cleared.add(listener)

    def add(self, level: str, traffic_index: int) -> None:
        self.rows.append(traffic_index)
        self.levels.append(level_index(level))
        self._appended.emit()

    def add_many(self, rows: Sequence[int], levels: bytes) -> None:
        """Rows (in order, after those held) and their level indices, at once."""
        if rows:
            self.rows.extend(rows)
            self.levels.extend(levels)
            self._appended.emit()

    # A traffic observer, subscribed after the traffic log: a record's row is already there.
    def observe(self, record: TrafficRecord) -> None:
        self.observe_many((record,))

    def observe_many(self, records: Sequence[TrafficRecord]) -> None:
        """Take the logging notifications among `records` (just added to the traffic log,
        in order: the last of them is its last row)."""
        base = len(self.traffic) - len(records)
        added = False
        known = _KNOWN_LEVELS
        for i, record in enumerate(records):
            frame = record.frame
            if (
                type(frame) is Notification
                and frame.method == "notifications/message"
                and record.direction == "in"  # not one typed in the raw composer
            ):
                level = frame.params.get("level") if frame.params is not None else None
                code = known.get(level) if type(level) is str else None
                self.rows.append(base + i)
                self.levels.append(level_index(level) if code is None else code)  # type: ignore[arg-type]
                added = True
        if added:
            self._appended.emit()

    def entry(self, i: int) -> TrafficEntry:
        return self.traffic.entries[self.rows[i]]

    def clear(self) -> None:
        del self.rows[:]
        del self.levels[:]
        self._cleared.emit()

    def indices_at_least(self, minimum: int, start: int = 0, stop: int | None = None) -> list[int]:
        return [i for i, lv in enumerate(self.levels[start:stop], start) if lv >= minimum]

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
