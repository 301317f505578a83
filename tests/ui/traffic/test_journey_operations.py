"""Journey (issue 27): a modern-era tool call that needs the user is one operation of two
rounds. Connect to the demo in the modern era, run ask_user from its form; the server
answers input_required and the elicitation dialog opens; the person fills it in and
Accepts; the retry gets the final answer. The log marks both rounds and the final answer
says the whole duration, the server's time and the user's; the detail pane says it too;
the Statistics count one call of two requests; the recording, opened, groups the rounds
from the file alone, in its log and its timeline."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from inspector.ui.recording.offline_view import OfflineView
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.traffic.log_panel import TrafficLogPanel
from inspector.ui.traffic.traffic_model import COL_SUMMARY
from tests.helpers.gui import run, until
from tests.helpers.journeys import click, click_tab, row_texts
from tests.helpers.mrtr_journey import ask_the_user_in_the_modern_era

pytestmark = pytest.mark.timeout(120)

_NUMBER = r"(\d+(?:\.\d+)?) (ms|s)"
TIMES = re.compile(f"{_NUMBER} in all: server {_NUMBER}, user {_NUMBER}")


def _seconds(match: re.Match[str], at: int) -> float:
    value = float(match.group(at))
    return value / 1000 if match.group(at + 1) == "ms" else value


def summaries(panel: TrafficLogPanel) -> list[str]:
    panel.model.flush()
    return [row[COL_SUMMARY] for row in row_texts(panel.table)]


def click_summary(panel: TrafficLogPanel, prefix: str, having: str) -> None:
    """Click the log row whose summary starts with `prefix` and says `having`."""
    model = panel.model
    for row in range(model.rowCount()):
        cell = model.index(row, COL_SUMMARY)
        text = str(cell.data())
        if text.startswith(prefix) and having in text:
            panel.table.scrollTo(cell)
            rect = panel.table.visualRect(cell)
            QTest.mouseClick(
                panel.table.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.center())
            )
            return
    raise AssertionError(f"no row starts with {prefix!r}")


def test_an_input_required_call_is_one_operation_with_the_users_time_apart(
    recording_window: MainWindow, loop: asyncio.AbstractEventLoop, data_dir: Path
) -> None:
    window = recording_window

    async def scenario() -> Path:
        tab = await ask_the_user_in_the_modern_era(window)

        # The log: two rounds; the final answer says the operation's times.
        panel = tab.log_panel
        await until(lambda: any("round 2/2 ·" in s for s in summaries(panel)), "the mark")
        marked = [s for s in summaries(panel) if s.startswith("⟳ round")]
        assert [s.split(" · ")[0] for s in marked] == ["⟳ round 1/2"] * 2 + ["⟳ round 2/2"] * 2
        found = TIMES.search(marked[-1])
        assert found is not None, marked[-1]
        total, server, user = _seconds(found, 1), _seconds(found, 3), _seconds(found, 5)
        assert user > 0 and server > 0
        assert total == pytest.approx(server + user, abs=0.002)

        # The detail pane of the final answer says it too.
        click_summary(panel, "⟳ round 2/2 · ", " in all: ")
        assert panel.detail.entry is not None and panel.detail.entry.kind == "response"
        header = panel.detail.header.text()
        assert "operation tools/call ask_user, round 2 of 2:" in header
        assert found.group(0) in header

        # Statistics: one call (its whole duration), two requests on the wire.
        click_tab(tab.bottom, "Statistics")
        tab.stats_panel.refresh_if_changed()
        row = tab.stats_panel.row_for("tools/call")
        assert row is not None
        assert (row[1], row[-1]) == ("1", "2")

        # Disconnect: the recording ends.
        click(tab.bar.disconnect_button)
        await until(lambda: not tab.session_files.recorder.recording, "the recording to end")
        path = tab.session_files.recorder.last_path
        assert path is not None
        return path

    path = run(loop, scenario(), timeout=90)

    async def reopen() -> OfflineView:
        await window.current_tab.session_files.open_session(path)
        view = window.current_tab.session_files.view
        assert isinstance(view, OfflineView)
        return view

    view = run(loop, reopen())
    # Offline, the rounds are grouped from the file alone: the same marks and times.
    marked = [s for s in summaries(view.log_panel) if s.startswith("⟳ round")]
    assert [s.split(" · ")[0] for s in marked] == ["⟳ round 1/2"] * 2 + ["⟳ round 2/2"] * 2
    assert TIMES.search(marked[-1]) is not None
    click_tab(view.bottom, "Timeline")
    table = view.timeline_panel.operations
    assert table is not None and table.isVisible()
    ((label, rounds, total, server, user),) = table.row_texts()
    assert (label, rounds) == ("tools/call ask_user", "2")
    assert f"{total} in all: server {server}, user {user}" in marked[-1]
    calls = view.timeline_panel.row_for("tools/call")
    assert calls is not None and (calls[1], calls[-1]) == ("1", "2")
