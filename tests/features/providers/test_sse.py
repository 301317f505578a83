"""The bounded SSE reader: line endings, events split across chunks, multi-line data,
comments, and the bounds."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from inspector.features.providers.sse import SseEvent, SseReader, StreamTooLarge


async def chunks(*parts: bytes) -> AsyncIterator[bytes]:
    for part in parts:
        yield part


async def read(reader: SseReader, *parts: bytes) -> list[SseEvent]:
    return [event async for event in reader.events(chunks(*parts))]


async def test_events_split_anyhow_across_chunks_and_line_endings() -> None:
    reader = SseReader()
    events = await read(
        reader,
        b": a comment\r\nevent: message_start\r",
        b'\ndata: {"a":',
        b" 1}\r\n\r\nid: 7\ndata: one\ndata: two\n\n",
        b"data: [DONE]",  # the last event without its blank line
    )
    assert events == [
        SseEvent("message_start", '{"a": 1}'),
        SseEvent("", "one\ntwo"),
        SseEvent("", "[DONE]"),
    ]
    assert reader.raw.startswith(": a comment")


async def test_a_line_or_a_stream_too_long_is_refused() -> None:
    with pytest.raises(StreamTooLarge, match="one line of the stream went over 100 bytes"):
        await read(SseReader(max_line=100), b"data: " + b"x" * 200)
    with pytest.raises(StreamTooLarge, match="the stream went over 1,000 bytes"):
        await read(SseReader(max_total=1000), *[b"data: x\n\n"] * 200)
    reader = SseReader(keep=10)
    await read(reader, b"data: 0123456789abc\n\n")
    assert reader.raw == "data: 0123\n… (truncated for the log)"
