"""The one place where Qt and asyncio are wired together (qasync).

The GUI is one asyncio loop on the Qt thread. Python 3.12+ uses
`asyncio.run(main(), loop_factory=qasync.QEventLoop)`; 3.11 uses `qasync.run`.
On 3.11, PySide6 6.12.0 leaks a reference to None per loop iteration and aborts
busy sessions (docs/known-issues.md); the package pins PySide6 < 6.12 there and
tests/ui/shell/test_qasync_loop.py runs 50k+ iterations in a subprocess to prove it.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import qasync
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QApplication

from inspector.ui.shell.qt_thread_gc import collect_on_qt_thread

__all__ = ["ensure_application", "run_qt_async"]

T = TypeVar("T")


def ensure_application(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    # QtWebEngine (an MCP App, loaded later and only then) wants shared GL contexts set
    # before the application exists; setting the flag costs nothing.
    QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
    app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("mcp-inspector-qt")
    app.setOrganizationName("mcp-inspector-qt")
    app.setApplicationDisplayName("MCP Inspector")
    return app


def run_qt_async(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run `main()` on a qasync loop driven by the Qt event loop; return its result.
    Cyclic garbage is collected on the Qt thread only (qt_thread_gc explains why)."""
    collect_on_qt_thread(ensure_application())
    if sys.version_info >= (3, 12):
        return asyncio.run(main(), loop_factory=qasync.QEventLoop)
    result: T = qasync.run(main())
    return result
