"""Benchmark: frames per second through parse_frame + ClientConnection + TrafficLog, and the
memory each stored message costs beyond its raw text.

    python bench/traffic_ingest.py [--messages 200000]

This is the Qt-free half of the live log; bench/log_flood.py (with the GUI) builds on it.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import tracemalloc

from inspector.protocol.machine.connection import ClientConfig, ClientConnection
from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord, kind_of


def make_frames(n: int) -> list[str]:
    return [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": {"level": "info", "logger": "flood", "data": f"line {i} of the flood"},
            },
            separators=(",", ":"),
        )
        for i in range(n)
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--messages", type=int, default=200_000)
    n = ap.parse_args().messages
    frames = make_frames(n)
    raw_bytes = sum(sys.getsizeof(f) for f in frames)

    conn = ClientConnection(ClientConfig())
    conn.start(0.0)
    conn.data_to_send()
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "b"}}
    conn.receive(parse_frame(json.dumps({"jsonrpc": "2.0", "id": 1, "result": init})), 0.0)

    def ingest(log: TrafficLog) -> float:
        t0 = time.perf_counter()
        for raw in frames:
            frame = parse_frame(raw)
            now = time.monotonic()
            log.observe(TrafficRecord("in", kind_of(frame), raw, now, time.time(), "stdio", frame))
            conn.receive(frame, now)
        return time.perf_counter() - t0

    # Speed and memory are measured in separate passes: tracemalloc slows everything down.
    elapsed = ingest(TrafficLog())
    gc.collect()
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    log = TrafficLog()
    ingest(log)
    gc.collect()
    used, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    per_msg = (used - base) / n

    t1 = time.perf_counter()
    hits = sum(1 for e in log.entries if e.method == "notifications/message")
    method_filter = time.perf_counter() - t1
    t2 = time.perf_counter()
    text_hits = sum(1 for e in log.entries if "line 99" in e.raw)  # type: ignore[operator]
    text_filter = time.perf_counter() - t2

    print(f"messages:              {n:,}")
    print(f"ingest rate:           {n / elapsed:,.0f} msg/s (parse + connection + log)")
    print(f"store overhead:        {per_msg:,.0f} bytes/message beyond the raw text")
    print(f"  (raw text itself:    {raw_bytes / n:,.0f} bytes/message)")
    print(f"method filter:         {method_filter * 1000:,.1f} ms over {n:,} ({hits:,} hits)")
    print(f"text filter:           {text_filter * 1000:,.1f} ms over {n:,} ({text_hits:,} hits)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
