"""Benchmark: `export-otlp` of a large session (issue 27: export to OpenTelemetry).

A session file of --calls tool calls (every tenth with a sampling ask inside) among
--notifications log notifications is written to a temporary folder, then measured in the
same run, each the best of --runs:

* the floor: `json.loads` of every line of the file (what any reader has to do at least);
* `read_session` (the recording reader the command uses);
* `session_spans` (the mapping to span records, inspector/recording/otlp/spans.py);
* the SDK: the records through a TracerProvider and encoded as one OTLP/JSON request
  (inspector/recording/otlp/sdk.py's file exporter, written to the temporary folder).

    python bench/export_otlp.py [--calls 20000] [--notifications 200000] [--runs 3]

Needs the optional `otel` extra.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from inspector.recording.otlp.sdk import OtlpJsonFileExporter, export_records
from inspector.recording.otlp.spans import session_spans
from inspector.recording.reader import read_session

WALL0 = 1_796_000_000.0


def write_session(path: Path, calls: int, notifications: int) -> None:
    header = {
        "type": "header", "format": "mcp-inspector-session", "version": 1,
        "app_version": "0.1.0", "created": "2026-12-01T00:00:00.000+00:00",
        "connection": {"transport": "stdio", "command": "srv", "args": [], "env": {}},
        "era": "legacy", "protocol_version": "2025-11-25",
        "client_info": {"name": "bench"}, "client_capabilities": {},
    }  # fmt: skip
    per_call = max(1, notifications // max(1, calls))
    t = 0.0

    def frame(direction: str, kind: str, message: dict[str, Any]) -> str:
        nonlocal t
        t += 0.0001
        line = {"type": "frame", "t": round(t, 6), "wall": round(WALL0 + t, 6),
                "transport": "stdio", "dir": direction, "kind": kind,
                "text": json.dumps(message)}  # fmt: skip
        return json.dumps(line) + "\n"

    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
        for i in range(calls):
            params = {"name": f"tool_{i % 50}", "arguments": {"n": i}}
            out.write(frame("out", "request", {"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                               "params": params}))  # fmt: skip
            for _ in range(per_call):
                log = {"level": "info", "data": "working on it " * 4}
                out.write(frame("in", "notification", {"jsonrpc": "2.0",
                                "method": "notifications/message", "params": log}))  # fmt: skip
            if i % 10 == 0:
                ask = {"jsonrpc": "2.0", "id": f"s{i}", "method": "sampling/createMessage",
                       "params": {"messages": [], "maxTokens": 10}}  # fmt: skip
                out.write(frame("in", "request", ask))
                out.write(frame("out", "response", {"jsonrpc": "2.0", "id": f"s{i}",
                                                    "result": {"role": "assistant"}}))  # fmt: skip
            result = {"content": [{"type": "text", "text": f"result {i}"}]}
            out.write(frame("in", "response", {"jsonrpc": "2.0", "id": i, "result": result}))


def best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--notifications", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.jsonl"
        write_session(path, args.calls, args.notifications)
        lines = path.read_bytes().splitlines()
        floor = best(args.runs, lambda: [json.loads(line) for line in lines])
        recorded = read_session(path)
        read = best(args.runs, lambda: read_session(path))
        records = session_spans(recorded)
        mapped = best(args.runs, lambda: session_spans(recorded))

        def sdk() -> None:
            exporter = OtlpJsonFileExporter(Path(folder) / "out.json")
            export_records(records, exporter, {"service.name": "bench"})
            exporter.write()

        encoded = best(args.runs, sdk)
    print(f"{len(lines):,} lines, {len(records):,} spans")
    print(f"floor json.loads of every line: {floor:.3f} s")
    print(f"read_session:  {read:.3f} s ({read / floor:.2f}x the floor)")
    print(f"session_spans: {mapped:.3f} s ({mapped / floor:.2f}x the floor)")
    print(f"SDK + OTLP/JSON file: {encoded:.3f} s ({encoded / len(records) * 1e6:.1f} us/span)")


if __name__ == "__main__":
    main()
