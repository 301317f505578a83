"""A bounded Server-Sent Events decoder (WHATWG "event stream interpretation").

Why not httpx-sse's `aiter_sse()`: it reads with `aiter_lines()`, which buffers a line
of any length, so a hostile server's endless event exhausts memory. This decoder takes
bytes as they arrive and caps both a line and an event; what is over the cap is cut,
flagged and counted, and the stream goes on. No IO here.

It works on bytes, so a chunk may end anywhere (inside a CRLF, inside a multi-byte
character, inside the BOM). Event data that is not valid UTF-8 is handed on as bytes, so
the frame can be flagged as invalid and every byte kept (a browser would silently put
U+FFFD in; a debugger must not hide it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

__all__ = ["SseDecoder", "SseEvent"]

_BOM: Final = b"\xef\xbb\xbf"
_EOL: Final = re.compile(rb"[\r\n]")
# A reconnection delay of more than 10 digits (about 115 days) is not believed; int()
# of thousands of digits even raises (Python's limit on long digit strings).
_MAX_RETRY_DIGITS: Final = 10
# What is kept of an event over the limit (as of a stdio line over it): enough to read its
# id and see what it was; the rest is counted, not kept.
_HEAD_BYTES: Final = 64 * 1024


@dataclass(frozen=True, slots=True)
class SseEvent:
    data: str | bytes  # bytes only when the data is not valid UTF-8
    event: str = "message"
    id: str | None = None
    retry: int | None = None
    truncated: bool = False
    size: int = 0  # bytes of data received for this event, including what was cut

    @property
    def text(self) -> str:
        """The data as text (invalid UTF-8 replaced), for callers that need a str."""
        data = self.data
        return data if isinstance(data, str) else data.decode("utf-8", "replace")


class SseDecoder:
    """Feed it bytes, get complete events. `last_event_id` and `retry_ms` survive `reset()`,
    which starts a new stream (a reconnection) and drops the half-received event.

    `last_event_id` is what to send as Last-Event-ID: per spec an `id:` line counts only
    once its event is complete (its blank line arrived), so the id of an event cut in half
    is never claimed as received.
    """

    def __init__(self, max_event_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_event_bytes = max_event_bytes
        self.last_event_id: str | None = None
        self.retry_ms: int | None = None
        self._id_buffer: str | None = None
        self._notes: list[str] = []
        self.reset()

    @property
    def _line_cap(self) -> int:
        return self.max_event_bytes + 64  # room for the field name

    @property
    def _head_cap(self) -> int:
        return min(self.max_event_bytes, _HEAD_BYTES) + 64

    def reset(self) -> None:
        """Forget the stream in progress (per spec an unfinished event is discarded)."""
        self._buf = bytearray()
        self._scan = 0  # nothing before this offset of _buf can end a line
        self._skip_lf = False  # the last line ended with CR: an LF right after belongs to it
        self._skipping = False  # inside a line that overflowed: drop bytes until its end
        self._skipping_data = False  # ... and that line is a data line (count its bytes)
        self._first = True  # a BOM may open the stream
        self._id_buffer = self.last_event_id  # an id of an unfinished event does not count
        self._new_event()

    def _new_event(self) -> None:
        self._data = bytearray()
        self._has_data = False
        self._data_bytes = 0
        self._event = ""
        self._id_seen: str | None = None
        self._truncated = False

    def feed(self, chunk: bytes) -> list[SseEvent]:
        events: list[SseEvent] = []
        if not chunk:
            return events
        self._buf += chunk
        if self._first:
            if len(self._buf) < len(_BOM) and _BOM.startswith(bytes(self._buf)):
                return events  # could still be a BOM: wait for more
            if self._buf.startswith(_BOM):
                del self._buf[: len(_BOM)]
            self._first = False
        while self._buf:
            if self._skip_lf:
                self._skip_lf = False
                if self._buf[0] == 0x0A:
                    del self._buf[0]
                    continue
            match = _EOL.search(self._buf, self._scan)
            if match is None:
                self._scan = len(self._buf)
                if self._skipping:
                    if self._skipping_data:
                        self._data_bytes += len(self._buf)
                    self._buf.clear()
                    self._scan = 0
                elif len(self._buf) > self._line_cap:
                    # A line with no end in sight: keep its head, drop the rest as it comes.
                    self._take_line(bytes(self._buf[: self._head_cap]), overflow=True)
                    if self._skipping_data:
                        self._data_bytes += len(self._buf) - self._head_cap
                    self._skipping = True
                    self._buf.clear()
                    self._scan = 0
                break
            end = match.start()
            skip = 1
            if self._buf[end] == 0x0D:
                if end + 1 < len(self._buf):
                    skip = 2 if self._buf[end + 1] == 0x0A else 1
                else:
                    self._skip_lf = True
            line = bytes(self._buf[:end])
            del self._buf[: end + skip]
            self._scan = 0
            if self._skipping:
                self._skipping = False
                if self._skipping_data:
                    self._data_bytes += len(line)
                continue
            if len(line) > self._line_cap:  # arrived whole, but over the cap all the same
                self._take_line(line[: self._head_cap], overflow=True)
                if self._skipping_data:
                    self._data_bytes += len(line) - self._head_cap
                self._skipping_data = False
                continue
            event = self._take_line(line, overflow=False)
            if event is not None:
                events.append(event)
        return events

    def take_notes(self) -> list[str]:
        """What the decoder flagged in fields that carry no event data (e.g. an absurd
        `retry:`), since the last call; the transport shows them in the log."""
        notes, self._notes = self._notes, []
        return notes

    def close(self) -> list[SseEvent]:
        """End of stream: an event without its final blank line is not dispatched (per spec).
        A trailing CR has already ended its line, so nothing complete is ever lost."""
        self.reset()
        return []

    def _take_line(self, line: bytes, *, overflow: bool) -> SseEvent | None:
        if not line and not overflow:
            return self._dispatch()
        if line.startswith(b":"):
            self._skipping_data = False
            return None  # a comment / keep-alive
        name, sep, value = line.partition(b":")
        if sep and value.startswith(b" "):
            value = value[1:]
        self._skipping_data = overflow and name == b"data"
        if overflow:
            self._truncated = True
            if name != b"data":
                return None  # an endless id/event/retry line is not believed
        if name == b"data":
            piece = b"\n" + value if self._has_data else value
            self._data_bytes += len(piece)  # the joining LF is data too
            room = self.max_event_bytes - len(self._data)
            if len(piece) > room:
                piece = piece[: max(room, 0)]
                self._truncated = True
            self._data += piece
            if self._truncated and len(self._data) > _HEAD_BYTES:
                del self._data[_HEAD_BYTES:]  # only the head of a flagged event is kept
            self._has_data = True
        elif name == b"event":
            self._event = value.decode("utf-8", "replace")
        elif name == b"id":
            if b"\x00" not in value:
                self._id_seen = value.decode("utf-8", "replace")
                self._id_buffer = self._id_seen
        elif name == b"retry" and value.isdigit():
            if len(value) > _MAX_RETRY_DIGITS:
                self._notes.append(
                    f"SSE retry field of {len(value)} digits ignored (more than "
                    f"{_MAX_RETRY_DIGITS} digits is not a usable delay)"
                )
            else:
                self.retry_ms = int(value)
        return None

    def _dispatch(self) -> SseEvent | None:
        self.last_event_id = self._id_buffer
        raw = bytes(self._data)
        event = self._event or "message"
        event_id, truncated, size = self._id_seen, self._truncated, self._data_bytes
        self._new_event()
        if not raw and not truncated:
            # Nothing to deliver (e.g. a priming event: an id and empty data); the id counts.
            return None
        data: str | bytes
        try:
            data = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            # A cut can split a character: only bytes before the cut count as invalid.
            if truncated and exc.start >= len(raw) - 3 and exc.reason == "unexpected end of data":
                data = raw[: exc.start].decode("utf-8")
            else:
                data = raw
        return SseEvent(data, event, event_id, self.retry_ms, truncated, size)
