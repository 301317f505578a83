"""Benchmark: the GUI's security review of a big catalog keeps the event loop responsive.

A gateway-sized server (N tools, default 5,000, each with a described input) and the demo
server's tools are reviewed as two tabs of a window would be (`ui/security/review.py`
`SecurityReview`, its worker thread), with stand-in panels (no window: the panels only
report what the review hands them). Printed:

* the FLOOR: the largest stall of a 10 ms repeating QTimer over an idle second;
* the largest stall while the review runs, and its RATIO to the floor;
* the review's wall time, and the stall the same scan causes when run on the loop itself
  (what the review would cost without its thread), as a ratio to the floor.

A stall is the lateness of the timer less the time the thread waited for a CPU other
processes held (/proc/thread-self/schedstat), as bench/eight_tabs.py measures it.

    QT_QPA_PLATFORM=offscreen python bench/security_review.py [--tools 5000]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

import inspector.demo.tools as demo_tools
from inspector.compare.snapshot import CatalogSnapshot
from inspector.security import ServerDefinitions, scan
from inspector.ui.security.review import SecurityReview
from inspector.ui.security.sources import TabListing


def _run_queue_wait() -> float:
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


class StallMeter:
    """The longest gap between ticks of a 10 ms timer, less run-queue wait."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.last, self.last_wait, self.worst = time.monotonic(), _run_queue_wait(), 0.0

    def start(self) -> None:
        self.last, self.last_wait, self.worst = time.monotonic(), _run_queue_wait(), 0.0
        self.timer.start()

    def _tick(self) -> None:
        now, wait = time.monotonic(), _run_queue_wait()
        self.worst = max(self.worst, now - self.last - (wait - self.last_wait))
        self.last, self.last_wait = now, wait


class Panel:
    """A stand-in for a tab's SecurityPanel: offers definitions, hears findings."""

    def __init__(self, name: str, tools: list[dict[str, Any]]) -> None:
        self.name, self.tools = name, tools
        self.on_change: Callable[[], None] | None = None
        self.findings: list[Any] | None = None

    def label(self) -> str:
        return self.name

    def listing(self, name: str) -> TabListing:
        return TabListing(name, CatalogSnapshot(tools=self.tools))

    def show_reviewing(self) -> None:
        pass

    def show_nothing(self) -> None:
        pass

    def show_findings(self, _name: str, findings: list[Any], _servers: int) -> None:
        self.findings = findings


def _spin(app: QApplication, until: Callable[[], bool], timeout: float) -> None:
    """Run the event loop (sleeping when idle, as the app's does) until `until()`."""
    loop = QEventLoop()
    deadline = time.monotonic() + timeout
    poll = QTimer()
    poll.setInterval(20)
    poll.timeout.connect(lambda: (until() or time.monotonic() > deadline) and loop.quit())
    poll.start()
    loop.exec()
    poll.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tools", type=int, default=5000)
    ns = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    big = [
        {
            "name": f"tool_{i}",
            "description": f"Does thing number {i} with the given input and returns a result.",
            "inputSchema": {
                "type": "object",
                "properties": {"a": {"type": "string", "description": "The a value."}},
            },
        }
        for i in range(ns.tools)
    ]
    demo = [spec.definition for spec in demo_tools.TOOLS]
    scan([ServerDefinitions("warm-up", tools=demo)])  # the Unicode tables load once

    meter = StallMeter()
    meter.start()
    _spin(app, lambda: False, 1.0)
    floor = max(meter.worst, 0.001)

    review = SecurityReview()
    panels = [Panel("gateway", big), Panel("demo", demo)]
    for panel in panels:
        review.panels.append(panel)  # type: ignore[arg-type]
    meter.start()
    started = time.monotonic()
    review.run()
    _spin(app, lambda: all(p.findings is not None for p in panels), 600)
    wall = time.monotonic() - started
    threaded = meter.worst

    meter.start()
    servers = [ServerDefinitions(p.name, tools=p.tools) for p in panels]
    QTimer.singleShot(0, lambda: scan(servers))
    _spin(app, lambda: False, 0.2)
    _spin(app, lambda: time.monotonic() - meter.last < 0.05, 600)
    inline = meter.worst

    print(f"tools reviewed: {ns.tools + len(demo):,} in {wall:.2f} s (on the worker thread)")
    print(f"FLOOR: largest stall, idle: {floor * 1000:.1f} ms")
    ratio = threaded / floor
    print(f"largest stall during the review: {threaded * 1000:.1f} ms = {ratio:.1f}x the floor")
    print(f"the same scan on the loop: {inline * 1000:.0f} ms = {inline / floor:.0f}x the floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
