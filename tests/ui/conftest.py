"""The fixtures the GUI tests share: one qasync loop, one window, one controller, and a
window whose recordings stay in the test's own data folder.

Each fixture name is defined once under tests/ (tests/architecture/test_fixtures_once.py):
a module that needs a variant (a console, answers to a dialog) gives it a name of its own
rather than overriding one of these."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from inspector.storage.paths import DATA_DIR_ENV
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import close_window, make_controller, make_window, new_loop, run


@pytest.fixture
def loop(qapp: QApplication) -> Iterator[asyncio.AbstractEventLoop]:
    yield from new_loop(qapp)


@pytest.fixture
def window(loop: asyncio.AbstractEventLoop, tmp_path: Path) -> Iterator[MainWindow]:
    win = make_window(tmp_path)
    yield win
    run(loop, close_window(win))


@pytest.fixture
def controller(loop: asyncio.AbstractEventLoop, tmp_path: Path) -> Iterator[ConnectionController]:
    """A connection without a window (asks answered by parentless dialogs)."""
    c = make_controller(tmp_path)
    yield c
    run(loop, c.model.shutdown())


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's data folder (MCP_INSPECTOR_DATA_DIR) in tmp_path: what the test records
    lands there, not in the run's shared data folder."""
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_ENV, str(folder))
    return folder


@pytest.fixture
def recording_window(
    loop: asyncio.AbstractEventLoop, tmp_path: Path, data_dir: Path
) -> Iterator[MainWindow]:
    """A window made after `data_dir` is set: its recordings go to the test's data folder."""
    win = make_window(tmp_path)
    yield win
    run(loop, close_window(win))
