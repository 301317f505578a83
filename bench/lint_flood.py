"""Benchmark: what live lint costs the traffic log's ingest rate under a flood.

100k `notifications/message` frames go through the real ingest path (parse_frame, the
protocol core, the TrafficLog) on an asyncio loop, a chunk per loop iteration as a
transport delivers them, once with a LiveLinter following the log and once without,
alternating, in one run. Printed: the ingest rate with lint off and on, their RATIO (the
target: lint on >= 0.90 of lint off), how long the linter then needs to catch up, and what
linting costs per message.

    python bench/lint_flood.py [--messages 100000] [--rounds 3] [--chunk 500] [--unique]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

from inspector.lint import LintStore, LiveLinter
from inspector.lint.live import loop_scheduler
from inspector.protocol.machine.connection import ClientConfig, ClientConnection
from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord, kind_of


def make_frames(n: int, unique: bool = False) -> list[str]:
    """`unique`: every message has its own logger, so no two share a shape (the linter
    cannot reuse a result: every message is validated in full)."""
    return [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": {
                    "level": "info",
                    "logger": f"flood-{i}" if unique else "flood",
                    "data": f"line {i} of the flood",
                },
            },
            separators=(",", ":"),
        )
        for i in range(n)
    ]


def ready_connection() -> ClientConnection:
    conn = ClientConnection(ClientConfig())
    conn.start(0.0)
    conn.data_to_send()
    init = {
        "protocolVersion": "2025-11-25",
        "capabilities": {"logging": {}},
        "serverInfo": {"name": "b", "version": "1"},
    }
    conn.receive(parse_frame(json.dumps({"jsonrpc": "2.0", "id": 1, "result": init})), 0.0)
    return conn


async def one_round(frames: list[str], chunk: int, lint: bool) -> tuple[float, float, int]:
    """(ingest seconds, seconds until lint caught up after it, findings)."""
    log = TrafficLog()
    store = LintStore()
    linter = LiveLinter(log, store, loop_scheduler) if lint else None
    conn = ready_connection()
    t0 = time.perf_counter()
    for start in range(0, len(frames), chunk):
        for raw in frames[start : start + chunk]:
            frame = parse_frame(raw)
            now = time.monotonic()
            log.observe(TrafficRecord("in", kind_of(frame), raw, now, time.time(), "stdio", frame))
            conn.receive(frame, now)
        await asyncio.sleep(0)  # the transport's next read
    ingest = time.perf_counter() - t0
    catch_up = 0.0
    if linter is not None:
        t1 = time.perf_counter()
        while linter.behind:
            await asyncio.sleep(0.001)
        catch_up = time.perf_counter() - t1
        assert store.checked == len(frames), (store.checked, len(frames))
        linter.close()
    return ingest, catch_up, len(store)


async def main_async(n: int, rounds: int, chunk: int, unique: bool) -> int:
    frames = make_frames(n, unique)
    await one_round(frames[:5000], chunk, True)  # warm up (validators compiled, caches)
    off: list[float] = []
    on: list[float] = []
    catch: list[float] = []
    for _ in range(rounds):
        ingest, _c, _f = await one_round(frames, chunk, False)
        off.append(ingest)
        ingest, caught, found = await one_round(frames, chunk, True)
        on.append(ingest)
        catch.append(caught)
        assert found == 0, f"{found} findings in a valid flood"
    t_off, t_on = statistics.median(off), statistics.median(on)
    ratio = t_off / t_on
    shapes = "each of its own shape" if unique else "differing in data only"
    print(
        f"messages: {n:,} notifications/message ({shapes}), chunk {chunk}, {rounds} round(s) each"
    )
    print(f"ingest, lint off: {n / t_off:,.0f} msg/s ({t_off:.3f} s)")
    print(f"ingest, lint on:  {n / t_on:,.0f} msg/s ({t_on:.3f} s)")
    print(f"ratio on/off:     {ratio:.3f}  (target >= 0.90)")
    total = statistics.median(t + c for t, c in zip(on, catch, strict=True))
    print(
        f"lint caught up:   {statistics.median(catch):.2f} s after the flood "
        f"(all {n:,} linted {total:.2f} s after it began; "
        f"{(total - t_off) / n * 1e6:.1f} µs/message of lint work)"
    )
    return 0 if ratio >= 0.90 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--unique", action="store_true", help="no two messages of one shape")
    ns = ap.parse_args()
    return asyncio.run(main_async(ns.messages, ns.rounds, ns.chunk, ns.unique))


if __name__ == "__main__":
    raise SystemExit(main())
