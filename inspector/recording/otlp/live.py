"""A live tab's traffic so far as a `RecordedSession`, so `otlp.spans` maps it exactly as it
maps a session file: each row of the tab's `TrafficLog` becomes the line the recorder would
have written for it (`snapshot.entry_record` then `format.record_line`: the same HTTP
exchange numbering, the same redaction), after the header and `ready` lines of the
connection. Qt-free; nothing is written to disk.

Only what the span mapping reads is kept: requests, answers, invalid frames, HTTP
exchanges and cancellations; a notification flood costs a look at each row's kind.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.recording.format import Redactor, record_line
from inspector.recording.reader import RecordedEvent, RecordedSession
from inspector.recording.snapshot import entry_record
from inspector.traffic.log import TrafficLog
from inspector.transports.base import HttpExchange

__all__ = ["live_session"]

_SKIPPED = frozenset({"stderr", "note", "model"})
_CANCELLED = "notifications/cancelled"


def live_session(
    traffic: TrafficLog,
    header: dict[str, Any],
    ready: dict[str, Any] | None = None,
    *,
    start: int = 0,
    name: str = "live tab",
    redactor: Redactor | None = None,
) -> RecordedSession:
    """Rows `start:` of the log as a session. `header` and `ready` are the lines a recording
    of this connection starts with (`snapshot.traffic_header`, `format.ready_line`); `name`
    stands for the file's name (`mcp_inspector.session.file`)."""
    connection = header.get("connection")
    transport = connection.get("transport", "") if isinstance(connection, dict) else ""
    events: list[RecordedEvent] = []
    if ready is not None:
        events.append(RecordedEvent(1, "ready", dict(ready)))
    t0 = traffic.entries[start].mono if start < len(traffic) else 0.0
    xids: dict[int, tuple[HttpExchange, int]] = {}
    for index in range(start, len(traffic)):
        kind = traffic.row(index)[1]
        if kind in _SKIPPED:
            continue
        entry = traffic.entries[index]
        if kind == "notification" and not _cancel(entry.raw):
            continue
        record = entry_record(entry, str(transport))
        xid = _xid(xids, record.http) if record.http is not None else None
        line = record_line(record, t0, xid=xid, redactor=redactor)
        if redactor is not None and redactor.active:
            line = redactor.deep(line)
        events.append(RecordedEvent(index - start + 2, str(line["type"]), line))
    return RecordedSession(path=Path(name), header=dict(header), events=events)


def _cancel(raw: str | bytes) -> bool:
    return _CANCELLED in (raw if isinstance(raw, str) else raw.decode("utf-8", "replace"))


def _xid(known: dict[int, tuple[HttpExchange, int]], exchange: HttpExchange) -> int:
    """The number of an HTTP exchange, the same for its `http` row and the frames it
    carried (the recorder's rule)."""
    found = known.get(id(exchange))
    if found is not None and found[0] is exchange:
        return found[1]
    number = len(known) + 1
    known[id(exchange)] = (exchange, number)
    return number
