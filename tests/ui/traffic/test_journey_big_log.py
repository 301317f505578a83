"""Journey (issue 27, "filters and find answer within 200 ms"): over a big log, a text filter
and Find answer at once and finish a slice per event-loop turn. The filter's first rows
show with "filtering N%", then the whole count; the selected message stays selected once
the filter reaches it; Find jumps to the nearest match before it has counted them, says
"counting matches", then "match k of N".

The thresholds are made small so a log of 120 messages counts as big (a million-message
recording is the bench's: bench/open_session.py)."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from tests.helpers.journeys import press, type_into
from tests.ui.traffic.test_ui_traffic_view import panel_with_pairs

pytestmark = pytest.mark.timeout(60)


def test_a_big_log_filters_and_finds_a_slice_at_a_time(qtbot: QtBot) -> None:
    panel = panel_with_pairs(60)  # ids 1..60, a request and its answer each: 120 messages
    qtbot.addWidget(panel)
    panel.model.progressive_from = 20
    panel.model.slice_items = 16
    panel.activateWindow()

    # The person selects a late message, then filters on a word all requests hold.
    assert panel.select_entry(100)  # the request with id 51
    type_into(panel.text_edit, "tools/list")
    panel.apply_filters()  # (the typed filter is debounced)
    assert panel.model.catching_up  # the first slices' requests show at once, the rest follow
    rows, considered = panel.model.rowCount(), panel.model.considered
    assert 0 < rows < 60 and considered < 120
    done = considered * 100 // 120
    assert panel.count_label.text() == f"{rows} of 120 messages · filtering {done}%"
    qtbot.waitUntil(lambda: panel.count_label.text() == "60 of 120 messages", timeout=20_000)
    selected = panel.selected_entry()
    assert selected is not None and selected.index == 100  # selected again once reached
    # What needs every shown row at once (Export Shown Rows) completes the filter first.
    type_into(panel.text_edit, '"result"')
    panel.apply_filters()
    assert panel.model.catching_up
    panel.model.complete()
    assert not panel.model.catching_up and panel.model.rowCount() == 60
    assert panel.count_label.text() == "60 of 120 messages"

    # Find, with the filter cleared: the nearest match first, then the count.
    panel.text_edit.clear()
    panel.apply_filters()
    qtbot.waitUntil(lambda: not panel.model.catching_up, timeout=20_000)
    panel.show_search()
    type_into(panel.search_edit, '"id": 4')  # ids 4 and 40..49, each asked and answered
    press(panel.search_edit, "Return")
    selected = panel.selected_entry()
    # None after #100 (id 51): it wraps to the first, id 4's request (#6).
    assert selected is not None and selected.index == 6
    assert panel.search_status.text().startswith("row 7 of 120 · counting matches ")
    qtbot.waitUntil(
        lambda: panel.search_status.text() == "match 1 of 22 · row 7 of 120", timeout=20_000
    )
    press(panel.search_edit, "Return")
    assert panel.search_status.text() == "match 2 of 22 · row 8 of 120"
    press(panel.search_edit, "Shift+Return")
    assert panel.search_status.text() == "match 1 of 22 · row 7 of 120"
