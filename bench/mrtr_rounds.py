"""Benchmark: grouping the rounds of multi-round-trip operations (issue 27, MRTR).

A modern-era traffic of --calls tool calls, every other one answered `input_required` and
retried with `inputResponses` and `requestState` (two rounds), among --notifications log
notifications, measured in the same run, each the best of --runs:

* the floor: the frames into a `TrafficLog` with nothing else listening;
* the same with `RequestRounds` grouping from the frames (the bare cost of offline grouping);
* the same with `RequestRounds` asking a key lookup (a live tab: the core's request key);
* opening the file as File > Open Session does (`load_offline`), against the same with the
  grouping switched off (the user-visible cost of grouping a recording's rounds);
* `operations()` and the folded per-method statistics of the grouped log (the timeline's);
* `session_spans` of the log through the live adapter (`otlp.live.live_session`), against
  `session_spans` of the same traffic read from its file.

    python bench/mrtr_rounds.py [--calls 20000] [--notifications 200000] [--runs 3]
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.recording.offline import load_offline
from inspector.recording.otlp.live import live_session
from inspector.recording.otlp.spans import session_spans
from inspector.recording.reader import read_session
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord, kind_of
from inspector.traffic.rounds import RequestRounds

WALL0 = 1_796_000_000.0
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}


def frames(calls: int, notifications: int) -> list[tuple[float, str, dict[str, Any]]]:
    out: list[tuple[float, str, dict[str, Any]]] = []
    per_call = max(1, notifications // max(1, calls))
    t = 0.0
    rid = 0

    def add(direction: str, message: dict[str, Any]) -> None:
        nonlocal t
        t += 0.0001
        out.append((t, direction, message))

    for i in range(calls):
        rid += 1
        params: dict[str, Any] = {"name": f"tool_{i % 50}", "arguments": {"n": i}, "_meta": META}
        add("out", {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params})
        for _ in range(per_call):
            log = {"level": "info", "data": "working on it " * 4}
            add("in", {"jsonrpc": "2.0", "method": "notifications/message", "params": log})
        if i % 2 == 0:
            asks = {"user": {"method": "elicitation/create", "params": {"message": "?"}}}
            result = {"resultType": "input_required", "inputRequests": asks,
                      "requestState": f"st-{i}"}  # fmt: skip
            add("in", {"jsonrpc": "2.0", "id": rid, "result": result})
            rid += 1
            retry = dict(params, inputResponses={"user": {"action": "accept"}},
                         requestState=f"st-{i}")  # fmt: skip
            add("out", {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": retry})
        done = {"resultType": "complete", "content": [{"type": "text", "text": f"r{i}"}]}
        add("in", {"jsonrpc": "2.0", "id": rid, "result": done})
    return out


def records(traffic: list[tuple[float, str, dict[str, Any]]]) -> list[TrafficRecord]:
    out = []
    for t, direction, message in traffic:
        raw = json.dumps(message)
        frame = parse_frame(raw)
        out.append(
            TrafficRecord(direction, kind_of(frame), raw, t, WALL0 + t, "stdio", frame=frame)  # type: ignore[arg-type]
        )
    return out


def best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def interleaved(runs: int, works: list[Callable[[], object]]) -> list[float]:
    """The best of `runs` of each, run in turn (a loaded machine slows all alike)."""
    times: list[list[float]] = [[] for _ in works]
    for _ in range(runs):
        for i, work in enumerate(works):
            gc.collect()
            start = time.perf_counter()
            work()
            times[i].append(time.perf_counter() - start)
    return [min(t) for t in times]


def ingest(recs: list[TrafficRecord], mode: str) -> TrafficLog:
    log = TrafficLog()
    if mode != "floor":
        rounds = RequestRounds(log)
        if mode == "content":
            rounds.group_by_content()
        else:
            keys: dict[Any, Any] = {}  # the core's key: the same for a call and its retry
            rounds.set_key_lookup(lambda wire_id: keys.setdefault(wire_id, wire_id))
        log.rounds = rounds  # type: ignore[attr-defined]  # kept alive with the log
    for record in recs:
        log.observe(record)
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--notifications", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    traffic = frames(args.calls, args.notifications)
    recs = records(traffic)
    floor, content, keyed = interleaved(
        args.runs, [lambda m=mode: ingest(recs, m) for mode in ("floor", "content", "key")]
    )
    grouped = ingest(recs, "content")
    rounds: RequestRounds = grouped.rounds  # type: ignore[attr-defined]

    def timeline() -> None:
        rounds._operations.clear()  # measure the computation, not the cache
        rounds.operations()
        rounds.method_stats()

    ops = best(args.runs, timeline)
    operations = len(rounds.operations())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.jsonl"
        header = {"type": "header", "format": "mcp-inspector-session", "version": 1,
                  "connection": {"transport": "stdio"}, "era": "modern"}  # fmt: skip
        with path.open("w", encoding="utf-8") as out:
            out.write(json.dumps(header) + "\n")
            for t, direction, message in traffic:
                kind = "request" if "method" in message and "id" in message else (
                    "notification" if "method" in message else "response")  # fmt: skip
                line = {"type": "frame", "t": t, "wall": WALL0 + t, "transport": "stdio",
                        "dir": direction, "kind": kind, "text": json.dumps(message)}  # fmt: skip
                out.write(json.dumps(line) + "\n")
        recorded = read_session(path)
        grouping = RequestRounds.group_by_content

        def opened(group: bool) -> None:
            RequestRounds.group_by_content = grouping if group else lambda self: None  # type: ignore[method-assign]
            try:
                load_offline(recorded)
            finally:
                RequestRounds.group_by_content = grouping  # type: ignore[method-assign]

        plain_open, grouped_open = interleaved(
            args.runs, [lambda: opened(False), lambda: opened(True)]
        )
        from_file, from_log = interleaved(
            args.runs,
            [
                lambda: session_spans(recorded),
                lambda: session_spans(live_session(grouped, recorded.header)),
            ],
        )
        spans = len(session_spans(recorded))
    print(f"{len(recs):,} frames, {operations:,} operations of two rounds, {spans:,} spans")
    print(f"floor: frames into a TrafficLog: {floor:.3f} s")
    print(f"  + rounds grouped from the frames (offline): {content:.3f} s "
          f"({content / floor:.2f}x the floor)")  # fmt: skip
    print(f"  + rounds by the core's key (live): {keyed:.3f} s ({keyed / floor:.2f}x the floor)")
    print(f"load_offline without grouping: {plain_open:.3f} s; with: {grouped_open:.3f} s "
          f"({grouped_open / plain_open:.2f}x)")  # fmt: skip
    print(f"operations + folded statistics: {ops:.3f} s ({ops / floor:.2f}x the floor)")
    print(f"session_spans of the file: {from_file:.3f} s; of the live log through the adapter: "
          f"{from_log:.3f} s ({from_log / from_file:.2f}x the file's)")  # fmt: skip


if __name__ == "__main__":
    main()
