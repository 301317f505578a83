"""Tab and window titles (issue 31, items 10 and 21): two tabs of one server, one over
stdio and one over HTTP, read apart by their transport; a tab the user renamed gives the
window its title. Driven as a person does: the bar's Connect, Ctrl+T ▸ URL, a double
click on the tab to rename it."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QInputDialog, QLineEdit

from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.new_tab_dialog import NewTabDialog
from tests.helpers.demo_http import demo_http_server
from tests.helpers.gui import run, then_shutdown, until
from tests.helpers.journeys import (
    DEMO_TITLE,
    click,
    click_tab,
    press,
    shows_connected,
    tab_titles,
    type_into,
    visible_window,
)

pytestmark = [pytest.mark.timeout(90)]


def test_two_tabs_of_one_server_read_apart_and_a_renamed_tab_titles_the_window(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario(url: str) -> None:
        stdio_tab = window.current_tab
        click(stdio_tab.bar.connect_button)  # the demo server, over stdio
        await until(lambda: shows_connected(stdio_tab, 11), "the demo over stdio")
        press(window, "Ctrl+T")
        await until(lambda: visible_window(NewTabDialog) is not None, "the New tab dialog")
        dialog = visible_window(NewTabDialog)
        assert isinstance(dialog, NewTabDialog)
        type_into(dialog.url_edit, url)
        press(dialog, "Return")
        http_tab = window.current_tab
        await until(lambda: shows_connected(http_tab, 11), "the demo over HTTP")
        await until(
            lambda: tab_titles(window.tabs) == [f"{DEMO_TITLE} · stdio", f"{DEMO_TITLE} · HTTP"],
            f"the two tabs told apart (now {tab_titles(window.tabs)})",
        )
        assert window.windowTitle() == f"{DEMO_TITLE} · HTTP"

        # Rename the HTTP tab: a double click on it, a name, Return.
        bar = window.tabs.tabBar()
        QTest.mouseDClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
        await until(lambda: visible_window(QInputDialog) is not None, "the Rename dialog")
        rename = visible_window(QInputDialog)
        assert isinstance(rename, QInputDialog)
        edit = rename.findChild(QLineEdit)
        assert edit is not None
        type_into(edit, "staging")
        press(rename, "Return")
        await until(lambda: tab_titles(window.tabs) == [DEMO_TITLE, "staging"], "the new name")
        assert window.windowTitle() == "staging"
        click_tab(window.tabs, DEMO_TITLE)
        assert window.windowTitle() == DEMO_TITLE

    with demo_http_server() as url:  # closed while its server still runs (never after)
        run(loop, then_shutdown(window, scenario(url)), timeout=60)
