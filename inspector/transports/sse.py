"""A bounded Server-Sent Events decoder (WHATWG "event stream interpretation").

Why not httpx-sse's `aiter_sse()`: it reads with `aiter_lines()`, which buffers a line
of any length, so a hostile server's endless event exhausts memory. This decoder takes
bytes as they arrive and caps both a line and an event; what is over the cap is cut,
flagged and counted, and the stream goes on. No IO here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["SseDecoder", "SseEvent"]

_BOM: Final = "\ufeff"


@dataclass(frozen=True, slots=True)
class SseEvent:
    data: str
    event: str = "message"
    id: str | None = None
    retry: int | None = None
    truncated: bool = False
    size: int = 0  # bytes of data received for this event, including what was cut


class SseDecoder:
    def __init__(self, max_event_bytes: int = 16 * 1024 * 1024) -> None:
        self.max_event_bytes = max_event_bytes
        self.last_event_id: str | None = None
        self.retry_ms: int | None = None
        self._buf = bytearray()
        self._skipping_line = False  # inside a line that overflowed
        self._data: list[str] = []
        self._data_bytes = 0
        self._event = ""
        self._id_seen: str | None = None
        self._truncated = False
        self._first = True
        self._scan = 0

    def feed(self, chunk: bytes) -> list[SseEvent]:
        events: list[SseEvent] = []
        self._buf += chunk
        while True:
            cut = self._line_end()
            if cut is None:
                if len(self._buf) > self.max_event_bytes:
                    # A line with no end in sight: keep its head, drop the rest.
                    self._take_line(bytes(self._buf[: self.max_event_bytes]), overflow=True)
                    self._skipping_line = True
                    self._buf.clear()
                    self._scan = 0
                break
            end, skip = cut
            line = bytes(self._buf[:end])
            del self._buf[: end + skip]
            if self._skipping_line:
                self._skipping_line = False
                self._data_bytes += len(line)
                continue
            event = self._take_line(line, overflow=False)
            if event is not None:
                events.append(event)
        return events

    def close(self) -> list[SseEvent]:
        """End of stream: an event without its final blank line is not dispatched (per spec)."""
        self._buf.clear()
        return []

    def _line_end(self) -> tuple[int, int] | None:
        buf = self._buf
        start = self._scan
        lf = buf.find(b"\n", start)
        cr = buf.find(b"\r", start)
        if lf < 0 and cr < 0:
            self._scan = len(buf)  # nothing before here can end a line: don't rescan it
            return None
        self._scan = 0
        if cr < 0 or 0 <= lf < cr:
            return lf, 1
        if cr + 1 < len(buf):
            return cr, 2 if buf[cr + 1] == 0x0A else 1
        self._scan = cr
        return None  # a lone CR at the end: wait to see whether LF follows

    def _take_line(self, raw: bytes, *, overflow: bool) -> SseEvent | None:
        line = raw.decode("utf-8", errors="replace")
        if self._first:
            self._first = False
            if line.startswith(_BOM):
                line = line[1:]
        if overflow:
            self._truncated = True
        if not line and not overflow:
            return self._dispatch()
        if line.startswith(":"):
            return None  # a comment / keep-alive
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if name == "data":
            room = self.max_event_bytes - sum(len(d) for d in self._data)
            self._data_bytes += len(value.encode("utf-8", errors="replace"))
            if len(value) > room:
                value = value[: max(room, 0)]
                self._truncated = True
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id":
            if "\x00" not in value:
                self._id_seen = value
                self.last_event_id = value
        elif name == "retry" and value.isdigit():
            self.retry_ms = int(value)
        return None

    def _dispatch(self) -> SseEvent | None:
        data, event, truncated = self._data, self._event or "message", self._truncated
        event_id = self._id_seen
        size = self._data_bytes
        self._data, self._event, self._truncated, self._data_bytes = [], "", False, 0
        self._id_seen = None
        joined = "\n".join(data)
        if not joined and not truncated:
            # Nothing to deliver (e.g. a priming event: an id and empty data); the id counts.
            return None
        return SseEvent(
            joined,
            event,
            event_id,
            self.retry_ms,
            truncated,
            size,
        )
