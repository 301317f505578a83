"""Reconnect keeps your place (issue 18.7): the selected item, its form and its results
stay when the item still exists after the reconnect."""

from __future__ import annotations

import asyncio

import pytest

from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.window.main_window import MainWindow
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import run, until

pytestmark = pytest.mark.timeout(90)


def test_reconnect_keeps_the_selected_tool_its_form_and_results(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        demo = window.store.find("demo")
        assert demo is not None
        try:
            window.connect_profile(demo)
            await until(lambda: window.controller.tools is not None, "the demo's tools")
            assert window.explorer.select("tools", "add")
            page = window.workspace.current
            assert page is not None and isinstance(page.action, ToolCallView)
            view = page.action
            view.form.set_values({"a": 2, "b": 40})
            view.run()
            await until(lambda: view.cards and not view.cards[0].record.running, "the sum")
            view.form.set_values({"a": 5, "b": 6})  # typed after the call
            first_connection = window.controller.session
            window.reconnect()
            await until(
                lambda: (
                    window.controller.state is ConnState.CONNECTED
                    and window.controller.session is not first_connection
                    and window.controller.tools is not None
                ),
                "the reconnect",
            )
            pane = window.explorer.panes["tools"]

            def on_add() -> bool:
                current = pane.current_item()
                return current is not None and current.key == "add"

            await until(on_add, "the same tool selected again")
            assert window.explorer.tabs.currentWidget() is pane
            again = window.workspace.current
            assert again is page  # the same page: its form and its results
            assert window.workspace.stack.currentWidget() is page
            assert view.form.values() == {"a": 5, "b": 6}
            assert len(view.cards) == 1
        finally:
            await window.controller.shutdown()

    run(loop, scenario())
