"""A tab that shows a recording or follows a live tap names what it shows in its Server box
(issue 31, item 24), not the profile used last by another tab."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.journeys import click, shows_connected
from tests.helpers.small_session import write_small_session

pytestmark = pytest.mark.timeout(60)


def test_a_read_only_tab_names_its_file_in_the_server_box(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    live = window.current_tab
    path = write_small_session(tmp_path / "small.jsonl")

    async def scenario() -> None:
        click(live.bar.connect_button)  # the demo: now the profile used last
        await until(lambda: shows_connected(live, 11), "the demo server")
        await window.open_session_files([path])  # as when dropped on the window
        await until(lambda: len(window.connection_tabs()) == 2, "a tab for the file")
        shown = window.current_tab
        await until(lambda: shown.offline, "the recording shown")
        combo = shown.bar.profile_combo
        assert combo.currentText() == "small.jsonl (read-only)"
        assert [combo.itemText(i) for i in range(combo.count())] == ["small.jsonl (read-only)"]
        assert live.bar.profile_combo.currentText() == "Demo server"

    run(loop, scenario())
