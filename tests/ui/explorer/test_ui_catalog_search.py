"""Typing in the catalog search filters and opens nothing; opening is a click or Enter
(issue 18.12: typing "long" opened a tool whose description says "along")."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)


def test_typing_filters_without_opening_and_enter_opens(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        demo = window.store.find("demo")
        assert demo is not None
        try:
            window.connect_profile(demo)
            await until(
                lambda: current_tab(window).controller.model.tools is not None, "the demo's tools"
            )
            pane = current_tab(window).explorer.panes["tools"]
            opened: list[str] = []
            pane.selected.connect(lambda item: opened.append(item.key))
            assert current_tab(window).explorer.select("tools", "echo")
            opened.clear()
            before = current_tab(window).workspace.current
            for text in ("c", "co", "cou", "count"):  # "echo" is hidden on the way
                pane.search.setText(text)
                await asyncio.sleep(0.01)
            assert opened == [] and current_tab(window).workspace.current is before
            assert pane.proxy.rowCount() == 1
            QTest.keyClick(pane.search, Qt.Key.Key_Return)
            assert opened == ["slow_count"]
            current = current_tab(window).workspace.current
            assert current is not None and current.item.key == "slow_count"
            pane.search.clear()
            assert opened == ["slow_count"]
            # A click on a row opens it, also one made current by the filter.
            echo = pane.proxy.mapFromSource(pane.model.index(pane.model.row_of("echo")))
            pane.tree.clicked.emit(echo)
            assert opened[-1] == "echo"
        finally:
            await current_tab(window).controller.model.shutdown()

    run(loop, scenario())
