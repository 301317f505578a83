"""Every piece of "what is connected" resets when a connection ends or fails (issue 18.2):
the bar's protocol, era and server name, the window title and the server panel."""

from __future__ import annotations

import asyncio

import pytest

from inspector.settings.profiles import Profile, StdioSettings
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import MISBEHAVING, connected, python_profile, run, until
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)


def assert_nothing_connected(window: MainWindow) -> None:
    bar = current_tab(window).bar
    assert bar.version_label.text() == ""
    assert bar.era_label.text() == ""
    assert "demo" not in bar.server_label.text().lower()
    assert "demo" not in window.windowTitle().lower()


def test_a_failed_connect_after_a_session_shows_nothing_of_the_old_one(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    missing = Profile(name="missing", stdio=StdioSettings(command="/nonexistent/mcp-server"))

    async def scenario() -> None:
        demo = window.store.find("demo")
        assert demo is not None
        try:
            window.connect_profile(demo)
            await until(
                lambda: current_tab(window).controller.model.tools is not None, "the demo's tools"
            )
            assert current_tab(window).bar.era_label.text() == "legacy era"
            assert "demo" in window.windowTitle().lower()
            window.connect_profile(missing)
            await until(
                lambda: current_tab(window).controller.model.state is ConnState.FAILED,
                "the failure",
            )
            assert_nothing_connected(window)
            assert current_tab(window).bar.state_label.text() == "Could not connect"
            assert current_tab(window).server_panel.title.text() == "Could not connect"
            assert current_tab(window).server_panel.protocol.text() == "–"
        finally:
            await current_tab(window).controller.model.shutdown()

    run(loop, scenario())


def test_disconnect_and_a_crash_reset_the_title_and_the_bar(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    crash = python_profile("crashy", MISBEHAVING, "--mode", "crash")

    async def scenario() -> None:
        demo = window.store.find("demo")
        assert demo is not None
        try:
            window.connect_profile(demo)
            await until(
                lambda: current_tab(window).controller.model.tools is not None, "the demo's tools"
            )
            window.disconnect_server()
            await until(
                lambda: current_tab(window).controller.model.state is ConnState.DISCONNECTED,
                "disconnect",
            )
            assert_nothing_connected(window)
            await connected(window, crash, listed=("tools",))
            assert current_tab(window).bar.era_label.text() == "legacy era"
            assert window.windowTitle() == "crashy" or "MCP" not in window.windowTitle()
            session = current_tab(window).controller.model.session
            assert session is not None
            session.start_request("tools/call", {"name": "boom", "arguments": {}})
            await until(
                lambda: current_tab(window).controller.model.state is ConnState.LOST, "the crash"
            )
            assert current_tab(window).bar.version_label.text() == ""
            assert window.windowTitle() == "MCP Inspector"
            assert current_tab(window).server_panel.title.text() == "Server exited"
        finally:
            await current_tab(window).controller.model.shutdown()

    run(loop, scenario())
