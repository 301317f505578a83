"""Benchmark: reading a model's streamed answer (no network): the bounded SSE reader, the
JSON of each event and the reply assembled from the chunks, as `chat()` does.

Two streams, fed in 16 KiB chunks as a socket would give them:
- many small events: N OpenAI chat-completion chunks of a few characters of text each;
- one long line: a single event holding a tool argument of several MiB (the case a naive
  reader makes quadratic).
The floor, in the same run: the same bytes joined, split at the blank lines and each
event's JSON decoded (what any reader must do at least).

    python bench/chat_stream.py [--events 100000] [--long-mib 4] [--runs 3]

Reports each as MB/s and the RATIO reader/floor.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import AsyncIterator

from inspector.features.providers.chat_openai import openai_read_chunk
from inspector.features.providers.chat_reply import ReplyBuilder
from inspector.features.providers.sse import SseReader

CHUNK = 16 * 1024


def _small_events(n: int) -> bytes:
    out = []
    for i in range(n):
        delta = {"choices": [{"index": 0, "delta": {"content": f"w{i % 97} "}}], "model": "m"}
        out.append(f"data: {json.dumps(delta)}\n\n")
    out.append("data: [DONE]\n\n")
    return "".join(out).encode()


def _long_line(mib: int) -> bytes:
    argument = json.dumps({"blob": "x" * (mib * 1024 * 1024)})
    call = {"index": 0, "id": "c1", "function": {"name": "t", "arguments": argument}}
    chunk = {"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}
    return f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode()


async def _chunks(data: bytes) -> AsyncIterator[bytes]:
    for i in range(0, len(data), CHUNK):
        yield data[i : i + CHUNK]


async def _read(data: bytes) -> int:
    reader = SseReader(max_line=64 * 1024 * 1024, max_total=256 * 1024 * 1024)
    builder = ReplyBuilder()
    events = 0
    async for event in reader.events(_chunks(data)):
        if event.data == "[DONE]":
            break
        openai_read_chunk(json.loads(event.data), builder)
        events += 1
    builder.tool_uses()
    return events


def _reader_run(data: bytes) -> float:
    start = time.perf_counter()
    asyncio.run(_read(data))
    return time.perf_counter() - start


def _floor_run(data: bytes) -> float:
    start = time.perf_counter()
    pieces = [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)]
    for block in b"".join(pieces).split(b"\n\n"):
        if block.startswith(b"data: {"):
            json.loads(block[6:])
    return time.perf_counter() - start


def _report(label: str, data: bytes, runs: int) -> None:
    reader = min(_reader_run(data) for _ in range(runs))
    floor = min(_floor_run(data) for _ in range(runs))
    mb = len(data) / 1e6
    print(f"{label}: {mb:.1f} MB")
    print(f"  reader: {mb / reader:,.1f} MB/s ({reader * 1000:.0f} ms)")
    print(f"  floor:  {mb / floor:,.1f} MB/s (split + json.loads)")
    print(f"  RATIO reader/floor: {reader / floor:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--long-mib", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    _report(f"{args.events:,} small events", _small_events(args.events), args.runs)
    _report(f"one {args.long_mib} MiB line", _long_line(args.long_mib), args.runs)


if __name__ == "__main__":
    main()
