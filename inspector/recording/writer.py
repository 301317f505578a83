"""The recorder: appends one JSON line per event from a bounded queue on a writer thread.

The observer only enqueues (cheap, on the caller's thread); serialization, redaction and
writing happen on the thread, which wakes every 50 ms and flushes after every batch, so
a crash of the server leaves everything in the file, and a crash of the app everything
up to its last 50 ms. The queue is bounded: if the
disk falls far behind, `observe` waits for room rather than drop an event.
"""

from __future__ import annotations

import collections
import json
import logging
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final

from inspector.lint.finding import Finding
from inspector.recording.format import (
    Redactor,
    plain_frame_line,
    plain_frame_lines,
    ready_line,
    record_line,
)
from inspector.traffic.record import TrafficRecord
from inspector.transports.base import HttpExchange

if TYPE_CHECKING:  # the session layer loads only where a responder is wrapped (not in
    # the tap's recorder process, which only writes frames)
    from inspector.protocol.machine.asks import ServerAsk
    from inspector.protocol.machine.events import SessionReady
    from inspector.session import Responder

__all__ = ["RecordingResponder", "SessionRecorder"]

log = logging.getLogger(__name__)

_STOP: Final = object()
_MAX_OPEN_EXCHANGES: Final = 4096
# How far the file may lag behind the session (the writer thread wakes this often).
_WRITE_EVERY: Final = 0.05


class SessionRecorder:
    def __init__(
        self,
        path: str | Path,
        header: dict[str, Any],
        *,
        redactor: Redactor | None = None,
        t0: float | None = None,
        queue_size: int = 100_000,
    ) -> None:
        self.path = Path(path)
        self.redactor = redactor or Redactor()
        self.t0 = time.monotonic() if t0 is None else t0
        self._header = header
        # A deque plus an Event, not a queue.Queue: under a message flood the producer (the
        # UI thread) pays one append and one flag check per event, no lock.
        self._items: collections.deque[Any] = collections.deque()
        self._wake = threading.Event()
        self._max_items = queue_size
        self._thread: threading.Thread | None = None
        self._file: IO[str] | None = None
        self.lines_written = 0
        self.error: str | None = None
        self.waits = 0  # times the queue was full and observe() had to wait
        # HTTP exchanges numbered by identity (the frames they carried hold the same
        # object); the exchange is kept so that its id() is not reused while listed.
        self._xids: dict[int, tuple[HttpExchange, int]] = {}
        self._next_xid = 1

    @property
    def header(self) -> dict[str, Any]:
        """The header line (before redaction) this recording started with."""
        return self._header

    def start(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("w", encoding="utf-8", errors="replace", newline="\n")
        self._write_lines([self._header])
        self._thread = threading.Thread(target=self._run, name="session-recorder", daemon=True)
        self._thread.start()

    # -- producers (any thread) --------------------------------------------
    def observe(self, record: TrafficRecord) -> None:
        self._put(("record", record))

    def observe_many(self, records: Sequence[TrafficRecord]) -> None:
        """Records that arrived together: one queue item for all of them. Plain frames with
        nothing to redact are formatted here, together (a few us each): the writer thread
        then only writes, and hardly competes with this thread for the GIL."""
        if not self.redactor.active:
            lines = plain_frame_lines(records, self.t0)
            if None not in lines:
                self._put(("lines", lines))
                return
        self._put(("records", records))

    def ready(self, ready: SessionReady) -> None:
        self._put(("line", ready_line(ready)))

    def lint(self, row: int, finding: Finding) -> None:
        """A lint finding about the `row`-th traffic line of this file (0: the first)."""
        line = finding.to_json()
        line.pop("index", None)
        self._put(("line", {"type": "lint", "row": row, **line}))

    def action(self, text: str, **data: Any) -> None:
        """A user action worth knowing, e.g. "answered sampling request 7 by hand"."""
        line = {"type": "action", "text": text, "wall": round(time.time(), 6)}
        line["t"] = round(time.monotonic() - self.t0, 6)
        if data:
            line["data"] = data
        self._put(("line", line))

    def _put(self, item: Any) -> None:
        thread = self._thread
        if thread is None or self.error is not None:
            return  # not started, closed, or the disk failed (the error says so)
        if len(self._items) >= self._max_items:
            self.waits += 1
            # Wait for room, but not for a writer that has died (it would never make any).
            while len(self._items) >= self._max_items and thread.is_alive():
                self._wake.set()
                time.sleep(0.001)
        self._items.append(item)
        # No wake-up per item: the writer looks every _WRITE_EVERY s. Under a flood, waking
        # it per batch made the two threads pass the GIL back and forth (each hand-over
        # waits for the OS to schedule the other thread: the GUI thread idled half the time).

    def close(self, timeout: float = 10.0) -> None:
        thread = self._thread
        if thread is None:
            return
        self._thread = None  # later events are dropped, not queued behind the stop
        deadline = time.monotonic() + timeout
        self._items.append(_STOP)
        self._wake.set()
        thread.join(max(0.0, deadline - time.monotonic()))
        if self._file is not None and not thread.is_alive():
            self._file.close()
            self._file = None

    # -- the writer thread ----------------------------------------------------
    def _run(self) -> None:
        items = self._items
        while True:
            self._wake.wait(_WRITE_EVERY)
            self._wake.clear()
            while items:
                batch: list[Any] = []
                while items and len(batch) < 1000:
                    batch.append(items.popleft())
                stop = any(b is _STOP for b in batch)
                try:
                    lines = self._to_lines(batch)
                    self._write_lines(lines)
                except (OSError, ValueError) as exc:
                    self.error = f"writing {self.path} failed: {exc}"
                    log.error("%s", self.error)
                    items.clear()
                    return
                if stop:
                    return

    def _to_lines(self, batch: list[Any]) -> list[dict[str, Any] | str]:
        """The lines of a batch of items; plain frames formatted together (the fast path)."""
        items: list[Any] = []
        for b in batch:
            if b is _STOP:
                continue
            if b[0] == "records":
                items.extend(("record", r) for r in b[1])
            elif b[0] == "lines":
                items.extend(("text", line) for line in b[1])
            else:
                items.append(b)
        if self.redactor.active:
            return [
                value if kind == "text" else self._to_line((kind, value)) for kind, value in items
            ]
        fast = iter(
            plain_frame_lines([value for kind, value in items if kind == "record"], self.t0)
        )
        lines: list[dict[str, Any] | str] = []
        for kind, value in items:
            if kind == "text":
                lines.append(value)
                continue
            line = next(fast) if kind == "record" else None
            lines.append(line if line is not None else self._to_line((kind, value)))
        return lines

    def _to_line(self, item: Any) -> dict[str, Any] | str:
        kind, value = item
        if kind == "record":
            if not self.redactor.active:
                fast = plain_frame_line(value, self.t0)
                if fast is not None:
                    return fast
            xid = self._xid(value.http) if value.http is not None else None
            return record_line(value, self.t0, xid=xid, redactor=self.redactor)
        return dict(value)

    def _xid(self, exchange: HttpExchange) -> int:
        known = self._xids.get(id(exchange))
        if known is not None and known[0] is exchange:
            return known[1]
        xid = self._next_xid
        self._next_xid += 1
        self._xids[id(exchange)] = (exchange, xid)
        if len(self._xids) > _MAX_OPEN_EXCHANGES:
            del self._xids[next(iter(self._xids))]
        return xid

    def _write_lines(self, lines: list[dict[str, Any] | str]) -> None:
        if self._file is None or not lines:
            return
        text = "".join(
            (
                line
                if isinstance(line, str)
                else json.dumps(self.redactor.deep(line), ensure_ascii=False, separators=(",", ":"))
            )
            + "\n"
            for line in lines
        )
        self._file.write(text)
        self._file.flush()
        self.lines_written += len(lines)


class RecordingResponder:
    """Wraps a Responder and records how each server ask was answered."""

    def __init__(self, inner: Responder, recorder: SessionRecorder, how: str = "by policy") -> None:
        self.inner = inner
        self.recorder = recorder
        self.how = how

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        from inspector.session import AskRejected

        try:
            result = await self.inner.respond(ask)
        except AskRejected as exc:
            self.recorder.action(f"rejected {ask.kind} ({ask.origin}) {self.how}: {exc}")
            raise
        self.recorder.action(f"answered {ask.kind} ({ask.origin}) {self.how}")
        return result
