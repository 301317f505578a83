"""`LineSplitter`: newline-delimited frames out of the chunks a pipe delivers (sans-IO).

Everything that was read comes out, in order: every complete line as a frame (text, or
bytes when it is not UTF-8; a trailing CR dropped but counted), a line over the limit as
its head with the full byte count (flagged, never buffered whole), and at the end the
last line even without its newline.

The common case is fast: the complete lines of one chunk come out as ONE
`FramesReceived` (split and decoded by a few C calls for the whole chunk), so the reader
wakes its consumer once per read, not once per line.
"""

from __future__ import annotations

from typing import Final, cast

from inspector.transports.base import FrameReceived, FramesReceived, TransportEvent

__all__ = ["HEAD_BYTES", "LineSplitter"]

HEAD_BYTES: Final = 64 * 1024  # what is kept of a line over the limit


class LineSplitter:
    """Feed it chunks; it returns the events for the lines they complete."""

    __slots__ = ("_buf", "_discarding", "_head", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._buf = bytearray()  # the start of a line whose newline has not come yet
        self._discarding = 0  # > 0: inside a line over the limit, counting its bytes
        self._head = b""

    def feed(self, chunk: bytes) -> list[TransportEvent]:
        out: list[TransportEvent] = []
        start = 0
        if self._discarding:
            nl = chunk.find(b"\n")
            piece = chunk if nl < 0 else chunk[:nl]
            if len(self._head) < HEAD_BYTES:  # the head is the same however reads cut it
                self._head += piece[: HEAD_BYTES - len(self._head)]
            self._discarding += len(piece)
            if nl < 0:
                return out
            out.append(self._cut())
            start = nl + 1
        last = chunk.rfind(b"\n", start)
        if last < 0:
            self._keep(chunk[start:] if start else chunk)
            return out
        buf = self._buf
        if len(buf) + (last - start) <= self.limit:
            # No line here can be over the limit: the whole region at once.
            data = chunk[start:last]
            if buf:
                data = bytes(buf) + data
                buf.clear()
            out.append(_batch(data))
        else:
            self._slow(chunk, start, last, out)
        self._keep(chunk[last + 1 :])
        return out

    def end(self) -> list[TransportEvent]:
        """The pipe reached EOF: what is left (a last line without its newline)."""
        if self._discarding:
            return [self._cut()]
        if self._buf:
            data = bytes(self._buf)
            self._buf.clear()
            return [_batch(data)]
        return []

    # ------------------------------------------------------------------ parts
    def _keep(self, piece: bytes) -> None:
        """`piece` starts (or continues) a line whose newline has not come yet."""
        buf = self._buf
        if len(buf) + len(piece) > self.limit:
            self._head = bytes(buf[:HEAD_BYTES]) + piece[: max(0, HEAD_BYTES - len(buf))]
            self._discarding = len(buf) + len(piece)
            buf.clear()
        else:
            buf += piece

    def _cut(self) -> FrameReceived:
        event = FrameReceived(_decode(self._head), self._discarding, truncated=True)
        self._discarding = 0
        self._head = b""
        return event

    def _slow(self, chunk: bytes, start: int, last: int, out: list[TransportEvent]) -> None:
        """Line by line (some line of this region is over the limit)."""
        raws: list[str | bytes] = []
        sizes: list[int] = []
        while start <= last:
            nl = chunk.find(b"\n", start, last + 1)
            self._keep(chunk[start:nl])
            if self._discarding:
                if raws:
                    out.append(FramesReceived(raws, sizes))
                    raws, sizes = [], []
                out.append(self._cut())
            else:
                data = bytes(self._buf)
                self._buf.clear()
                sizes.append(len(data))
                raws.append(_decode(data[:-1] if data.endswith(b"\r") else data))
            start = nl + 1
        if raws:
            out.append(FramesReceived(raws, sizes))


def _batch(data: bytes) -> FramesReceived:
    """The lines of `data` (complete lines, joined by newlines, the last one's dropped)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        # Some line is not UTF-8: decide line by line (that one stays bytes).
        raws: list[str | bytes] = []
        sizes: list[int] = []
        for line in data.split(b"\n"):
            sizes.append(len(line))
            raws.append(_decode(line[:-1] if line.endswith(b"\r") else line))
        return FramesReceived(raws, sizes)
    lines: list[str] = text.split("\n")
    if text.isascii():
        sizes = list(map(len, lines))
    else:
        sizes = [len(line.encode("utf-8")) for line in lines]
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    return FramesReceived(cast(list[str | bytes], lines), sizes)


def _decode(data: bytes) -> str | bytes:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data
