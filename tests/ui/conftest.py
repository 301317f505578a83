"""The fixtures every GUI test shares: one qasync loop, one window, one controller.

A test module that needs something else (a data folder, a console) overrides the fixture
by defining its own of the same name."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

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
