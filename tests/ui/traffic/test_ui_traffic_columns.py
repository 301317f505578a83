"""The traffic table at the default window size (issue 31, item 3): at 1280×800, with the
explorer and the detail pane as they first are, every column is on screen, no horizontal
scrollbar, Size and Latency whole, and the Summary keeps a readable width."""

from __future__ import annotations

import asyncio

from PySide6.QtGui import QFontDatabase, QFontMetrics
from PySide6.QtWidgets import QApplication

from inspector.ui.shell.main_window import MainWindow
from inspector.ui.traffic.traffic_model import COL_LATENCY, COL_SIZE, COL_SUMMARY
from tests.helpers.journeys import click_tab


def test_every_column_is_on_screen_at_1280_by_800(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    assert (window.width(), window.height()) == (1280, 800)
    tab = window.current_tab
    click_tab(tab.centre, "Traffic")
    QApplication.processEvents()
    table = tab.log_panel.table
    header = table.horizontalHeader()
    visible = table.viewport().width()
    for col in range(header.count()):
        right = header.sectionViewportPosition(col) + header.sectionSize(col)
        assert right <= visible, (header.model().headerData(col, header.orientation()), right)
    assert not table.horizontalScrollBar().isVisible()
    mono = QFontMetrics(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    assert header.sectionSize(COL_SIZE) >= mono.horizontalAdvance("999,999") + 8
    assert header.sectionSize(COL_LATENCY) >= mono.horizontalAdvance("9999.9 ms") + 8
    assert header.sectionSize(COL_SUMMARY) >= 130, header.sectionSize(COL_SUMMARY)
    # The detail pane keeps its buttons whole.
    detail = tab.log_panel.detail
    assert detail.width() >= detail.minimumSizeHint().width()
