"""Windows are sized and placed within the available screen (issue 18.9), and the replay
window's ignore-paths list is wide enough to read."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QWidget

from inspector.recording.reader import read_session
from inspector.settings.profiles import Profile, StdioSettings
from inspector.ui.recording.replay_window import ReplayWindow
from inspector.ui.widgets.screen_fit import fit_to_screen, screen_of
from tests.ui.recording.test_ui_replay import crafted_session

pytestmark = pytest.mark.timeout(60)


def inside(rect: QRect, area: QRect) -> bool:
    return area.contains(rect.topLeft()) and area.contains(rect.bottomRight())


def test_a_big_window_on_a_small_screen_fits_and_is_on_screen(qapp: QApplication) -> None:
    widget = QWidget()
    screen = screen_of(widget)
    assert screen is not None
    area = screen.availableGeometry()
    given = fit_to_screen(widget, area.width() + 500, area.height() + 300)
    assert given.width() < area.width() and given.height() < area.height()
    assert inside(given, area)
    small = fit_to_screen(widget, 300, 200)  # a small request is kept as asked
    assert (small.width(), small.height()) == (300, 200) and inside(small, area)


def test_replay_window_fits_the_screen_and_its_ignore_list_is_readable(
    qapp: QApplication, tmp_path: Path
) -> None:
    marker = tmp_path / "never-created"
    recorded = read_session(crafted_session(tmp_path, marker))
    long_name = Profile(name="a profile with a long name " * 3, stdio=StdioSettings(command="x"))
    window = ReplayWindow(recorded, [long_name], None)
    window.show()
    try:
        screen = screen_of(window)
        assert screen is not None
        assert inside(window.geometry(), screen.availableGeometry())
        longest = max(window.ignores.item(r).text() for r in range(window.ignores.count()))
        needed = window.ignores.fontMetrics().horizontalAdvance(longest)
        assert window.ignores.width() >= min(needed, 250), (window.ignores.width(), needed)
    finally:
        window.close()
        window.deleteLater()
