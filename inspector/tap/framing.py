"""Chunks of a byte stream → one traffic record per line, as the session file keeps them.

The relay hands over whatever `read()` returned; lines are cut here, on the recording side,
so the relay never looks inside the bytes. A line is kept exactly (a trailing `\\r` too);
bytes that are not UTF-8 stay bytes (the file keeps them as base64). A line over the size
limit keeps its head and its full size. After a recording gap the rest of the broken line
is skipped: it would be a fragment, not a frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from inspector.protocol.wire.jsonrpc import Invalid, ParsedFrame, parse_frame
from inspector.traffic.record import Direction, TrafficRecord, kind_of

__all__ = ["DEFAULT_MAX_LINE", "HEAD_KEPT", "LineFramer", "decode_line"]

DEFAULT_MAX_LINE: Final = 16 * 1024 * 1024
HEAD_KEPT: Final = 64 * 1024


def decode_line(data: bytes) -> str | bytes:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


@dataclass
class LineFramer:
    """Cuts one direction's chunks into records. `stderr` lines become `stderr` records."""

    direction: Direction | str  # "out" (host → server), "in" (server → host) or "stderr"
    transport: str = "stdio"
    max_line: int = DEFAULT_MAX_LINE
    _buf: bytearray = field(default_factory=bytearray)
    _size: int = 0  # bytes of the current line seen so far (more than _buf when cut)
    _skipping: bool = False  # after a gap: drop bytes until the next newline

    def feed(self, data: bytes, mono: float, wall: float) -> list[TrafficRecord]:
        out: list[TrafficRecord] = []
        start = 0
        while True:
            nl = data.find(b"\n", start)
            if nl < 0:
                self._take(data[start:])
                return out
            if self._skipping:
                self._skipping = False
            elif not self._size and nl - start <= self.max_line:
                whole = data[start:nl]  # the usual case: the line lies inside one chunk
                out.append(self._record(whole, len(whole), mono, wall))
            else:
                self._take(data[start:nl])
                out.append(self._record(bytes(self._buf), self._size, mono, wall))
            self._buf = bytearray()
            self._size = 0
            start = nl + 1

    def gap(self) -> None:
        """Bytes of this direction were not recorded: the line in progress is broken."""
        self._buf = bytearray()
        self._size = 0
        self._skipping = True

    def finish(self, mono: float, wall: float) -> list[TrafficRecord]:
        """The stream ended: a last line without a newline is still a frame (flagged)."""
        if self._skipping or not self._size:
            return []
        record = self._record(
            bytes(self._buf), self._size, mono, wall, note="the stream ended without a newline"
        )
        self._buf = bytearray()
        self._size = 0
        return [record]

    def _take(self, piece: bytes) -> None:
        if not piece or self._skipping:
            return
        self._size += len(piece)
        if self._size <= self.max_line:
            self._buf += piece
            return
        if len(self._buf) > HEAD_KEPT:
            del self._buf[HEAD_KEPT:]
        room = HEAD_KEPT - len(self._buf)
        if room > 0:
            self._buf += piece[:room]

    def _record(
        self, data: bytes, size: int, mono: float, wall: float, note: str | None = None
    ) -> TrafficRecord:
        truncated = size > len(data)
        raw = decode_line(data)
        if self.direction == "stderr":
            text = raw if isinstance(raw, str) else data.decode("utf-8", "replace")
            return TrafficRecord(
                "", "stderr", text.rstrip("\r"), mono, wall, self.transport, truncated=truncated
            )
        frame: ParsedFrame
        if truncated:
            frame = Invalid(raw, "over the size limit: only its head was kept")
        elif not data.strip():
            frame = Invalid(raw, "a blank line (not a JSON-RPC message)")
        else:
            frame = parse_frame(raw)
        kind = kind_of(frame)
        if isinstance(frame, Invalid) and note is None:
            note = frame.reason
        return TrafficRecord(
            "out" if self.direction == "out" else "in",
            kind,
            raw,
            mono,
            wall,
            self.transport,
            frame=frame,
            size=size,
            truncated=truncated,
            note=note,
        )
