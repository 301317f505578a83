"""The recorder: appends one JSON line per event from a bounded queue on a writer thread.

The observer only enqueues (cheap, on the caller's thread); serialization, redaction and
writing happen on the thread, which wakes every 50 ms and flushes after every batch, so
a crash of the server leaves everything in the file, and a crash of the app everything
up to its last 50 ms. The queue is bounded: if the
disk falls far behind, `observe` waits for room rather than drop an event.

A path ending in `.gz` or `.zst` is written compressed, each batch flushed to a block
boundary (`storage/flushed_file`): readable after a kill up to the last batch. With a
`Rotation`, the recording goes on in a new part when the current one reached a size or
an age: `tap.jsonl`, then `tap.part2.jsonl`, `tap.part3.jsonl`... (`part_path`), each
starting with the session's header plus `"part": N`; times keep counting from the start.
"""

from __future__ import annotations

import collections
import json
import logging
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from inspector.lint.finding import Finding
from inspector.recording.format import (
    Redactor,
    plain_frame_line,
    plain_frame_lines,
    ready_line,
    record_line,
)
from inspector.recording.parts import part_name
from inspector.storage.flushed_file import FlushedFile
from inspector.traffic.record import TrafficRecord
from inspector.transports.base import HttpExchange

if TYPE_CHECKING:  # the session layer loads only where a responder is wrapped (not in
    # the tap's recorder process, which only writes frames)
    from inspector.protocol.machine.asks import ServerAsk
    from inspector.protocol.machine.events import SessionReady
    from inspector.session import Responder

__all__ = [
    "RecordingResponder",
    "Rotation",
    "SessionRecorder",
    "parse_duration",
    "parse_size",
    "part_path",
]

log = logging.getLogger(__name__)

_STOP: Final = object()
_MAX_OPEN_EXCHANGES: Final = 4096
# How far the file may lag behind the session (the writer thread wakes this often).
_WRITE_EVERY: Final = 0.05
_PART_NAME: Final = re.compile(r"^.+?\.jsonl(?:\.gz|\.zst|\.zstd)?$")
_SIZE: Final = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.I)
_DURATION: Final = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|d)?\s*$", re.I)
_UNITS: Final = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SECONDS: Final = {None: 1, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rotation:
    """When a recording goes on in a new part: once its part holds `size` bytes (on disk;
    a compressed part is checked after each flushed batch), or is `every` seconds old
    (checked when the next batch comes). None: never for that reason."""

    size: int | None = None
    every: float | None = None

    def __bool__(self) -> bool:
        return bool(self.size or self.every)

    @classmethod
    def parse(cls, size: str | None, every: str | None) -> Rotation | None:
        """From the words people write (`--rotate-size 100M`, `--rotate-every 1h`); None
        when neither is given. ValueError saying which is wrong."""
        try:
            bytes_ = parse_size(size) if size else None
        except ValueError as exc:
            raise ValueError(f"--rotate-size {size}: {exc}") from None
        try:
            seconds = parse_duration(every) if every else None
        except ValueError as exc:
            raise ValueError(f"--rotate-every {every}: {exc}") from None
        return cls(bytes_, seconds) if bytes_ or seconds else None


def parse_size(text: str) -> int:
    """Bytes from "100M", "1.5G", "512k", "4096" (binary units). ValueError when not."""
    match = _SIZE.match(text)
    if match is None or float(match[1]) <= 0:
        raise ValueError(f"{text!r} is not a size (e.g. 100M, 1G, 512k)")
    return max(1, int(float(match[1]) * _UNITS[match[2].lower()]))


def parse_duration(text: str) -> float:
    """Seconds from "1h", "30m", "90s", "1d", "600". ValueError when not."""
    match = _DURATION.match(text)
    if match is None or float(match[1]) <= 0:
        raise ValueError(f"{text!r} is not a duration (e.g. 1h, 30m, 90s, 1d)")
    unit = match[2].lower() if match[2] else None
    return float(match[1]) * _SECONDS[unit]


def part_path(first: str | Path, number: int) -> Path:
    """The file of part `number` of a recording whose first part is `first`: `.partN`
    before `.jsonl`, the compression suffix kept (`tap.jsonl.gz` -> `tap.part2.jsonl.gz`),
    as the reader (`parts.part_name`) finds them. ValueError when the name does not end in
    `.jsonl` (compressed or not)."""
    first = Path(first)
    if _PART_NAME.match(first.name) is None:
        raise ValueError(
            f"{first.name}: a rotated recording's name ends in .jsonl, .jsonl.gz or .jsonl.zst"
        )
    return part_name(first, number)


class SessionRecorder:
    def __init__(
        self,
        path: str | Path,
        header: dict[str, Any],
        *,
        redactor: Redactor | None = None,
        t0: float | None = None,
        queue_size: int = 100_000,
        rotation: Rotation | None = None,
    ) -> None:
        self.path = Path(path)  # the first part
        self.rotation = rotation if rotation else None
        if self.rotation is not None:
            part_path(self.path, 2)  # a name parts can be named after (ValueError if not)
        self.parts: list[Path] = []  # the files written so far, first to last
        self.redactor = redactor or Redactor()
        self.t0 = time.monotonic() if t0 is None else t0
        self._header = header
        # A deque plus an Event, not a queue.Queue: under a message flood the producer (the
        # UI thread) pays one append and one flag check per event, no lock.
        self._items: collections.deque[Any] = collections.deque()
        self._wake = threading.Event()
        self._max_items = queue_size
        self._thread: threading.Thread | None = None
        self._file: FlushedFile | None = None
        self._part_started = 0.0
        self._part_lines = 0  # lines in the current part after its header
        self.lines_written = 0
        self.error: str | None = None
        self.waits = 0  # times the queue was full and observe() had to wait
        # HTTP exchanges numbered by identity (the frames they carried hold the same
        # object); the exchange is kept so that its id() is not reused while listed.
        self._xids: dict[int, tuple[HttpExchange, int]] = {}
        self._next_xid = 1

    @property
    def current_path(self) -> Path:
        """The file being written now: the last part (the first before any rotation)."""
        parts = self.parts
        return parts[-1] if parts else self.path

    @property
    def header(self) -> dict[str, Any]:
        """The header line (before redaction) this recording started with."""
        return self._header

    def start(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._open_part(self.path, self._header)
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

    def conversation(self, conversation_id: str, conversation: dict[str, Any]) -> None:
        """A Playground conversation as it stands (`Conversation.to_json()`): written after
        each turn; a later line with the same `id` replaces an earlier one."""
        line = {"type": "conversation", "wall": round(time.time(), 6)}
        line["t"] = round(time.monotonic() - self.t0, 6)
        line["id"] = conversation_id
        line["conversation"] = conversation
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
        if all(b is _STOP or b[0] == "lines" for b in batch):  # a flood: formatted already
            return [line for b in batch if b is not _STOP for line in b[1]]
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

    def _encode(self, lines: list[dict[str, Any] | str]) -> bytes:
        try:  # a flood's batch: lines formatted already, joined in C
            return ("\n".join(lines) + "\n").encode("utf-8", "replace")  # type: ignore[arg-type]
        except TypeError:
            pass  # some are dicts (a header, an action...)
        text = "".join(
            (
                line
                if isinstance(line, str)
                else json.dumps(self.redactor.deep(line), ensure_ascii=False, separators=(",", ":"))
            )
            + "\n"
            for line in lines
        )
        return text.encode("utf-8", "replace")  # (a lone surrogate in a frame's text: "?")

    def _write_lines(self, lines: list[dict[str, Any] | str]) -> None:
        if self._file is None or not lines:
            return
        data = self._encode(lines)
        if self.rotation is None:
            self._file.write(data)
        else:
            self._write_rotating(data)
        self.lines_written += len(lines)

    # -- parts ------------------------------------------------------------------
    def _open_part(self, path: Path, header: dict[str, Any]) -> None:
        file = FlushedFile(path)
        self._file = file
        self.parts.append(path)
        self._part_started = time.monotonic()
        self._part_lines = 0
        file.write(self._encode([header]))
        self.lines_written += 1

    def _write_rotating(self, data: bytes) -> None:
        """Whole lines into the current part, and on into new parts when it is full (by
        size: a plain part ends at the last line that fits; a compressed one after the
        batch that filled it) or old (by age: before this batch). A part holds at least
        one line after its header, however long."""
        rotation = self.rotation
        assert rotation is not None
        size = rotation.size
        while data:
            file = self._file
            assert file is not None
            full = size is not None and file.size >= size
            old = rotation.every is not None and (
                time.monotonic() - self._part_started >= rotation.every
            )
            if (full or old) and self._part_lines:
                self._rotate()
                continue
            cut = len(data)
            if size is not None and file.compression is None and cut > size - file.size:
                cut = data.rfind(b"\n", 0, max(0, size - file.size)) + 1
                if not cut:  # not even the next line fits
                    if self._part_lines:
                        self._rotate()
                        continue
                    cut = data.find(b"\n") + 1 or len(data)
            file.write(data[:cut])
            self._part_lines += data.count(b"\n", 0, cut)
            data = data[cut:]

    def _rotate(self) -> None:
        file = self._file
        assert file is not None
        file.close()
        number = len(self.parts) + 1
        self._open_part(part_path(self.path, number), {**self._header, "part": number})


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
