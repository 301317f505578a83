"""A click on the item already selected in the explorer opens it again (issue 31, item
5): after a resource was shown, or the Traffic tab brought forward, clicking the selected
tool shows that tool's page in the Workspace."""

from __future__ import annotations

import asyncio

import pytest

from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.journeys import click, click_row, click_tab, shows_connected

pytestmark = pytest.mark.timeout(60)


def test_clicking_the_selected_item_opens_it_again(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    tab = window.current_tab

    def on_screen() -> str:
        page = tab.workspace.current
        visible = page is not None and tab.workspace.isVisible()
        return page.title.text() if visible and page is not None else ""

    async def scenario() -> None:
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 11), "the demo server")
        tools = tab.explorer.panes["tools"].tree
        click_row(tools, "Echo")
        assert on_screen() == "Echo"
        click_tab(tab.explorer.tabs, "Resources")
        resources = tab.explorer.panes["resources"].tree
        await until(lambda: resources.model().rowCount() > 0, "the resources")
        first = resources.model().index(0, 0).data()
        click_row(resources, str(first).split("\n", 1)[0])
        assert on_screen() not in ("", "Echo")
        click_tab(tab.explorer.tabs, "Tools")
        click_row(tools, "Echo")  # still the selected row there
        assert on_screen() == "Echo"
        click_tab(tab.centre, "Traffic")
        click_row(tools, "Echo")
        assert on_screen() == "Echo"

    run(loop, scenario())
