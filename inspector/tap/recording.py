"""The tap's recording side: what the relay hands over, framed and written to the live
session file, without ever making the relay wait.

`chunk()` is all the relay calls: one deque append, no lock, no parsing. A framer thread
cuts the chunks into lines (`LineFramer`), spots the handshake (`HandshakeWatch`) and hands
the records to the app's `SessionRecorder`, which writes and flushes per batch from its own
thread (crash-safe, secrets redacted). When the recording falls behind by more than the
byte budget, chunks are dropped, not queued: the file gets a `recording gap` note saying
how many bytes of which stream are missing, and the relay never slowed down.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from inspector.recording.format import Redactor
from inspector.recording.writer import Rotation, SessionRecorder
from inspector.tap.framing import DEFAULT_MAX_LINE, LineFramer
from inspector.tap.handshake_watch import HandshakeWatch
from inspector.traffic.record import TrafficRecord

__all__ = ["DEFAULT_BUDGET", "STREAMS", "TapRecording"]

log = logging.getLogger(__name__)

STREAMS: Final = ("out", "in", "stderr")
_NAMES: Final = {
    "out": "from the host to the server (stdin)",
    "in": "from the server to the host (stdout)",
    "stderr": "of the server's stderr",
}
_STOP: Final = object()
DEFAULT_BUDGET: Final = 64 * 1024 * 1024


class TapRecording:
    def __init__(
        self,
        path: str | Path,
        header: dict[str, Any],
        *,
        redactor: Redactor | None = None,
        budget: int = DEFAULT_BUDGET,
        transport: str = "stdio",
        max_line: int = DEFAULT_MAX_LINE,
        on_error: Callable[[str], None] | None = None,
        t0: float | None = None,
        rotation: Rotation | None = None,
    ) -> None:
        self.path = Path(path)
        self.recorder = SessionRecorder(path, header, redactor=redactor, t0=t0, rotation=rotation)
        self.budget = budget
        self.on_error = on_error
        self.error: str | None = None
        self.handshake = HandshakeWatch()
        self._framers = {s: LineFramer(s, transport, max_line) for s in STREAMS}
        self._items: collections.deque[Any] = collections.deque()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        # Each counter has one writer (its stream's relay thread, or the framer thread).
        self._queued = dict.fromkeys(STREAMS, 0)
        self._done = dict.fromkeys(STREAMS, 0)
        self._dropped = dict.fromkeys(STREAMS, 0)  # bytes dropped since the last gap note
        self.dropped_total = dict.fromkeys(STREAMS, 0)
        self.gaps = 0
        self._live = False
        self._finished = False

    @property
    def t0(self) -> float:
        return self.recorder.t0

    def start(self) -> bool:
        """Open the file and start the framer. False (and `error` says why) on failure."""
        try:
            self.recorder.start()
        except OSError as exc:
            self._fail(f"cannot write the session file {self.path}: {exc.strerror or exc}")
            return False
        self._live = True
        self._thread = threading.Thread(target=self._run, name="tap-framer", daemon=True)
        self._thread.start()
        return True

    # -- the relay's side (must never block) ------------------------------------
    def chunk(
        self, stream: str, data: bytes, mono: float | None = None, wall: float | None = None
    ) -> None:
        if not self._live:
            return
        if self._queued[stream] - self._done[stream] > self.budget // 3:
            self._dropped[stream] += len(data)
            self.dropped_total[stream] += len(data)
            return
        if mono is None or wall is None:
            mono, wall = time.monotonic(), time.time()
        dropped = self._dropped[stream]
        if dropped:
            self._dropped[stream] = 0
            self._items.append(("gap", stream, dropped, mono, wall))
        self._queued[stream] += len(data)
        self._items.append((stream, data, mono, wall))
        if not self._wake.is_set():
            self._wake.set()

    def gap(self, stream: str, size: int, mono: float, wall: float) -> None:
        """`size` bytes of `stream` were relayed but never reached the recording."""
        if self._live:
            self.dropped_total[stream] += size
            self._items.append(("gap", stream, size, mono, wall))
            self._wake.set()

    def note(
        self,
        text: str,
        note: str | None = None,
        mono: float | None = None,
        wall: float | None = None,
    ) -> None:
        """A line the tap itself reports (the server's exit, a failure to start...)."""
        if self._live:
            if mono is None or wall is None:
                mono, wall = time.monotonic(), time.time()
            self._items.append(("note", text, note, mono, wall))
            self._wake.set()

    # -- closing ---------------------------------------------------------------
    def close(self, last_note: str | None = None, timeout: float = 10.0) -> None:
        """Record what is left (a last line without a newline, then `last_note`, e.g. the
        server's exit) and close the file."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._live = False
            for stream in STREAMS:
                if self._dropped[stream]:
                    now = time.monotonic(), time.time()
                    self._items.append(("gap", stream, self._dropped[stream], *now))
                    self._dropped[stream] = 0
            if last_note is not None:
                self._items.append(("last", last_note))
            self._items.append(_STOP)
            self._wake.set()
            thread.join(timeout)
        self.recorder.close(timeout)
        if self.recorder.error and self.error is None:
            self._fail(self.recorder.error)

    # -- the framer thread -------------------------------------------------------
    def _run(self) -> None:
        items = self._items
        while True:
            self._wake.wait()
            self._wake.clear()
            while items:
                item = items.popleft()
                if item is _STOP:
                    self._finish()
                    return
                self._handle(item)
            if self.recorder.error and self.error is None:
                self._fail(self.recorder.error)
                self._live = False
                items.clear()
                return

    def _handle(self, item: tuple[Any, ...]) -> None:
        kind = item[0]
        if kind == "gap":
            _, stream, size, mono, wall = item
            self._framers[stream].gap()
            self.gaps += 1
            self._emit(
                TrafficRecord(
                    "",
                    "note",
                    f"recording gap: {size:,} bytes {_NAMES[stream]} were relayed but not "
                    "recorded (the recording fell behind; the relay did not wait)",
                    mono,
                    wall,
                    "stdio",
                    note="recording gap",
                )
            )
        elif kind == "last":
            self._finish()
            now = time.monotonic(), time.time()
            self._emit(TrafficRecord("", "note", item[1], *now, "stdio", note="transport closed"))
        elif kind == "note":
            _, text, note, mono, wall = item
            self._emit(TrafficRecord("", "note", text, mono, wall, "stdio", note=note))
        else:
            stream, data, mono, wall = item
            for record in self._framers[stream].feed(data, mono, wall):
                self._emit(record)
            self._done[stream] += len(data)

    def _emit(self, record: TrafficRecord) -> None:
        self.recorder.observe(record)
        if record.frame is not None:
            ready = self.handshake.see(record)
            if ready is not None:
                self.recorder.ready(ready)

    def _finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        mono, wall = time.monotonic(), time.time()
        for framer in self._framers.values():
            for record in framer.finish(mono, wall):
                self._emit(record)

    def _fail(self, message: str) -> None:
        self.error = message
        log.warning("%s", message)
        if self.on_error is not None:
            self.on_error(message)
