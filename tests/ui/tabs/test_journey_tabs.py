"""Journey (issue 26): two servers in two tabs, as a person opens them. Connect the demo
server from the bar, Ctrl+T ▸ saved profile "Everything" ▸ Open tab, switch between the
tabs by clicking them, close one with its ✕, open it again with Ctrl+T (the dialog offers
the last one used), then quit and reopen both from the bar the next window offers. Every
check is on what the window shows: tab titles, state labels, the explorer's counts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtWidgets import QTabBar

from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import close_window, run, until, window_for
from tests.helpers.journeys import (
    DEMO_TITLE,
    EVERYTHING_TITLE,
    click,
    click_tab,
    everything_profile,
    menu_action,
    open_tab_with,
    shows_connected,
    tab_titles,
)

pytestmark = [pytest.mark.timeout(120), pytest.mark.peers]


def test_two_servers_in_tabs_switch_close_and_reopen(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    everything_command: list[str],
    tmp_path: Path,
) -> None:
    window.store.put(everything_profile(everything_command, tmp_path))

    async def scenario() -> None:
        demo_tab = window.current_tab
        assert demo_tab.bar.profile_combo.currentText() == "Demo server"
        assert window.tabs.tabBar().isHidden()  # one tab: no strip yet
        click(demo_tab.bar.connect_button)
        await until(lambda: shows_connected(demo_tab, 11), "the demo's 11 tools")
        assert window.windowTitle() == DEMO_TITLE

        everything_tab = await open_tab_with(window, "Everything")
        await until(lambda: shows_connected(everything_tab, 17), "everything's 17 tools")
        bar: QTabBar = window.tabs.tabBar()
        assert bar.isVisible()
        assert tab_titles(window.tabs) == [DEMO_TITLE, EVERYTHING_TITLE]
        assert bar.currentIndex() == 1
        assert window.current_tab.server_panel is everything_tab.server_panel

        # Switch by clicking the first tab: its own server, its own log.
        click_tab(window.tabs, DEMO_TITLE)
        assert bar.currentIndex() == 0
        assert window.windowTitle() == DEMO_TITLE
        assert window.current_tab.explorer.panes["tools"].status.text() == "11 tools"
        assert "State: connected" in bar.tabToolTip(1)

        # Close the everything tab with its ✕: the strip goes, the demo stays connected.
        click_tab(window.tabs, EVERYTHING_TITLE)
        close_button = bar.tabButton(1, QTabBar.ButtonPosition.RightSide)
        assert close_button is not None
        click(close_button)  # type: ignore[arg-type]
        await until(lambda: tab_titles(window.tabs) == [DEMO_TITLE], "the tab to close")
        await until(
            lambda: everything_tab.bar.state_label.text() == "Disconnected",
            "its server to be disconnected",
        )
        assert bar.isHidden()
        assert demo_tab.bar.state_label.text() == "Connected"

        # Reopen it: Ctrl+T offers the profile used last.
        again = await open_tab_with(window, "Everything")
        await until(lambda: shows_connected(again, 17), "everything again")
        assert tab_titles(window.tabs) == [DEMO_TITLE, EVERYTHING_TITLE]
        # The File menu's Recent lists both profiles, the last one first.
        recent = menu_action(window, "File", "Recent").menu()
        assert recent is not None
        assert [a.text() for a in recent.actions()][:2] == ["Everything", "Demo server"]

    run(loop, scenario(), timeout=90)

    # Quit (the window remembers its tabs), start again: the bar offers both tabs.
    menu_action(window, "File", "Quit").trigger()
    run(loop, window.shutdown())
    second = window_for(window.store, tmp_path)
    second.show()
    try:
        second.offer_reopen()  # as `gui` does at start when no server is named

        async def reopen() -> None:
            bar = second.reopen_bar
            assert bar.isVisible()
            assert bar.label.text() == "Last time 2 tabs were open: Demo server, Everything."
            click(bar.reopen_button)
            await until(lambda: len(tab_titles(second.tabs)) == 2, "two tabs again")
            left, right = second.connection_tabs()
            await until(lambda: shows_connected(left, 11), "the demo reopened")
            await until(lambda: shows_connected(right, 17), "everything reopened")
            assert tab_titles(second.tabs) == [DEMO_TITLE, EVERYTHING_TITLE]
            assert not bar.isVisible()

        run(loop, reopen(), timeout=60)
    finally:
        run(loop, close_window(second))
