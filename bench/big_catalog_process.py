"""Benchmark: what a big catalog costs a whole process, start to exit.

`bench/many_tools.py` times a window from connect to the tools shown; this one times what a
person waits for: `gui --stdio SERVER --screenshot out.png` from the process start to its
exit (start, connect, list, lint, show, quit), and `cli -v --method tools/list` (the same
list linted in a terminal), each with a server of 10 tools (the floor) and of --tools
(10,000: a gateway's catalog, `bench/many_tools.py`'s server). Each figure is the best of
--runs, interleaved so the machine's noise hits each alike, every run with a fresh config
and data directory (the app pins the tools on first sight: it is a first connect).

    python bench/big_catalog_process.py [--tools 10000] [--runs 3] [--compare /work/main]

`--compare TREE` runs the same commands on another checkout's code (PYTHONPATH=TREE), e.g.
the code before a change. Goal: the 10,000-tool gui run <= 0.5 s more than the 10-tool one.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "bench")]

from many_tools import SERVER  # noqa: E402  (the same server, by the file next to this one)


def run_once(tree: Path, argv: list[str], home: Path) -> float:
    """Seconds from the process start to its exit (it must exit 0)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "QT_QPA_PLATFORM": "offscreen",
        "MCP_INSPECTOR_CONFIG_DIR": str(home / "config"),
        "MCP_INSPECTOR_DATA_DIR": str(home / "data"),
    }
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "inspector", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tree,
        timeout=300,
        check=False,
    )
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace")[-600:]
        raise SystemExit(f"{' '.join(argv)} in {tree} failed (exit {done.returncode}):\n{tail}")
    return elapsed


def commands(server: Path, n: int, shot: Path) -> dict[str, list[str]]:
    stdio = f"{sys.executable} {server} {n}"
    return {
        "gui --screenshot": ["gui", "--stdio", stdio, "--screenshot", str(shot)],
        "cli -v tools/list": [
            "cli",
            "-v",
            "--method",
            "tools/list",
            "--",
            sys.executable,
            str(server),
            str(n),
        ],
    }


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--tools", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--compare", type=Path, help="another checkout to measure too (before)")
    args = ap.parse_args()
    trees = {"this tree": REPO}
    if args.compare is not None:
        trees["compare"] = args.compare.resolve()
    best: dict[tuple[str, str, int], float] = {}
    with tempfile.TemporaryDirectory(prefix="big-catalog-") as tmp:
        root = Path(tmp)
        server = root / "many_server.py"
        server.write_text(SERVER)
        for run in range(args.runs):
            for label, tree in trees.items():
                for n in (10, args.tools):
                    for what, argv in commands(server, n, root / f"shot-{n}.png").items():
                        home = root / f"home-{run}-{label}-{n}-{what.split()[0]}"
                        elapsed = run_once(tree, argv, home)
                        key = (label, what, n)
                        best[key] = min(best.get(key, elapsed), elapsed)
    print(f"best of {args.runs} runs, whole process (start to exit), offscreen")
    for label, tree in trees.items():
        print(f"{label}: {tree}")
        for what in ("gui --screenshot", "cli -v tools/list"):
            few, many = best[(label, what, 10)], best[(label, what, args.tools)]
            print(
                f"  {what:<18} 10 tools {few:6.2f} s   {args.tools:,} tools {many:6.2f} s   "
                f"extra {many - few:+6.2f} s ({many / few:4.2f}x the 10-tool floor)"
            )
    print("goal: gui --screenshot with 10,000 tools <= 0.5 s more than with 10")
    return 0


if __name__ == "__main__":
    sys.exit(main())
