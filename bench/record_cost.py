"""Benchmark: what recording costs (issue 27, "recording costs little").

The flood server is bench/log_flood.py's: N `notifications/message` lines (1,000,000 by
default) before a tool result. Measured, in the same run (the machine is shared and
noisy: each figure is a RATIO to its floor, runs interleaved, the best of --runs kept):

* the CLI: `cli --method tools/call --tool-name flood ... -- SERVER`, whole process
  (wall time and peak RSS), without `--record` (the floor) and with `--record FILE`
  plain, `.gz` and `.zst`; with the recording's size and line count;
* the GUI: bench/log_flood.py's ingest into the live log as a ratio of its raw floor
  (readline + json.loads), with recording off, on, and on with gzip / zstd compression.

    python bench/record_cost.py [--messages 1000000] [--runs 2] [--gui-messages 1000000]
        [--skip-gui] [--skip-cli]

Goals: `cli --record` <= 1.3x the same run without it (time); the GUI's ingest with
recording on >= 0.44 of the raw floor.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.log_flood import FLOOD_SERVER  # noqa: E402  (the same server as the GUI bench)


def measured(server: Path, n: int, record: Path | None) -> tuple[float, float, float]:
    """(wall seconds, peak RSS MB, CPU seconds) of one CLI run, as the kernel counted them
    for that process (wait4; its CPU includes the server's, the same in every run)."""
    argv = [sys.executable, "-m", "inspector", "cli", "--method", "tools/call", "--compact",
            "--tool-name", "flood", "--tool-args-json", f'{{"count": {n}}}']  # fmt: skip
    if record is not None:
        argv += ["--record", str(record)]
    argv += ["--", sys.executable, str(server)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        _pid, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text = out.read()
        if proc.returncode != 0 or f"sent {n}".encode() not in text:
            raise SystemExit(
                f"cli failed ({proc.returncode}): {text[-300:]!r} {err.read().decode()[-500:]}"
            )
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def lines_of(path: Path) -> int:
    if path.name.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            return sum(1 for _ in f)
    if path.name.endswith(".zst"):
        import zstandard

        with path.open("rb") as raw, zstandard.ZstdDecompressor().stream_reader(raw) as f:
            count = 0
            while chunk := f.read(1 << 20):
                count += chunk.count(b"\n")
            return count
    with path.open("rb") as f:
        return sum(1 for _ in f)


def cli_bench(n: int, runs: int, tmp: Path) -> None:
    server = tmp / "flood_server.py"
    server.write_text(FLOOD_SERVER)
    kinds: dict[str, str | None] = {
        "no --record": None,
        "--record x.jsonl": "x.jsonl",
        "--record x.jsonl.gz": "x.jsonl.gz",
        "--record x.jsonl.zst": "x.jsonl.zst",
    }
    results: dict[str, list[tuple[float, float, float]]] = {k: [] for k in kinds}
    for _ in range(runs):  # interleaved: a busy moment hits every kind alike
        for label, name in kinds.items():
            record = tmp / name if name else None
            results[label].append(measured(server, n, record))
    floor_time = min(r[0] for r in results["no --record"])
    floor_rss = min(r[1] for r in results["no --record"])
    floor_cpu = min(r[2] for r in results["no --record"])
    print(f"cli --method tools/call on the flood: {n:,} notifications before the result")
    print(
        f"{'':24}{'time (best)':>12}{'ratio':>8}{'CPU (best)':>12}{'ratio':>8}"
        f"{'peak RSS':>10}{'ratio':>8}   file"
    )
    for label, name in kinds.items():
        best = min(r[0] for r in results[label])
        rss = min(r[1] for r in results[label])
        cpu = min(r[2] for r in results[label])
        file = ""
        if name:
            path = tmp / name
            file = f"{path.stat().st_size / 1e6:,.1f} MB, {lines_of(path):,} lines"
            path.unlink()
        print(
            f"  {label:22}{best:10.2f} s{best / floor_time:7.2f}x{cpu:10.2f} s"
            f"{cpu / floor_cpu:7.2f}x{rss:7.0f} MB{rss / floor_rss:7.2f}x   {file}"
        )
        if len(results[label]) > 1:
            print(f"  {'':22}(runs: " + ", ".join(f"{r[0]:.2f}" for r in results[label]) + ")")
    print(
        "  goal: --record <= 1.30x the time without it (CPU: the CLI's and the server's; "
        "on a shared machine the steadier figure)"
    )


def gui_run(n: int, extra: list[str], tmp: Path) -> tuple[float, str]:
    """The ingest/floor ratio bench/log_flood.py reports, and its line."""
    data = Path(tempfile.mkdtemp(prefix="record-cost-data-", dir=tmp))
    env = {**os.environ, "PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen",
           "MCP_INSPECTOR_DATA_DIR": str(data), "MCP_INSPECTOR_CONFIG_DIR": str(data)}  # fmt: skip
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "log_flood.py"), "--messages", str(n), *extra],
        capture_output=True, text=True, env=env, timeout=900, check=False,
    )  # fmt: skip
    match = re.search(r"RATIO ingest/floor:\s+([\d.]+)%", done.stdout)
    if done.returncode != 0 or match is None:
        raise SystemExit(f"log_flood failed: {done.stdout[-800:]} {done.stderr[-800:]}")
    line = next(x for x in done.stdout.splitlines() if x.startswith("ingest into the model"))
    files = list((data / "sessions").glob("*")) if (data / "sessions").exists() else []
    size = sum(f.stat().st_size for f in files)
    for f in files:
        f.unlink()
    return float(match[1]) / 100, f"{line.split(':', 1)[1].strip()}; file {size / 1e6:,.1f} MB"


def gui_bench(n: int, runs: int, tmp: Path) -> None:
    kinds = {"recording off": ["--no-record"], "recording on": [],
             "on, gzip": ["--compress", "gzip"], "on, zstd": ["--compress", "zstd"]}  # fmt: skip
    print(f"\nGUI ingest (bench/log_flood.py, {n:,} messages): ratio to the raw floor")
    for label, extra in kinds.items():
        best = max((gui_run(n, extra, tmp) for _ in range(runs)), key=lambda r: r[0])
        print(f"  {label:16}{best[0]:7.1%}   {best[1]}")
    print("  goal: recording on >= 44% of the floor")


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--messages", type=int, default=1_000_000)
    ap.add_argument("--gui-messages", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--skip-cli", action="store_true")
    ap.add_argument("--skip-gui", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="record-cost-"))
    if not args.skip_cli:
        cli_bench(args.messages, args.runs, tmp)
    if not args.skip_gui:
        gui_bench(args.gui_messages, args.runs, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
