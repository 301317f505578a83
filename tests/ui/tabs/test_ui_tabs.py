"""Connection tabs (issue 11): several servers in one window, each tab with its own
connection, panels and dialogs; closing a tab disconnects its server; an ask from a
background tab names its tab and marks it; a crash in one tab leaves the other working;
the window remembers its tabs and offers them at the next start."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from inspector.core.connection_state import ConnState
from inspector.settings.profiles import Profile, ProfileStore
from inspector.storage.secrets import SecretStore
from inspector.ui.asks.sampling_dialog import SamplingDialog
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.connection_tab import ConnectionTab, TabState
from inspector.ui.tabs.new_tab_dialog import NewTabDialog
from tests.helpers.asks import call_tool, result_of, text_of
from tests.helpers.gui import (
    MISBEHAVING,
    close_window,
    connected,
    python_profile,
    run,
    until,
    window_for,
)
from tests.helpers.peers import PY, REPO
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(120)


def demo(name: str = "Demo") -> Profile:
    return python_profile(name, "-m", "inspector.demo")


async def tab_connected(tab: ConnectionTab, profile: Profile) -> None:
    tab.connect_profile(profile)
    c = tab.controller.model
    await until(lambda: c.state is ConnState.CONNECTED, f"{profile.name} ({c.detail})", 30)
    await until(lambda: c.tools is not None, f"{profile.name}'s tools", 30)


def test_tabs_open_close_each_with_its_own_connection(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    first = window.current_tab
    assert window.connection_tabs() == [first] and window.tabs.tabBar().isHidden()

    async def scenario() -> None:
        await connected(window, demo("Left"), listed=("tools",))
        second = window.new_tab()
        assert window.current_tab is second and window.tabs.count() == 2
        assert not window.tabs.tabBar().isHidden()  # two tabs: the strip shows
        # The window's parts are the current tab's.
        assert (
            current_tab(window).controller is second.controller
            and current_tab(window).log_panel is second.log_panel
        )
        assert current_tab(window).connection is not first.connection
        assert second.connection in window.app.connections
        assert current_tab(window).controller.model.state is ConnState.DISCONNECTED
        assert not window.disconnect_action.isEnabled()  # the menus follow the tab
        await tab_connected(second, demo("Right"))
        assert window.disconnect_action.isEnabled()
        assert second.tab_state() == TabState.CONNECTED
        assert window.tabs.tabBar().tabData(window.tabs.indexOf(second)) == "connected"
        assert "Right" in window.tabs.tabToolTip(1) or "demo" in window.tabs.tabToolTip(1)
        # Each tab has its own traffic: a ping in one is not in the other.
        before = len(first.traffic.entries)
        session = second.controller.model.session
        assert session is not None
        await session.start_request("ping", {}).result()
        assert len(first.traffic.entries) == before
        # Rename: the tab's name is the user's (in the title and the compare menu).
        second.rename("deployed")
        assert window.tabs.tabText(1) == "deployed"
        menu = window.strip.context_menu_for(first)
        compare = next(a.menu() for a in menu.actions() if a.menu() is not None)
        assert [a.text() for a in compare.actions()] == ["deployed"]
        seen: list[tuple[ConnectionTab, ConnectionTab]] = []
        window.compare_requested.connect(lambda left, right: seen.append((left, right)))
        compare.actions()[0].trigger()
        assert seen == [(first, second)]
        # The window opens the compare view over the two tabs' connections.
        from inspector.ui.compare.compare_window import CompareWindow

        compares = [w for w in window.findChildren(CompareWindow)]
        assert len(compares) == 1 and compares[0].isVisible()
        compares[0].close()
        assert second.model is second.connection and second.display_title() == "deployed"
        # Switching tabs points the menus and the title at the current one.
        window.tabs.setCurrentWidget(first)
        assert (
            current_tab(window).controller is first.controller
            and window.windowTitle() == first.window_title()
        )
        # Close the second tab: its server is disconnected and its connection let go.
        recording = second.connection.recording
        assert recording is not None and recording.recorder.recording
        task = window.close_tab(second)
        assert task is not None and window.connection_tabs() == [first]
        await task
        assert second.controller.model.state is ConnState.DISCONNECTED
        assert second.connection not in window.app.connections
        assert not recording.recorder.recording  # its recording ended with it
        assert first.controller.model.state is ConnState.CONNECTED  # the other keeps going
        # Closing the last tab leaves a fresh one.
        await window.close_tab()  # type: ignore[misc]
        assert len(window.connection_tabs()) == 1 and window.current_tab is not first
        assert first.controller.model.state is ConnState.DISCONNECTED

    run(loop, scenario(), timeout=90)


def test_an_ask_in_a_background_tab_names_its_tab_and_marks_it(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    asker = window.current_tab

    async def scenario() -> None:
        await tab_connected(asker, demo("Asker"))
        asker.rename("asker")
        other = window.new_tab()
        await tab_connected(other, demo("Other"))
        assert window.current_tab is other
        session = asker.controller.model.session
        assert session is not None
        call = call_tool(session, "ask_llm", {"question": "Who asks?"})
        responder = asker.controller.responder
        assert responder is not None
        await until(lambda: isinstance(responder.dialog, SamplingDialog), "the sampling dialog")
        dialog = responder.dialog
        assert dialog is not None
        # Whose ask it is: in the dialog's title, and on the tab until it is answered.
        assert dialog.windowTitle().startswith("asker — ")
        assert dialog.heading.text().endswith("from the tab “asker”")
        index = window.tabs.indexOf(asker)
        assert "waiting" in window.tabs.tabText(index) and asker.asks_waiting == 1
        assert "ask(s) waiting" in window.tabs.tabToolTip(index)
        # The current tab still works meanwhile: its server answers a ping.
        other_session = other.controller.model.session
        assert other_session is not None
        await asyncio.wait_for(other_session.start_request("ping", {}).result(), 5)
        assert isinstance(dialog, SamplingDialog)
        dialog.reply_text.setPlainText("the asker tab answered")
        dialog.approve_button.click()
        result = await result_of(call)
        assert "the asker tab answered" in text_of(result)
        await until(lambda: asker.asks_waiting == 0, "the badge to go")
        assert window.tabs.tabText(index) == "asker"

    run(loop, scenario(), timeout=90)


def test_a_crash_in_one_tab_leaves_the_other_working(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    healthy = window.current_tab

    async def scenario() -> None:
        await tab_connected(healthy, demo("Healthy"))
        crashy = window.new_tab()
        await tab_connected(crashy, python_profile("crashy", MISBEHAVING, "--mode", "crash"))
        session = crashy.controller.model.session
        assert session is not None
        call_tool(session, "boom")
        await until(lambda: crashy.controller.model.state is ConnState.LOST, "the crash")
        assert crashy.tab_state() == TabState.LOST
        assert "State: lost" in window.tabs.tabToolTip(window.tabs.indexOf(crashy))
        assert crashy.bar.state_label.text() == "Server exited"
        # The other tab is untouched and still answers.
        assert healthy.controller.model.state is ConnState.CONNECTED
        assert healthy.bar.state_label.text() == "Connected"
        assert not healthy.errors.items or all(
            i.category != "connection" for i in healthy.errors.items
        )
        healthy_session = healthy.controller.model.session
        assert healthy_session is not None
        result = await result_of(call_tool(healthy_session, "echo", {"message": "still here"}))
        assert "still here" in text_of(result)

    run(loop, scenario(), timeout=90)


def test_a_tab_that_cannot_connect_says_so_at_a_glance(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        tab = window.new_tab(python_profile("broken", MISBEHAVING, "--mode", "exit-early"))
        await until(lambda: tab.controller.model.state is ConnState.FAILED, "the failure")
        assert tab.tab_state() == TabState.FAILED
        assert window.tabs.tabBar().tabData(window.tabs.indexOf(tab)) == "failed"
        assert "State: failed" in window.tabs.tabToolTip(window.tabs.indexOf(tab))

    run(loop, scenario(), timeout=60)


def test_new_tab_dialog_opens_a_profile_a_command_or_a_url(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    dialog = window.open_new_tab_dialog()
    assert isinstance(dialog, NewTabDialog)
    dialog.url_choice.setChecked(True)
    dialog.url_edit.setText("ftp://nowhere")
    dialog.accept()  # a bad URL is said in the dialog, which stays open
    assert dialog.problem.isVisibleTo(dialog) and "not an http" in dialog.problem.text()
    assert len(window.connection_tabs()) == 1
    dialog.stdio_choice.setChecked(True)
    dialog.stdio_edit.setText("'unclosed")
    dialog.accept()
    assert "quotation" in dialog.problem.text().lower()
    dialog.profile_choice.setChecked(True)
    demo_profile = window.store.find("demo")
    assert demo_profile is not None
    dialog.profile_combo.setCurrentIndex(dialog.profile_combo.findData(demo_profile.id))

    async def scenario() -> None:
        dialog.accept()  # the new tab connects (on the running loop, as in the app)
        assert len(window.connection_tabs()) == 2
        tab = window.current_tab
        await until(lambda: tab.controller.model.state is ConnState.CONNECTED, "the demo")
        assert tab.controller.model.profile is not None
        assert tab.controller.model.profile.id == demo_profile.id

    run(loop, scenario(), timeout=60)
    shortcuts = {a.text(): a.shortcut().toString() for a in window.actions()}
    assert shortcuts["New &Tab…"] == "Ctrl+T" and shortcuts["Close Ta&b"] == "Ctrl+W"


def test_the_window_remembers_its_tabs_and_offers_them_without_blocking(
    loop: asyncio.AbstractEventLoop, tmp_path: Path, qapp: QApplication
) -> None:
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    saved = python_profile("Saved demo", "-m", "inspector.demo")
    store.put(saved)
    first = window_for(store, tmp_path)
    first.show()
    adhoc = python_profile("ad hoc", "-m", "inspector.demo")

    async def scenario() -> None:
        await tab_connected(first.current_tab, saved)
        first.app.profiles.add_adhoc(adhoc)
        await tab_connected(first.new_tab(), adhoc)  # from the command line: kept too
        first.new_tab()  # never connected: nothing to remember

    try:
        run(loop, scenario(), timeout=60)
        first.save_state()
    finally:
        run(loop, close_window(first))
    again = window_for(ProfileStore(tmp_path / "profiles.json", SecretStore()), tmp_path)
    again.show()
    try:
        assert not again.reopen_bar.isVisible()  # only offered when asked (no targets)
        assert again.offer_reopen()
        bar = again.reopen_bar
        assert bar.isVisible() and "Saved demo" in bar.label.text()
        # A command line's tab comes back too, named as not saved (issue 31).
        assert "ad hoc (not saved)" in bar.label.text() and "2 tabs were open" in bar.label.text()
        assert len(again.connection_tabs()) == 1  # nothing opened before the user says so

        async def reopened() -> None:
            bar.reopen_button.click()
            assert not bar.isVisible()
            tab = again.connection_tabs()[0]
            await until(
                lambda: tab.controller.model.state is ConnState.CONNECTED, "the reopened tab"
            )
            assert (
                tab.controller.model.profile is not None
                and tab.controller.model.profile.id == saved.id
            )

        run(loop, reopened(), timeout=60)
    finally:
        run(loop, close_window(again))


def test_gui_opens_a_tab_per_target_in_order_the_last_current(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    from inspector.ui.shell.gui_command import GuiOptions, open_targets, resolve_targets

    options = GuiOptions(
        targets=[
            ("profile", "demo"),
            ("stdio", f"{sys.executable} {MISBEHAVING} --mode exit-early"),
            ("url", "http://127.0.0.1:9/mcp"),
        ]
    )
    profiles = resolve_targets(options, window.store)
    assert [p.transport for p in profiles] == ["stdio", "stdio", "http"]
    with pytest.raises(ValueError, match="not an http"):
        resolve_targets(GuiOptions(targets=[("url", "ftp://x")]), window.store)
    with pytest.raises(ValueError, match="no profile named"):
        resolve_targets(GuiOptions(targets=[("profile", "demo"), ("profile", "x")]), window.store)

    async def scenario() -> None:
        open_targets(window, profiles)
        tabs = window.connection_tabs()
        assert len(tabs) == 3 and window.current_tab is tabs[2]
        for tab, profile in zip(tabs, profiles, strict=True):
            await until(lambda t=tab: t.controller.model.profile is not None, "the tab to start")
            assert tab.controller.model.profile is not None
            assert tab.controller.model.profile.id == profile.id
        await until(lambda: tabs[1].tab_state() == TabState.FAILED, "the broken one")
        await until(lambda: tabs[0].tab_state() == TabState.CONNECTED, "the demo")

    run(loop, scenario(), timeout=60)


def test_gui_screenshot_of_two_targets_shows_two_tabs(tmp_path: Path) -> None:
    out = tmp_path / "two.png"
    env = dict(
        os.environ,
        PYTHONPATH=str(REPO),
        QT_QPA_PLATFORM="offscreen",
        MCP_INSPECTOR_CONFIG_DIR=str(tmp_path / "config"),
    )
    bad = f"{sys.executable} {MISBEHAVING} --mode exit-early"
    proc = subprocess.run(
        [PY, "-m", "inspector", "gui", "--stdio", bad, "--profile", "demo",
         "--screenshot", str(out)],
        capture_output=True, text=True, timeout=90, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "2 tabs: stdio: python" in proc.stderr and "current: " in proc.stderr
    assert "warning: tab 'stdio: python" in proc.stderr  # the failed one is said
    assert out.read_bytes().startswith(b"\x89PNG")


def test_closing_a_tab_with_an_ask_open_withdraws_it_and_the_window_goes_on(
    window: MainWindow, loop: asyncio.AbstractEventLoop, caplog: pytest.LogCaptureFixture
) -> None:
    stays = window.current_tab

    async def scenario() -> None:
        await tab_connected(stays, demo("Stays"))
        asker = window.new_tab()
        await tab_connected(asker, demo("Asker"))
        session = asker.controller.model.session
        responder = asker.controller.responder
        assert session is not None and responder is not None
        responder.withdraw_delay_ms = 50
        call_tool(session, "ask_llm", {"question": "closing?"})
        await until(lambda: responder.dialog is not None, "the dialog")
        task = window.close_tab(asker)
        assert task is not None
        await asyncio.wait_for(task, 20)
        await until(lambda: responder.dialog is None, "the withdrawn dialog to close")
        await until(
            lambda: (
                window.connection_tabs() == [stays]
                and asker.controller.model.state is ConnState.DISCONNECTED
            ),
            "the tab gone, its connection closed",
        )
        stays_session = stays.controller.model.session
        assert stays_session is not None
        result = await result_of(call_tool(stays_session, "echo", {"message": "on"}))
        assert "on" in text_of(result)
        # The closed tab no longer hears the app-wide stores.
        caplog.clear()
        window.store.put(python_profile("added later", "-m", "inspector.demo"))
        window.app.canned.put("some-profile", {"role": "assistant"}, enabled=False)
        assert not [r for r in caplog.records if "listener failed" in r.getMessage()]

    run(loop, scenario(), timeout=60)
