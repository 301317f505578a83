"""Benchmark: the CLI through a flood of notifications before a `tools/list` answer.

A stdio server answers `tools/list` only after writing N `notifications/message` lines
(100,000 by default). Measured, each the best of --runs:

* the CLI (`python -m inspector cli --method tools/list --compact -- SERVER`): time from
  the process start until its result line is on stdout, with the flood, and without it
  (same server, 0 notifications); their difference is what the flood costs;
* the floor, in the same run: the same server over the same kind of pipe, read with
  nothing but `readline` + `json.loads` (no protocol, no session, no process start-up).

    python bench/cli_flood.py [--messages 100000] [--runs 3]

Goal: the flood costs the CLI <= 0.8 s (100,000 notifications); the RATIO floor/flood
says how close to the bare pipe the session gets on this machine right now.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_CLI = (sys.executable, "-m", "inspector", "cli", "--method", "tools/list", "--compact")

FLOOD_SERVER = r"""
import json, sys
N = int(sys.argv[1])
out = sys.stdout.buffer
LINE = (b'{"jsonrpc":"2.0","method":"notifications/message",'
        b'"params":{"level":"info","logger":"flood","data":"flood line %d of the benchmark"}}\n')
def send(obj):
    out.write(json.dumps(obj).encode() + b"\n"); out.flush()
for raw in sys.stdin.buffer:
    msg = json.loads(raw)
    if "id" not in msg or "method" not in msg:
        continue
    if msg["method"] == "initialize":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {
            "protocolVersion": msg["params"].get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}, "logging": {}},
            "serverInfo": {"name": "flood", "version": "1"}}})
    elif msg["method"] == "tools/list":
        for start in range(0, N, 20000):
            out.write(b"".join(LINE % i for i in range(start, min(N, start + 20000))))
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": [
            {"name": "flood", "inputSchema": {"type": "object"}}]}})
    else:
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
"""


def cli_time(server: Path, n: int) -> float:
    """Seconds from starting the CLI until its result line is on stdout."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [*_CLI, "--", sys.executable, str(server), str(n)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - t0
    _out, err = proc.communicate(timeout=60)
    if proc.returncode != 0 or b'"tools"' not in line:
        raise SystemExit(f"cli failed ({proc.returncode}): {line!r} {err.decode()[-500:]}")
    return elapsed


def floor_time(server: Path, n: int) -> float:
    """Seconds to read the flood and the answer with readline + json.loads."""
    proc = subprocess.Popen(
        [sys.executable, str(server), str(n)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    loads, readline = json.loads, proc.stdout.readline
    try:
        proc.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n')
        proc.stdin.flush()
        loads(readline())
        t0 = time.perf_counter()
        proc.stdin.write(b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n')
        proc.stdin.flush()
        while loads(readline()).get("id") != 2:
            pass
        return time.perf_counter() - t0
    finally:
        proc.stdin.close()
        proc.wait(10)


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    server = Path(tempfile.mkdtemp(prefix="cli-flood-")) / "flood_server.py"
    server.write_text(FLOOD_SERVER)
    n = args.messages
    floods, quiet, floors = [], [], []
    for _ in range(args.runs):  # interleaved, so a busy moment hits all three alike
        floors.append(floor_time(server, n))
        quiet.append(cli_time(server, 0))
        floods.append(cli_time(server, n))
    flood, base, floor = min(floods), min(quiet), min(floors)
    cost = flood - base
    print(f"notifications before the answer: {n:,}")
    print(
        f"cli, with the flood:     {flood:.3f} s to the result (runs: "
        + ", ".join(f"{t:.3f}" for t in floods)
        + ")"
    )
    print(f"cli, without it:         {base:.3f} s (start-up, connect, answer)")
    print(f"what the flood costs:    {cost:.3f} s = {n / cost:,.0f} msg/s (goal <= 0.8 s)")
    print(f"floor (readline+loads):  {floor:.3f} s = {n / floor:,.0f} msg/s")
    print(f"RATIO floor/flood cost:  {floor / cost:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
