"""How long the Qt event loop was stuck, measured so that a busy neighbour does not count.

A 10 ms QTimer ticks while a test works; the longest gap between two ticks, less the time
the GUI thread spent waiting for a CPU that other processes held (Linux's schedstat), is
how long the loop itself was busy or blocked. These machines are shared and the suite runs
in parallel processes: a plain wall-clock gap would fail a test because a neighbour was busy.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer

__all__ = ["STALL_LIMIT", "StallMeter"]

STALL_LIMIT = 0.2  # seconds: a stall a person would notice


def run_queue_wait() -> float:
    """Seconds this thread has spent runnable but not running (waiting for a CPU that
    other processes had), from Linux's schedstat; 0.0 where there is none."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


class StallMeter:
    """A 10 ms QTimer; the longest gap between its ticks is how long the loop was stuck
    (`worst`, less the time spent waiting for a CPU); `worst_wall` keeps the plain
    wall-clock gap for messages. Use as a context manager around the work."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.last = 0.0
        self.last_wait = 0.0
        self.worst = 0.0
        self.worst_wall = 0.0
        self.ticks = 0

    def _tick(self) -> None:
        self.ticks += 1
        now, wait = time.monotonic(), run_queue_wait()
        wall = now - self.last
        self.worst_wall = max(self.worst_wall, wall)
        self.worst = max(self.worst, wall - (wait - self.last_wait))
        self.last, self.last_wait = now, wait

    def __enter__(self) -> StallMeter:
        self.last, self.last_wait = time.monotonic(), run_queue_wait()
        self.timer.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.timer.stop()
