"""Journey (issue 31, item 6): Find in the log says how many matches there are and which one
is shown, and never keeps a stale sentence. Connect to the demo, Ctrl+F, type a needle,
Enter and Enter again; a filter that hides the match says so; clearing the filter (and
closing and reopening the bar) shows the match again with its count."""

from __future__ import annotations

import asyncio

import pytest

from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import with_demo
from tests.helpers.journeys import click, click_tab, press, type_into
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)


def test_find_counts_its_matches_and_forgets_the_filter_it_no_longer_has(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def body() -> None:
        panel = current_tab(window).log_panel
        panel.model.flush()
        log = current_tab(window).traffic
        lists = [e.index for e in log.entries if "/list" in e.text().lower()]
        assert len(lists) >= 2

        click_tab(current_tab(window).centre, "Traffic")
        press(panel.table, "Ctrl+F")
        assert panel.search_bar.isVisible()
        type_into(panel.search_edit, "/list")
        press(panel.search_edit, "Return")
        status = panel.search_status.text()
        assert status.startswith(f"match 1 of {len(lists)} · row ")
        assert panel.selected_entry() is not None and panel.selected_entry().index == lists[0]
        press(panel.search_edit, "Return")
        assert panel.search_status.text().startswith(f"match 2 of {len(lists)} · row ")
        assert panel.selected_entry().index == lists[1]  # type: ignore[union-attr]

        # A filter that hides the match: said, with no count that the filter made false.
        type_into(panel.method_edit, "initialize")
        panel.apply_filters()  # (the typed filter is debounced)
        assert panel.search_status.text() == f"#{lists[1]} is hidden by the filter"
        # Cleared: the match shows again, counted; no stale "hidden" sentence.
        panel.method_edit.clear()
        panel.apply_filters()
        assert panel.search_status.text().startswith(f"match 2 of {len(lists)} · row ")
        # Closed and reopened: the bar says what is true now.
        click(panel.search_edit)  # back in the Find field, then Esc
        press(panel.search_edit, "Escape")
        assert not panel.search_bar.isVisible()
        type_into(panel.method_edit, "initialize")
        panel.apply_filters()
        press(panel.table, "Ctrl+F")
        assert panel.search_status.text() == f"#{lists[1]} is hidden by the filter"
        panel.method_edit.clear()
        panel.apply_filters()
        click(panel.search_edit)
        press(panel.search_edit, "Return")  # the next shown match, with the hidden ones said
        assert panel.search_status.text().startswith("match ")
        type_into(panel.method_edit, "tools/list")
        panel.apply_filters()
        click(panel.search_edit)
        press(panel.search_edit, "Return")
        hidden = len(lists) - len([i for i in lists if log.entries[i].method == "tools/list"])
        assert panel.search_status.text().endswith(f"({hidden:,} more hidden by the filter)")

    window.show()
    with_demo(loop, window, body)
