"""TrafficLogModel adapts the Qt-free TrafficLog: batched inserts, filters, pairing colors,
flagged invalid rows. No server and no event loop: flushes are called by hand."""

from __future__ import annotations

import json
import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord, kind_of
from inspector.transports.base import HttpExchange
from inspector.ui.traffic.log_panel import TrafficLogPanel
from inspector.ui.traffic.traffic_model import (
    COL_DIR,
    COL_ID,
    COL_KIND,
    COL_LATENCY,
    COL_METHOD,
    COL_SUMMARY,
    TrafficLogModel,
)
from inspector.ui.widgets.theme import colors

pytestmark = pytest.mark.timeout(60)


def feed(log: TrafficLog, direction: str, message: object, mono: float = 0.0) -> None:
    raw = message if isinstance(message, str | bytes) else json.dumps(message)
    frame = parse_frame(raw)
    log.observe(
        TrafficRecord(direction, kind_of(frame), raw, mono, time.time(), "stdio", frame)  # type: ignore[arg-type]
    )


def log_message(i: int) -> dict[str, object]:
    return {
        "jsonrpc": "2.0",
        "method": "notifications/message",
        "params": {"level": "info", "data": f"line {i}"},
    }


def test_rows_arrive_in_batches(qapp: QApplication) -> None:
    log = TrafficLog()
    model = TrafficLogModel(log)
    batches: list[int] = []
    inserts: list[tuple[int, int]] = []
    model.batch_inserted.connect(batches.append)
    model.rowsInserted.connect(lambda _p, first, last: inserts.append((first, last)))
    for i in range(5000):
        feed(log, "in", log_message(i))
    assert model.rowCount() == 0 and model.pending == 5000  # nothing until the timer fires
    assert model.flush() == 5000
    assert batches == [5000] and inserts == [(0, 4999)]
    feed(log, "in", log_message(5000))
    model.flush()
    assert inserts[-1] == (5000, 5000)
    assert model.index(3, COL_SUMMARY).data() == "[info] line 3"
    assert model.index(3, COL_DIR).data() == "←"
    log.clear()
    assert model.rowCount() == 0


def test_pairing_latency_and_highlight(qapp: QApplication) -> None:
    log = TrafficLog()
    model = TrafficLogModel(log)
    feed(
        log,
        "out",
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 1}},
        },
        1.0,
    )
    feed(log, "in", {"jsonrpc": "2.0", "id": 7, "result": {"content": []}}, 1.0125)
    model.flush()
    assert model.index(0, COL_SUMMARY).data() == 'add {"a":1}'
    assert model.index(1, COL_METHOD).data() == "tools/call"  # the response knows its method
    assert model.index(1, COL_ID).data() == "7"
    assert model.index(1, COL_LATENCY).data() == "12.5 ms"
    assert model.index(0, COL_LATENCY).data() == ""
    model.set_highlight({1})
    assert model.index(1, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert model.index(0, 0).data(Qt.ItemDataRole.BackgroundRole) is None


def test_invalid_and_flagged_rows(qapp: QApplication) -> None:
    log = TrafficLog()
    model = TrafficLogModel(log)
    feed(log, "in", b"\xff\xfe garbage")
    feed(log, "in", "not json at all")
    model.flush()
    assert model.index(0, COL_KIND).data() == "⚠ invalid"
    assert model.index(1, COL_KIND).data() == "⚠ invalid"
    assert model.index(1, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert model.index(1, COL_KIND).data(Qt.ItemDataRole.ForegroundRole) is not None


def test_filters_apply_to_new_rows_too(qapp: QApplication) -> None:
    log = TrafficLog()
    model = TrafficLogModel(log)
    for i in range(10):
        feed(log, "in", log_message(i))
        feed(log, "out", {"jsonrpc": "2.0", "id": i, "method": "ping"})
    model.flush()
    model.set_filter(TrafficFilter(hide_noise=True))
    assert model.rowCount() == 10
    feed(log, "out", {"jsonrpc": "2.0", "id": 99, "method": "ping"})
    feed(log, "in", log_message(99))
    model.flush()
    assert model.rowCount() == 11
    assert model.row_of(20) is None and model.row_of(21) == 10
    model.set_filter(TrafficFilter())
    assert model.rowCount() == 22 and not model.filtered


def test_panel_autoscroll_pause_and_clear(qapp: QApplication) -> None:
    log = TrafficLog()
    panel = TrafficLogPanel(log)
    panel.resize(900, 400)
    panel.show()
    for i in range(300):
        feed(log, "in", log_message(i))
    panel.model.flush()
    bar = panel.table.verticalScrollBar()
    assert bar.value() == bar.maximum() > 0
    panel.set_paused(True)
    bar.setValue(0)
    for i in range(50):
        feed(log, "in", log_message(i))
    panel.model.flush()
    assert bar.value() == 0  # paused: the view stays where the user is
    assert panel.count_label.text() == "350 messages"
    panel.clear()
    assert panel.model.rowCount() == 0 and panel.count_label.text() == "0 messages"
    panel.close()


def test_theme_switch_recolors_rows(qapp: QApplication) -> None:
    from inspector.ui.widgets.theme import apply_theme, is_dark

    log = TrafficLog()
    model = TrafficLogModel(log)
    feed(log, "in", "garbage")
    model.flush()
    apply_theme(qapp, "light")
    model.refresh_colors()
    light = model.index(0, 0).data(Qt.ItemDataRole.BackgroundRole).color().name()
    try:
        apply_theme(qapp, "dark")
        assert is_dark()
        model.refresh_colors()
        dark = model.index(0, 0).data(Qt.ItemDataRole.BackgroundRole).color().name()
        assert light != dark
    finally:
        apply_theme(qapp, "light")


def test_normal_http_and_sse_rows_are_not_flagged_failures_are(qapp: QApplication) -> None:
    """Issue 18.8: "SSE stream" and "GET stream open" are normal traffic; red and ⚠ are
    for what went wrong."""
    log = TrafficLog()

    def exchange(status: int | None, note: str | None, problem: bool | None = None) -> None:
        http = HttpExchange("GET", "http://h/mcp", status, note=note, problem=problem)
        log.observe(
            TrafficRecord(
                "", "http", f"GET → {status}", 0.0, time.time(), "http", http=http, note=note
            )
        )

    exchange(200, "SSE stream")
    exchange(200, "GET stream open")
    exchange(405, "the server offers no GET stream (405)", problem=False)
    exchange(202, "202 Accepted: no answer will come")
    exchange(500, "HTTP 500 Internal Server Error")
    exchange(None, "connection refused")
    exchange(200, "GET stream ended (broke); reconnecting", problem=True)
    model = TrafficLogModel(log)
    model.flush()
    error = QColor(colors().error)
    red = []
    for row in range(model.rowCount()):
        brush = model.index(row, COL_KIND).data(Qt.ItemDataRole.ForegroundRole)
        label = model.index(row, COL_KIND).data()
        flagged = brush is not None and brush.color() == error
        assert flagged == label.startswith("⚠"), (row, label)
        red.append(flagged)
    assert red == [False, False, False, False, True, True, True]
