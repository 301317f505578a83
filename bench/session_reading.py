"""Benchmark: reading compressed and damaged session files (issue 27: files people keep).

A session of --lines notification frames is written plain, gzip- and zstd-compressed to a
temporary folder, then measured in the same run, each the best of --runs:

* the floor: `json.loads` of every line of the plain file (what any reader has to do);
* `read_session` of the plain, the gzip and the zstd file (the zstd and gzip ones are
  decompressed to a temporary file first, inspector/recording/parts.py);
* the decompression alone (`session_parts`), for each.

Then, each in a child process (its peak RSS above a child that only imports the reader):
`read_session` of a file with one line of --huge-mb MB, read, and with the line over the
limit (skipped unread).

    python bench/session_reading.py [--lines 200000] [--runs 3] [--huge-mb 100]
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import zstandard

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from inspector.recording.parts import session_parts
from inspector.recording.reader import read_session

REPO = Path(__file__).resolve().parent.parent
HEADER = {
    "type": "header", "format": "mcp-inspector-session", "version": 1, "app_version": "0.1.0",
    "created": "2026-12-01T00:00:00.000+00:00",
    "connection": {"transport": "stdio", "command": "srv", "args": []}, "era": "legacy",
}  # fmt: skip


def write_plain(path: Path, lines: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(HEADER) + "\n")
        for i in range(lines):
            text = json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                               "params": {"level": "info", "data": f"line {i} " * 8}})  # fmt: skip
            line = {"type": "frame", "t": i / 1000, "wall": 1.8e9 + i / 1000, "transport": "stdio",
                    "dir": "in", "kind": "notification", "text": text}  # fmt: skip
            out.write(json.dumps(line) + "\n")


def best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def floor(path: Path) -> None:
    with path.open("rb") as fh:
        for raw in fh:
            json.loads(raw)


# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across exec.
_CHILD = """
import sys
from inspector.recording.reader import read_session
def hwm():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmHWM:"))
base = hwm()
if sys.argv[1] != "-":
    s = read_session(sys.argv[1], max_line_bytes=int(sys.argv[2]))
    print(len(s.events), "event(s)", "|".join(s.problems)[:160], file=sys.stderr)
print(hwm() - base)
"""


def child_rss_mb(path: str, limit: int) -> float:
    done = subprocess.run([sys.executable, "-c", _CHILD, path, str(limit)], cwd=REPO,
                          capture_output=True, text=True, check=True)  # fmt: skip
    print("   ", done.stderr.strip())
    return int(done.stdout) / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--huge-mb", type=int, default=100)
    ns = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        plain = folder / "s.jsonl"
        write_plain(plain, ns.lines)
        data = plain.read_bytes()
        gz = folder / "s.jsonl.gz"
        gz.write_bytes(gzip.compress(data, compresslevel=6))
        zst = folder / "s.jsonl.zst"
        zst.write_bytes(zstandard.ZstdCompressor(level=3).compress(data))
        del data
        sizes = [p.stat().st_size / 1e6 for p in (plain, gz, zst)]
        print(f"{ns.lines:,} lines: plain {sizes[0]:.1f} MB, gzip {sizes[1]:.1f} MB, "
              f"zstd {sizes[2]:.1f} MB")  # fmt: skip
        base = best(ns.runs, lambda: floor(plain))
        print(f"floor (json.loads of every line): {base:.2f} s")
        for name, path in (("plain", plain), ("gzip", gz), ("zstd", zst)):
            read = best(ns.runs, lambda p=path: read_session(p))  # type: ignore[misc]
            unpack = best(ns.runs, lambda p=path: session_parts(p, folder / "t"))  # type: ignore[misc]
            print(f"  read_session {name:5}: {read:.2f} s = {read / base:.2f}x the floor "
                  f"(decompressing alone {unpack:.2f} s = {unpack / base:.2f}x)")  # fmt: skip
        huge = folder / "huge.jsonl"
        with huge.open("w", encoding="utf-8") as out:
            out.write(json.dumps(HEADER) + "\n")
            out.write(json.dumps({"type": "note", "t": 1.0, "text": "x" * (ns.huge_mb << 20)}))
            out.write("\n")
        none = child_rss_mb("-", 0)
        read = child_rss_mb(str(huge), 256 << 20)
        skipped = child_rss_mb(str(huge), 64 << 20)
        print(f"one {ns.huge_mb} MB line: peak RSS +{read:.0f} MB read "
              f"(= {read / ns.huge_mb:.1f}x the line), +{skipped:.0f} MB skipped over a "
              f"64 MiB limit (floor: +{none:.0f} MB)")  # fmt: skip


if __name__ == "__main__":
    main()
