"""A bounded reader of Server-Sent Events (the `text/event-stream` both model APIs stream
in): bytes in, `(event, data)` pairs out.

Bounded: a line longer than `max_line` bytes, or more than `max_total` bytes in all, ends
the stream as a `StreamTooLarge`, never an unbounded buffer. Comments (`:`), `id:` and
`retry:` lines are skipped; a `data:` spread over several lines is joined with newlines,
as the SSE specification says. The raw text read is kept (up to `keep` characters) for
the traffic log.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterable
from contextlib import aclosing
from dataclasses import dataclass
from typing import Final

__all__ = ["SseEvent", "SseReader", "StreamTooLarge", "size_text"]

MAX_LINE: Final = 4 * 1024 * 1024  # one event's line: a big tool argument fits
MAX_TOTAL: Final = 32 * 1024 * 1024  # a whole streamed answer
KEEP: Final = 1024 * 1024  # raw text kept for the traffic log


def size_text(n: int) -> str:
    """A byte count as a person reads it: "16 MiB", "2,000 bytes"."""
    return f"{n / (1024 * 1024):g} MiB" if n >= 1024 * 1024 else f"{n:,} bytes"


class StreamTooLarge(Exception):
    """The stream went over a bound (its message says which)."""


@dataclass(frozen=True, slots=True)
class SseEvent:
    event: str  # "" when the stream named none ("message" by the specification)
    data: str


class SseReader:
    """Reads events from a byte stream; `raw` is what was read (capped at `keep`)."""

    def __init__(
        self, *, max_line: int = MAX_LINE, max_total: int = MAX_TOTAL, keep: int = KEEP
    ) -> None:
        self.max_line = max_line
        self.max_total = max_total
        self.keep = keep
        self.total = 0
        self._raw: list[str] = []
        self._kept = 0

    @property
    def raw(self) -> str:
        text = "".join(self._raw)
        return text + ("\n… (truncated for the log)" if self._kept >= self.keep else "")

    def _note(self, chunk: bytes) -> None:
        self.total += len(chunk)
        if self.total > self.max_total:
            raise StreamTooLarge(f"the stream went over {size_text(self.max_total)}")
        if self._kept < self.keep:
            text = chunk.decode("utf-8", "replace")[: self.keep - self._kept]
            self._raw.append(text)
            self._kept += len(text)

    async def _lines(self, chunks: AsyncIterable[bytes]) -> AsyncGenerator[bytes, None]:
        """The lines of `chunks`; the unfinished tail is kept (one copy per chunk, not
        per line: a chunk of a thousand small events costs one pass)."""
        buffer = bytearray()
        async for chunk in chunks:  # (the caller closes `chunks`)
            self._note(chunk)
            buffer += chunk
            start = 0
            while True:
                cut = _line_end(buffer, start)
                if cut is None:
                    break
                yield bytes(buffer[start : cut[0]])
                start = cut[1]
            del buffer[:start]
            if len(buffer) > self.max_line:
                raise StreamTooLarge(f"one line of the stream went over {size_text(self.max_line)}")
        if buffer:
            yield bytes(buffer).rstrip(b"\r")

    async def events(self, chunks: AsyncIterable[bytes]) -> AsyncGenerator[SseEvent, None]:
        """The events of `chunks`; a last event without its blank line is still given."""
        event = ""
        data: list[str] = []
        async with aclosing(self._lines(chunks)) as raw_lines:
            async for raw_line in raw_lines:
                line = raw_line.decode("utf-8", "replace")
                if not line:
                    if data:
                        yield SseEvent(event, "\n".join(data))
                    event, data = "", []
                    continue
                if line.startswith(":"):
                    continue
                field, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if field == "event":
                    event = value
                elif field == "data":
                    data.append(value)
        if data:
            yield SseEvent(event, "\n".join(data))


def _line_end(buffer: bytearray, start: int) -> tuple[int, int] | None:
    """Where the line from `start` ends and the next begins (CRLF, LF or CR), or None while
    it may still be coming (a CR last could be the start of a CRLF)."""
    lf = buffer.find(b"\n", start)
    cr = buffer.find(b"\r", start, lf if lf != -1 else len(buffer))
    if cr == -1:
        return None if lf == -1 else (lf, lf + 1)
    if cr + 1 == len(buffer):
        return None
    return (cr, cr + 2) if buffer[cr + 1] == 0x0A else (cr, cr + 1)
