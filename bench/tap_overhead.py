"""Benchmark: what the stdio tap costs the host, as ratios to a direct pipe in the same run.

Three measurements, each run alternately without and with the tap (the machines are shared
and noisy, so the same run measures its own floor):

* **latency**: a host sends one small JSON-RPC request at a time to an echo server and waits
  for the answer; the added time per round trip (two messages cross the tap), its median,
  and per message (half of it). Target: <= 1 ms added per message at the median.
* **throughput**: a server writes --mb MiB of 1 KiB JSON-RPC lines as fast as it can, one
  write per message as MCP servers do; the host reads them all. Target: the tapped rate
  within 10% of the direct one (ratio >= 0.9), the rate taken from the first byte to EOF
  (the tap starts a Python process before the server: that one-time start-up is shown on
  its own, as the time to the first byte, and as the rate from launch to EOF). Also
  shown, without a target: `bulk`, 64 messages per write, a raw pipe stress test.
* **calls**: 1,000 sequential tools/call requests to the real demo server (`python -m
  inspector.demo`), after initialize. Target: tapped time <= 1.1x the direct time. The
  demo answers a call in about 0.3 ms, the fastest server we have: what the tap adds per
  call is a larger share of it than of any real server's. For scale, the same calls to
  server-everything (Node) when it is installed (scripts/install-peers.sh), no target;
  and to the demo again with the tap's wait after each message turned off (spin 0: it
  sleeps at once, as a thread per stream did), to show what staying awake buys.

    python bench/tap_overhead.py [--messages 2000] [--mb 200] [--calls 1000] [--rounds 5]

The tap records to a session file in a temporary folder as it would for a host (every
frame framed, parsed and written; gaps only if the recording falls behind, reported).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PY = sys.executable
SPIN_ENV = "MCP_INSPECTOR_TAP_SPIN_US"

ECHO_SERVER = r"""
import sys
inp, out = sys.stdin.buffer, sys.stdout.buffer
for line in inp:
    out.write(b'{"jsonrpc":"2.0","id":1,"result":{}}\n'); out.flush()
"""

# `per message`: one write per message, as an MCP server sends them (the SDKs write and
# flush each message); `bulk`: 64 messages per write, a raw pipe stress test.
FLOOD_SERVER = r"""
import sys
n, per_write = int(sys.argv[1]), int(sys.argv[2])
head = b'{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"'
line = head + b"x" * 960 + b'"}}\n'
block = line * per_write
out = sys.stdout.buffer
for _ in range(n // per_write):
    out.write(block)
    out.flush()
"""


class Runner:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.env = dict(os.environ, PYTHONPATH=str(REPO), MCP_INSPECTOR_RUNTIME_DIR=str(folder))
        self.count = 0
        self.gaps = 0
        self.relay_cpu: list[float] = []  # the tap's CPU seconds per relayed message, per run

    def argv(self, server: list[str], tapped: bool) -> list[str]:
        if not tapped:
            return server
        self.count += 1
        session = self.folder / f"tap-{self.count}.jsonl"
        return [PY, "-m", "inspector", "tap", "--session-file", str(session), "--", *server]

    def popen(self, server: list[str], tapped: bool) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            self.argv(server, tapped),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=self.env,
            bufsize=0,
        )

    def count_gaps(self) -> int:
        gaps = 0
        for path in self.folder.glob("tap-*.jsonl"):
            with path.open(encoding="utf-8") as f:
                gaps += sum(1 for line in f if '"recording gap"' in line)
        return gaps


def _cpu_seconds(pid: int) -> float:
    """The CPU time process `pid` used so far, all its threads (Linux; 0 elsewhere): the
    tap's own, not its server's or its recorder's."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _readline(stream: object) -> bytes:
    return stream.readline()  # type: ignore[attr-defined, no-any-return]


def latency(runner: Runner, tapped: bool, messages: int) -> list[float]:
    proc = runner.popen([PY, "-c", ECHO_SERVER], tapped)
    assert proc.stdin and proc.stdout
    request = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    samples: list[float] = []
    for i in range(messages + 50):
        start = time.perf_counter()
        proc.stdin.write(request)
        if not _readline(proc.stdout):
            raise RuntimeError("the echo server went away")
        if i >= 50:  # warm-up
            samples.append(time.perf_counter() - start)
    proc.stdin.close()
    proc.wait(30)
    return samples


def throughput(runner: Runner, tapped: bool, mb: int, per_write: int) -> tuple[float, float, float]:
    """(rate from the first byte to EOF, rate from launch to EOF, time to the first byte).
    The first is the throughput; the launch includes starting the tap (a Python process
    of its own, before the server), which is a one-time cost, reported on its own."""
    lines = mb * 1024
    start = time.perf_counter()
    proc = runner.popen([PY, "-c", FLOOD_SERVER, str(lines), str(per_write)], tapped)
    assert proc.stdout and proc.stdin
    got = 0
    first = 0.0
    while True:
        chunk = proc.stdout.read(1 << 20)
        if not chunk:
            break
        if not got:
            first = time.perf_counter()
            got_first = len(chunk)
        got += len(chunk)
    end = time.perf_counter()
    proc.stdin.close()
    proc.wait(60)
    mib = 1 << 20
    return (got - got_first) / (end - first) / mib, got / (end - start) / mib, first - start


DEMO_SERVER = [PY, "-m", "inspector.demo"]
EVERYTHING = REPO / ".peers/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"


def calls(runner: Runner, tapped: bool, count: int, server: list[str] = DEMO_SERVER) -> float:
    proc = runner.popen(server, tapped)
    assert proc.stdin and proc.stdout

    def ask(payload: dict[str, object]) -> dict[str, object]:
        proc.stdin.write(json.dumps(payload).encode() + b"\n")  # type: ignore[union-attr]
        while True:
            answer = json.loads(_readline(proc.stdout))
            if answer.get("id") == payload["id"]:
                return answer  # type: ignore[no-any-return]

    ask(
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        }
    )
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    if tapped:
        runner.relay_cpu.append(-_cpu_seconds(proc.pid))
    start = time.perf_counter()
    for i in range(1, count + 1):
        params = {"name": "echo", "arguments": {"message": f"call {i}"}}
        answer = ask({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params})
        if "result" not in answer:
            raise RuntimeError(f"call {i} failed: {answer}")
    elapsed = time.perf_counter() - start
    if tapped:
        runner.relay_cpu[-1] = (runner.relay_cpu[-1] + _cpu_seconds(proc.pid)) / (2 * count)
    proc.stdin.close()
    proc.wait(30)
    return elapsed


class MachineLoad:
    """How busy the machine was with other people's work while the bench ran: the CPU time
    all processes used (`/proc/stat`) minus the bench's own (itself and its children), in
    cores, next to the number of cores. A figure taken at 1.5 busy cores of 2 is not the
    same figure as one taken on an idle machine."""

    def __init__(self) -> None:
        self.start = self._sample()

    @staticmethod
    def _sample() -> tuple[float, float, float]:
        hz = os.sysconf("SC_CLK_TCK")
        try:
            with open("/proc/stat", encoding="ascii") as f:
                fields = [int(x) for x in f.readline().split()[1:]]
            busy = (sum(fields[:8]) - fields[3] - fields[4]) / hz  # all but idle and iowait
        except (OSError, ValueError, IndexError):
            busy = float("nan")
        t = os.times()
        return time.monotonic(), busy, t.user + t.system + t.children_user + t.children_system

    def others(self) -> float:
        """Cores busy with other work since the start (average)."""
        now, busy, ours = self._sample()
        t0, busy0, ours0 = self.start
        return max(0.0, (busy - busy0) - (ours - ours0)) / max(now - t0, 1e-9)

    def describe(self) -> str:
        return (
            f"other work on the machine meanwhile: {self.others():.2f} of {os.cpu_count()} "
            f"cores busy; load average {os.getloadavg()[0]:.2f}"
        )


def alternate(rounds: int, measure: Callable[[bool], object]) -> tuple[list[object], list[object]]:
    """Direct, then tapped, `rounds` times: each pair ran under about the same load."""
    direct: list[object] = []
    tapped: list[object] = []
    for _ in range(rounds):
        direct.append(measure(False))
        tapped.append(measure(True))
    return direct, tapped


def paired(direct: list[float], tapped: list[float]) -> tuple[float, str]:
    """The median of the per-round ratios (tapped / direct), and the rounds' ratios."""
    ratios = [t / d for d, t in zip(direct, tapped, strict=True)]
    return statistics.median(ratios), ", ".join(f"{r:.2f}" for r in ratios)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    ns = parser.parse_args()
    ok = True
    print(f"{ns.rounds} rounds, each direct then tapped; ratios are tapped / direct per round")
    with tempfile.TemporaryDirectory() as tmp:
        runner = Runner(Path(tmp))

        load = MachineLoad()
        d, t = alternate(ns.rounds, lambda tap: latency(runner, tap, ns.messages))
        direct_med = statistics.median(x for run in d for x in run)  # type: ignore[attr-defined]
        tapped_med = statistics.median(x for run in t for x in run)  # type: ignore[attr-defined]
        added = (tapped_med - direct_med) * 1000
        print(
            f"latency: median round trip direct {direct_med * 1e6:.0f} µs, tapped "
            f"{tapped_med * 1e6:.0f} µs (ratio {tapped_med / direct_med:.2f}); added "
            f"{added:.3f} ms per round trip = {added / 2:.3f} ms per message (target <= 1 ms)"
        )
        print(f"  {load.describe()}")
        ok &= added / 2 <= 1.0

        for label, per_write, target in (("per message", 1, True), ("bulk", 64, False)):
            load = MachineLoad()
            d, t = alternate(ns.rounds, lambda tap, n=per_write: throughput(runner, tap, ns.mb, n))
            ratios = []
            for i, what in ((0, "first byte to EOF"), (1, "launch to EOF")):
                direct_rate = statistics.median(run[i] for run in d)  # type: ignore[index]
                tapped_rate = statistics.median(run[i] for run in t)  # type: ignore[index]
                ratio, rounds = paired(
                    [run[i] for run in d],  # type: ignore[index]
                    [run[i] for run in t],  # type: ignore[index]
                )
                ratios.append(ratio)
                print(
                    f"throughput ({label}, {what}): {ns.mb} MiB of 1 KiB lines, {per_write} "
                    f"per write: direct {direct_rate:.0f} MiB/s, tapped {tapped_rate:.0f} "
                    f"MiB/s (medians): median ratio {ratio:.3f} (rounds: {rounds})"
                )
            first_d = statistics.median(run[2] for run in d)  # type: ignore[index]
            first_t = statistics.median(run[2] for run in t)  # type: ignore[index]
            goal = "target >= 0.90 on the throughput" if target else "stress figure, no target"
            print(
                f"  time to the first byte: direct {first_d * 1000:.0f} ms, tapped "
                f"{first_t * 1000:.0f} ms (the tap's start-up); {goal}"
            )
            print(f"  {load.describe()}")
            if target:
                ok &= ratios[0] >= 0.9

        servers = [("the demo server", DEMO_SERVER, True, "")]
        if EVERYTHING.exists():  # a real server, for scale (the demo is the fastest we have)
            everything = ["node", str(EVERYTHING), "stdio"]
            servers.append(("server-everything", everything, False, ""))
        # The tap stays awake 500 µs after each message of a conversation (tap/duplex.py):
        # the same calls with it asleep at once, to show what that buys and costs.
        servers.append(("the demo server, tap never awake (spin 0)", DEMO_SERVER, False, "0"))
        for name, server, target, spin in servers:
            runner.env.pop(SPIN_ENV, None)
            if spin:
                runner.env[SPIN_ENV] = spin
            load = MachineLoad()
            d, t = alternate(ns.rounds, lambda tap, s=server: calls(runner, tap, ns.calls, s))
            ratio, rounds = paired(d, t)  # type: ignore[arg-type]
            dm, tm = statistics.median(d), statistics.median(t)  # type: ignore[type-var]
            print(
                f"calls: {ns.calls} sequential tools/call to {name} after initialize, "
                f"direct {dm:.3f} s, tapped {tm:.3f} s (medians): median ratio {ratio:.3f} "
                f"(rounds: {rounds}); added {(tm - dm) / ns.calls * 1e6:.0f} µs per call"  # type: ignore[operator]
                + (" (target <= 1.10)" if target else " (for scale, no target)")
            )
            cpu = statistics.median(runner.relay_cpu) * 1e6 if runner.relay_cpu else 0.0
            runner.relay_cpu.clear()
            print(
                f"  the tap's own CPU (relay threads) per message: {cpu:.0f} µs (median of the "
                "rounds; with the time it stays awake after a message, unless spin 0)"
            )
            print(f"  {load.describe()}")
            if target:
                ok &= ratio <= 1.1
        gaps = runner.count_gaps()
        print(f"recording gap notes in the tapped runs: {gaps} ({runner.count} session files)")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
