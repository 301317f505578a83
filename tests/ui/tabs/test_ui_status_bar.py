"""The tab's status bar when a server dies with a long stderr (issue 31, item 11): the
message says "last stderr" once and ends in "…" before "⚠ N in Errors" (the whole text in
its tooltip), and "● REC" keeps a margin from the window's edge."""

from __future__ import annotations

import asyncio

import pytest

from inspector.core.connection_state import ConnState
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.asks import call_tool
from tests.helpers.gui import MISBEHAVING, python_profile, run, until

pytestmark = pytest.mark.timeout(60)


def test_a_long_status_message_stops_before_the_errors_count_and_rec_is_whole(
    recording_window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    window = recording_window
    tab = window.current_tab
    status = tab.status
    rec = tab.session_files.rec_label

    async def scenario() -> None:
        tab.connect_profile(python_profile("crashy", MISBEHAVING, "--mode", "crash"))
        c = tab.controller.model
        await until(lambda: c.state is ConnState.CONNECTED, "the server to connect")
        await until(lambda: rec.text() == "● REC", "the recording indicator")
        assert rec.x() + rec.width() <= status.width() - 6, (rec.geometry(), status.width())
        assert c.session is not None
        call_tool(c.session, "boom")
        await until(lambda: c.state is ConnState.LOST, "the crash")
        await until(lambda: "went away" in status.currentMessage(), "the status message")
        assert status.currentMessage().count("last stderr") <= 1, status.currentMessage()
        await until(lambda: tab.errors_label.text().startswith("⚠"), "the errors count")

    run(loop, scenario())
    errors = tab.errors_label

    def ends_before_the_errors_count() -> None:
        shown = status.shown_message()
        width = status.fontMetrics().horizontalAdvance(shown)
        assert 6 + width < errors.x() - 8, (shown, width, errors.x())

    ends_before_the_errors_count()
    # Any feature's message, longer than the room (a path, a server's words), ends in "…"
    # before the count, whole in the tooltip; a narrower window cuts it again.
    words = "The collection run stopped: " + "a very long reason " * 20 + "(the end)"
    status.showMessage(words, 8000)
    assert status.shown_message().endswith("…")
    assert status.currentMessage() == words
    assert "(the end)" in status.toolTip()
    ends_before_the_errors_count()
    window.resize(1000, 800)

    async def narrower() -> None:
        await until(lambda: status.width() < 1280, "a narrower window")
        await asyncio.sleep(0)  # the message is cut again once the bar is laid out

    run(loop, narrower())
    ends_before_the_errors_count()
