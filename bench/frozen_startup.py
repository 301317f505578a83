"""Benchmark: start-up of the frozen app to a window on screen, against two floors measured in
the same run (machines are shared and noisy, so the ratios are the figures to quote).

Each variant is started under its own Xvfb, and the clock stops when a visible window whose
title starts with the variant's title is mapped (polled with xdotool every 10 ms):

* floor: a bare PySide6 QMainWindow from this interpreter (Python + Qt start, nothing of ours);
* source: `python -m inspector gui` from the checkout (this interpreter);
* frozen: dist/mcp-inspector-qt/mcp-inspector-qt gui (packaging/build.sh builds it).

    python bench/frozen_startup.py [--runs 5] [--app dist/mcp-inspector-qt/mcp-inspector-qt]

Prints the median seconds of each and the ratios frozen/floor, source/floor, frozen/source.
Needs Xvfb and xdotool (Debian packages xvfb, xdotool).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FLOOR = (
    "from PySide6.QtWidgets import QApplication, QMainWindow\n"
    "app = QApplication([])\n"
    "w = QMainWindow(); w.setWindowTitle('MCP Inspector floor'); w.resize(1280, 860); w.show()\n"
    "app.exec()\n"
)


def _answers(display: str) -> bool:
    done = subprocess.run(
        ["xdotool", "getdisplaygeometry"],
        env={**os.environ, "DISPLAY": display},
        capture_output=True,
        timeout=10,
    )
    return done.returncode == 0


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    for number in range(120, 160):
        if not Path(f"/tmp/.X11-unix/X{number}").exists():
            display = f":{number}"
            xvfb = subprocess.Popen(
                ["Xvfb", display, "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            deadline = time.monotonic() + 10
            while not _answers(display):  # the socket appears before the server answers
                if time.monotonic() > deadline or xvfb.poll() is not None:
                    raise SystemExit("Xvfb did not start")
                time.sleep(0.05)
            return xvfb, display
    raise SystemExit("no free X display number")


def visible(display: str, title: str) -> bool:
    done = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--name", f"^{title}"],
        env={**os.environ, "DISPLAY": display},
        capture_output=True,
        timeout=10,
    )
    return done.returncode == 0 and bool(done.stdout.strip())


def time_to_window(argv: list[str], title: str, env: dict[str, str], display: str) -> float:
    with tempfile.TemporaryDirectory(prefix="startup-") as work:
        run_env = {
            **env,
            "DISPLAY": display,
            "MCP_INSPECTOR_CONFIG_DIR": f"{work}/config",
            "MCP_INSPECTOR_DATA_DIR": f"{work}/data",
        }
        run_env.pop("QT_QPA_PLATFORM", None)
        start = time.perf_counter()
        errors = Path(work) / "stderr.txt"
        with errors.open("wb") as sink:
            proc = subprocess.Popen(
                argv, env=run_env, cwd=work, stdout=subprocess.DEVNULL, stderr=sink
            )
        try:
            while not visible(display, title):
                if proc.poll() is not None:
                    tail = errors.read_text(errors="replace")[-2000:]
                    raise SystemExit(
                        f"{argv[0]} exited ({proc.returncode}) before a window:\n{tail}"
                    )
                if time.perf_counter() - start > 60:
                    raise SystemExit(f"{argv[0]}: no window after 60 s")
                time.sleep(0.01)
            return time.perf_counter() - start
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--app", default=str(REPO / "dist/mcp-inspector-qt/mcp-inspector-qt"))
    args = parser.parse_args()
    if not Path(args.app).is_file():
        raise SystemExit(f"{args.app} not found: run packaging/build.sh first")
    for needed in ("Xvfb", "xdotool"):
        if shutil.which(needed) is None:
            raise SystemExit(f"{needed} is needed (apt-get install xvfb xdotool)")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MCP_INSPECTOR_"))}
    variants = {
        "floor": ([sys.executable, "-c", FLOOR], "MCP Inspector floor", base),
        "source": (
            [sys.executable, "-m", "inspector", "gui"],
            "MCP Inspector",
            {**base, "PYTHONPATH": str(REPO)},
        ),
        "frozen": ([args.app, "gui"], "MCP Inspector", base),
    }
    xvfb, display = start_xvfb()
    try:
        times: dict[str, list[float]] = {name: [] for name in variants}
        for argv, title, env in variants.values():
            time_to_window(argv, title, env, display)  # warm-up: the disk cache
        for _ in range(args.runs):  # interleaved, so a noisy moment hits every variant
            for name, (argv, title, env) in variants.items():
                times[name].append(time_to_window(argv, title, env, display))
    finally:
        xvfb.terminate()
        xvfb.wait(10)
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        runs = " ".join(f"{v:.2f}" for v in values)
        print(f"{name:7s} median {median[name]:.2f} s to a window   ({runs})")
    print(f"frozen/floor  {median['frozen'] / median['floor']:.2f}")
    print(f"source/floor  {median['source'] / median['floor']:.2f}")
    print(f"frozen/source {median['frozen'] / median['source']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
