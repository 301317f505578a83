"""Reconnect keeps your place (issue 18.7): the selected item, its form and its results
stay when the item still exists after the reconnect."""

from __future__ import annotations

import asyncio

import pytest

from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import run, until
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)


def test_reconnect_keeps_the_selected_tool_its_form_and_results(
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
            assert current_tab(window).explorer.select("tools", "add")
            page = current_tab(window).workspace.current
            assert page is not None and isinstance(page.action, ToolCallView)
            view = page.action
            view.form.set_values({"a": 2, "b": 40})
            view.run()
            await until(lambda: view.cards and not view.cards[0].record.running, "the sum")
            view.form.set_values({"a": 5, "b": 6})  # typed after the call
            first_connection = current_tab(window).controller.model.session
            window.reconnect()
            await until(
                lambda: (
                    current_tab(window).controller.model.state is ConnState.CONNECTED
                    and current_tab(window).controller.model.session is not first_connection
                    and current_tab(window).controller.model.tools is not None
                ),
                "the reconnect",
            )
            pane = current_tab(window).explorer.panes["tools"]

            def on_add() -> bool:
                current = pane.current_item()
                return current is not None and current.key == "add"

            await until(on_add, "the same tool selected again")
            assert current_tab(window).explorer.tabs.currentWidget() is pane
            again = current_tab(window).workspace.current
            assert again is page  # the same page: its form and its results
            assert current_tab(window).workspace.stack.currentWidget() is page
            assert view.form.values() == {"a": 5, "b": 6}
            assert len(view.cards) == 1
        finally:
            await current_tab(window).controller.model.shutdown()

    run(loop, scenario())
