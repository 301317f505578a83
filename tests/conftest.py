"""Shared fixtures: where the real peers are, and how to launch them."""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import tempfile
from collections.abc import AsyncIterator

import pytest

from tests.helpers.peers import EVERYTHING_JS
from tests.helpers.sessions import OpenSessions

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Every GUI connection is recorded: keep the recordings of test runs out of the
# user's data dir.
os.environ.setdefault("MCP_INSPECTOR_DATA_DIR", tempfile.mkdtemp(prefix="mcp-inspector-test-data-"))


@pytest.fixture
async def sessions() -> AsyncIterator[OpenSessions]:
    """Sessions a test opens; all of them are closed at teardown."""
    opened = OpenSessions()
    yield opened
    await opened.close_all()


@pytest.fixture
def everything_command() -> list[str]:
    node = shutil.which("node")
    if node is None or not EVERYTHING_JS.exists():
        pytest.skip("server-everything is not installed (scripts/install-peers.sh installs it)")
    return [node, str(EVERYTHING_JS), "stdio"]


def _process_qt_events_inside_the_loop() -> None:
    """pytest-qt calls app.processEvents() between test phases. While a GUI test's qasync
    loop is set but not running, Qt would then fire qasync's socket notifiers and timers
    outside the loop; a notifier removed during its own activation has crashed the whole
    run (SIGSEGV in pytestqt's _process_events). Process those events inside the loop."""
    try:
        import pytestqt.plugin as plugin
    except ImportError:  # pragma: no cover - pytest-qt is a test dependency
        return
    original = plugin._process_events

    def process_events() -> None:
        from tests.helpers import gui as ui_helpers

        loop = ui_helpers.current_loop()
        if loop is not None and not loop.is_closed() and not loop.is_running():
            loop.run_until_complete(asyncio.sleep(0))
        else:
            original()

    plugin._process_events = process_events


_process_qt_events_inside_the_loop()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Once a GUI test moved cyclic collection to the Qt thread (tests/helpers/gui.py
    new_loop), tests that run no Qt loop still collect: here, on the main thread."""
    if not gc.isenabled():
        from inspector.ui.shell.qt_thread_gc import collect_if_due

        threshold = gc.get_threshold()
        collect_if_due((threshold[0], threshold[1], threshold[2]))
