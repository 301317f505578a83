"""Regression: the GUI test run died of SIGSEGV in `QTimerInfoList::activateTimers` (inside
qasync's `run_forever`) about once per hundred UI tests on a loaded machine.

Cause: CPython runs the cyclic collector in whichever thread allocates past the threshold.
A worker thread (qasync's executor importing a provider SDK) collected cycles holding
QObjects with running timers (closed qasync loops' `_SimpleTimer`s, widgets' Python sides);
Qt printed "QObject::~QObject: Timers cannot be stopped from another thread", left the
timers registered, and delivered the next one to freed memory. The GUI now runs the cyclic
collector on the Qt thread only (inspector/ui/shell/qt_thread_gc.py).

The exact sequence runs in a child process (it may crash): a QObject with a running timer
in a garbage cycle, a worker thread that allocates enough to trigger a collection, then the
Qt loop runs. Without the collector the child shows Qt's warning (and may die); with it,
the object is freed on the Qt thread and the child exits cleanly.
"""

from __future__ import annotations

import gc
import os
import subprocess
import textwrap
import threading

import pytest
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

from inspector.ui.shell.qt_thread_gc import collect_if_due, collect_on_qt_thread
from tests.helpers.peers import PY, REPO

pytestmark = pytest.mark.timeout(120)

CHILD = textwrap.dedent(
    """
    import asyncio, gc, sys, threading
    import qasync
    from PySide6.QtCore import QObject
    from inspector.ui.shell.event_loop import ensure_application, run_qt_async

    app = ensure_application()

    class Ticking(QObject):
        def __init__(self):
            super().__init__()
            self.me = self  # a cycle: only the cyclic collector frees it
            self.startTimer(20)

        def timerEvent(self, event):
            pass

    def make_garbage():
        for _ in range(50):
            Ticking()

    def churn():
        # Allocate container objects on this worker thread until collections happen.
        junk = []
        for i in range(200_000):
            junk.append([i])
            if len(junk) > 1000:
                junk.clear()

    async def main():
        make_garbage()
        worker = threading.Thread(target=churn)
        worker.start()
        while worker.is_alive():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)  # the Ticking timers come due (20 ms)
        gc.collect()
        await asyncio.sleep(0.1)
        return "done"

    if sys.argv[1] == "with-collector":
        print(run_qt_async(main))  # the app's loop
    else:
        print(qasync.QEventLoop(app).run_until_complete(main()))  # a bare qasync loop
    """
)

WARNING = "Timers cannot be stopped from another thread"


def run_child(mode: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [PY, "-c", CHILD, mode], capture_output=True, text=True, timeout=100, env=env
    )


def test_without_the_collector_a_worker_thread_frees_qobjects_with_timers() -> None:
    """The scenario reproduces the bug: Qt's warning every time (and, here, a SIGSEGV)."""
    proc = run_child("without")
    assert WARNING in proc.stderr, f"rc={proc.returncode}\n{proc.stderr[-2000:]}"


def test_with_the_collector_qobjects_are_freed_on_the_qt_thread() -> None:
    proc = run_child("with-collector")
    assert proc.returncode == 0, f"rc={proc.returncode}\n{proc.stderr[-2000:]}"
    assert proc.stdout.strip() == "done"
    assert WARNING not in proc.stderr


def test_the_collector_never_collects_on_a_worker_thread(qapp: QApplication) -> None:
    collector = collect_on_qt_thread(qapp)
    assert collect_on_qt_thread(qapp) is collector  # one per application
    assert not gc.isenabled()

    class Cycle(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.me = self

    cycle = Cycle()
    cycle.destroyed.connect(lambda: None)
    count = gc.get_count()[0]
    results: list[int] = []
    worker = threading.Thread(target=lambda: results.append(collect_if_due((0, 0, 0))))
    worker.start()
    worker.join()
    assert results == [0]
    assert gc.get_count()[0] >= count  # nothing collected there
    del cycle
    assert collect_if_due((0, 0, 0)) > 0  # on the main thread, the cycle goes
