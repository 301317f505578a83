"""The traffic view as a user drives it (issue 18.10): Jump to pair through a filter,
Copy confirms, Esc closes the Find bar, "row N of M" stays true while traffic grows, and
Size and Latency are on screen at 1280 px."""

from __future__ import annotations

import json
import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord, kind_of
from inspector.ui.traffic.log_panel import TrafficLogPanel
from inspector.ui.traffic.traffic_model import COL_LATENCY, COL_SIZE, COL_SUMMARY

pytestmark = pytest.mark.timeout(60)


def feed(log: TrafficLog, direction: str, message: dict[str, object], mono: float) -> None:
    raw = json.dumps(message)
    frame = parse_frame(raw)
    log.observe(
        TrafficRecord(direction, kind_of(frame), raw, mono, time.time(), "stdio", frame, len(raw))  # type: ignore[arg-type]
    )


def request(i: int, method: str = "tools/list") -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": i, "method": method}


def answer(i: int) -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": i, "result": {"tools": []}}


def panel_with_pairs(n: int = 3) -> TrafficLogPanel:
    log = TrafficLog()
    for i in range(1, n + 1):
        feed(log, "out", request(i), i)
        feed(log, "in", answer(i), i + 0.5)
    panel = TrafficLogPanel(log)
    panel.resize(1000, 400)
    panel.show()
    panel.model.flush()
    return panel


def test_jump_to_a_pair_the_filter_hides_clears_the_filter_and_says_so(
    qapp: QApplication,
) -> None:
    panel = panel_with_pairs()
    panel.direction_combo.setCurrentIndex(1)  # → sent only
    panel.apply_filters()
    assert panel.select_entry(0)
    panel.detail._jump()
    assert panel.detail.entry is not None and panel.detail.entry.index == 1
    assert panel.direction_combo.currentIndex() == 0
    assert "cleared" in panel.detail.feedback.text()
    panel.deleteLater()


def test_a_message_without_pair_says_so(qapp: QApplication) -> None:
    log = TrafficLog()
    feed(log, "in", {"jsonrpc": "2.0", "method": "notifications/message"}, 0)
    panel = TrafficLogPanel(log)
    panel.model.flush()
    panel.select_entry(0)
    heard: list[str] = []
    panel.detail.notice.connect(heard.append)
    panel.detail._jump()
    assert heard and "has no pair" in heard[0]
    panel.deleteLater()


def test_copy_confirms(qapp: QApplication) -> None:
    panel = panel_with_pairs(1)
    heard: list[str] = []
    panel.detail.notice.connect(heard.append)
    panel.select_entry(0)
    panel.detail.copy_json()
    clip = QGuiApplication.clipboard().text()
    assert json.loads(clip)["method"] == "tools/list"
    assert heard[-1].startswith("Copied #0 as JSON")
    assert panel.detail.feedback.text() == heard[-1]
    panel.detail.copy_cli()  # no server target: it says why nothing was copied
    assert heard[-1].startswith("Not copied as a CLI command")
    panel.deleteLater()


def test_esc_closes_find_and_row_n_of_m_follows_the_traffic(qapp: QApplication) -> None:
    panel = panel_with_pairs(2)
    panel.activateWindow()
    panel.show_search()
    panel.search_edit.setText("tools/list")
    assert panel.find_next()
    assert panel.search_status.text() == "match 1 of 2 · row 1 of 4"
    for i in range(3, 6):
        feed(panel.log, "out", request(i), i)
    panel.model.flush()
    QApplication.processEvents()
    assert panel.search_status.text() == "match 1 of 5 · row 1 of 7"
    panel.direction_combo.setCurrentIndex(2)  # ← received: the found request is hidden
    panel.apply_filters()
    assert "hidden by the filter" in panel.search_status.text()
    QTest.keyClick(panel.search_edit, Qt.Key.Key_Escape)
    assert not panel.search_bar.isVisible()
    panel.deleteLater()


def test_size_and_latency_are_on_screen_and_the_summary_is_last(qapp: QApplication) -> None:
    panel = panel_with_pairs(1)
    panel.resize(860, 400)  # the centre of a 1280 px window beside the explorer
    QApplication.processEvents()
    table = panel.table
    header = table.horizontalHeader()
    assert header.visualIndex(COL_SUMMARY) == header.count() - 1
    visible = table.viewport().width()
    for col in (COL_SIZE, COL_LATENCY):
        right = header.sectionViewportPosition(col) + header.sectionSize(col)
        assert right <= visible, (col, right, visible)
    assert table.horizontalScrollBar().maximum() == 0 or not table.horizontalScrollBar().isVisible()
    panel.deleteLater()


def test_a_big_listing_selected_shows_a_head_and_its_raw_tab_when_clicked(
    qapp: QApplication,
) -> None:
    """Issue 27: a 10,000-tool listing (2 MB on one line) selected in the log took Qt about a
    second to lay out, twice (Pretty's raw head and Raw). Pretty shows a 64 KiB head; the
    Raw tab is filled when a person clicks it."""
    log = TrafficLog()
    tools = [{"name": f"gw__tool_{i}", "description": "x" * 100} for i in range(12_000)]
    feed(log, "in", {"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}}, 0)
    panel = TrafficLogPanel(log)
    panel.resize(1000, 400)
    panel.show()
    panel.model.flush()
    panel.select_entry(0)
    detail = panel.detail
    pretty = detail.pretty.toPlainText()
    assert pretty.startswith("(too big to pretty-print: ") and "the Raw tab has more" in pretty
    assert 64 * 1024 < len(pretty) < 65 * 1024
    assert detail.raw.toPlainText() == ""  # not laid out while nobody looks at it
    bar = detail.tabs.tabBar()
    raw_tab = detail.tabs.indexOf(detail.raw)
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(raw_tab).center())
    raw = detail.raw.toPlainText()
    assert raw.startswith('{"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "gw__tool_0"')
    assert len(raw) == 1024 * 1024 + 2 and raw.endswith("\n…")
    panel.select_entry(0)  # selected again: the Raw tab stays filled while shown
    assert detail.raw.toPlainText() == raw
    panel.deleteLater()
