"""Benchmark: how long `cli --method tools/list` takes to print its result against a real
server (npm server-everything over stdio, installed by scripts/install-peers.sh), and the
interpreter start-up of a stdio `cli` run (what it imports).

Measured in the same run, interleaved, the best and the median of --runs:

* the CLI: from the process start until the result is on stdout (the shutdown ladder runs
  after that and is not counted: server-everything ignores stdin EOF);
* the floor: a bare Python client started the same way (`python -c`) that writes
  initialize, notifications/initialized and tools/list to the same server and reads the
  answer with readline + json.loads: the server's own start-up and the interpreter's;
* `python -c "import inspector.__main__"` against `python -c pass`: our import cost.

    python bench/cli_startup.py [--runs 5]

The package's bytecode is compiled first (`compileall`), as installing the wheel does: a
checkout run with PYTHONDONTWRITEBYTECODE=1 would otherwise compile some 60 modules from
source on every start (about 0.2 s), which no installed copy does.

Goal: the CLI prints its result <= 0.5 s after it starts (the official Inspector CLI:
about 0.65 s on this kind of machine).
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
EVERYTHING = REPO / ".peers/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

BARE_CLIENT = r"""
import json, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL)
def send(m):
    p.stdin.write(json.dumps(m).encode() + b"\n"); p.stdin.flush()
def answer(i):
    while True:
        m = json.loads(p.stdout.readline())
        if m.get("id") == i:
            return m
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {},
    "clientInfo": {"name": "bare", "version": "1"}}})
answer(1)
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
print(json.dumps(answer(2)["result"]), flush=True)
p.kill()
"""


def until_first_line(command: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    t0 = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - t0
    proc.kill()  # the ladder after the result is not what is measured here
    proc.wait(10)
    if b"tools" not in line:
        raise SystemExit(f"no result from {command[:4]}: {line[:200]!r}")
    return elapsed


def run_time(command: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    t0 = time.perf_counter()
    subprocess.run(command, check=True, env=env)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if not EVERYTHING.exists():
        raise SystemExit(
            f"server-everything is missing: run scripts/install-peers.sh ({EVERYTHING})"
        )
    compileall.compile_dir(str(REPO / "inspector"), quiet=1)  # as a wheel install does
    server = ["node", str(EVERYTHING), "stdio"]
    busy0 = _busy()
    cli = [sys.executable, "-m", "inspector", "cli", "--method", "tools/list", "--compact"]
    ours, floor, imports, bare, cli_imports = [], [], [], [], []
    for _ in range(args.runs):  # interleaved: a busy moment hits all alike
        floor.append(until_first_line([sys.executable, "-c", BARE_CLIENT, *server]))
        ours.append(until_first_line([*cli, "--", *server]))
        bare.append(run_time([sys.executable, "-c", "pass"]))
        imports.append(run_time([sys.executable, "-c", "import inspector.__main__"]))
        cli_imports.append(run_time([sys.executable, "-c", "import inspector.cli.method_run"]))
    best, base = min(ours), min(floor)
    print(
        f"cli tools/list, server-everything: {best:.3f} s to the result (goal <= 0.5 s; runs: "
        + ", ".join(f"{t:.3f}" for t in ours)
        + ")"
    )
    print(f"floor (bare python client):        {base:.3f} s")
    print(f"RATIO floor/cli:                   {base / best:.1%}")
    mid, mid_floor = statistics.median(ours), statistics.median(floor)
    print(
        f"medians: cli {mid:.3f} s, floor {mid_floor:.3f} s, RATIO floor/cli {mid_floor / mid:.1%}"
    )
    print(
        f"import inspector.__main__:         {min(imports) - min(bare):.3f} s beyond "
        f"`python -c pass` ({min(bare):.3f} s)"
    )
    print(f"import inspector.cli.method_run:   {min(cli_imports) - min(bare):.3f} s beyond it")
    print(f"other work on the machine meanwhile: {_busy(busy0):.2f} of {os.cpu_count()} cores")
    return 0


def _busy(since: tuple[float, float, float] | None = None) -> Any:
    """The machine's CPU use by others: (time, all busy seconds, ours) now, or the cores
    others kept busy on average since `since`."""
    hz = os.sysconf("SC_CLK_TCK")
    with open("/proc/stat", encoding="ascii") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    busy = (sum(fields[:8]) - fields[3] - fields[4]) / hz
    t = os.times()
    now = (time.monotonic(), busy, t.user + t.system + t.children_user + t.children_system)
    if since is None:
        return now
    return max(0.0, (now[1] - since[1]) - (now[2] - since[2])) / (now[0] - since[0])


if __name__ == "__main__":
    sys.exit(main())
