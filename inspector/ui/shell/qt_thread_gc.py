"""Python's cyclic garbage collector, run on the Qt thread only.

CPython runs the cyclic collector in whichever thread happens to allocate past the
threshold. The GUI has worker threads (the default executor that imports a provider SDK,
the collections reader, the recording writer, asyncio's child watcher), so a cycle holding a
QObject (a widget's Python side, a timer, a closed qasync loop's `_SimpleTimer` with its
cancelled `call_later` timers) could be freed there. Qt then refuses to stop that object's
timers ("QObject::~QObject: Timers cannot be stopped from another thread") and leaves them
registered with the Qt thread's dispatcher; when one comes due, the dispatcher delivers a
timer event to freed memory and the process dies of SIGSEGV in
`QTimerInfoList::activateTimers` (docs/known-issues.md).

So the automatic collector is switched off and the same generational thresholds are
checked from a Qt timer (and by whoever calls `collect_if_due`) on the Qt thread.
Reference counting still frees acyclic garbage at once, in any thread, as before.
"""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QCoreApplication, QObject, QTimer

__all__ = ["QtThreadCollector", "collect_if_due", "collect_on_qt_thread"]

CHECK_INTERVAL_MS = 100


def collect_if_due(thresholds: tuple[int, int, int]) -> int:
    """Collect the generations whose counts passed `thresholds`, as CPython would; only on
    the main thread (elsewhere: nothing). Returns the number of objects collected."""
    if threading.current_thread() is not threading.main_thread():
        return 0
    count0, count1, count2 = gc.get_count()
    if count0 <= thresholds[0]:
        return 0
    if count1 > thresholds[1]:
        return gc.collect(2 if count2 > thresholds[2] else 1)
    return gc.collect(0)


class QtThreadCollector(QObject):
    """Disables the automatic collector and collects from a timer on the Qt thread."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        threshold = gc.get_threshold()
        # A threshold of 0 means "disabled"; keep CPython's defaults then.
        self.thresholds = (threshold[0] or 700, threshold[1] or 10, threshold[2] or 10)
        gc.disable()
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_INTERVAL_MS)
        self._timer.timeout.connect(self.collect_if_due)
        self._timer.start()

    def collect_if_due(self) -> int:
        return collect_if_due(self.thresholds)


def collect_on_qt_thread(app: QCoreApplication) -> QtThreadCollector:
    """The application's collector, created (and the automatic collector disabled) once."""
    existing = app.findChild(QtThreadCollector)
    if isinstance(existing, QtThreadCollector):
        return existing
    return QtThreadCollector(app)
