"""The Replay window closes as a window does (issue 31, item 7): a Close button, and Esc."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtWidgets import QPushButton

from inspector.recording.reader import read_session
from inspector.ui.recording.replay_window import ReplayWindow
from tests.helpers.journeys import click, press
from tests.helpers.small_session import write_small_session


def test_the_replay_window_has_a_close_button_and_esc_closes_it(
    loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    recorded = read_session(write_small_session(tmp_path / "small.jsonl"))
    replay = ReplayWindow(recorded, [], None)
    replay.show()
    buttons = {b.text(): b for b in replay.findChildren(QPushButton) if b.isVisible()}
    assert "Close" in buttons, sorted(buttons)
    click(buttons["Close"])
    assert not replay.isVisible()

    again = ReplayWindow(recorded, [], None)
    again.show()
    press(again.results, "Escape")  # the focus anywhere in the window
    assert not again.isVisible()
