"""Tabs opened on a command line or a URL (issue 31, item 15): they come back after a
restart as saved profiles' tabs do, their custom names too, and the Reopen bar names
them as not saved; "Save as profile…" on such a tab's menu keeps it as a profile.
Driven as a person does: Ctrl+T ▸ Command (stdio), the tab's context menu, the bar."""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit

from inspector.settings.profiles import ProfileStore
from inspector.storage.secrets import SecretStore
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.new_tab_dialog import NewTabDialog
from tests.helpers.demo_http import demo_http_server
from tests.helpers.gui import close_window, run, until, window_for
from tests.helpers.journeys import (
    DEMO_TITLE,
    click,
    press,
    shows_connected,
    tab_titles,
    type_into,
    visible_window,
)
from tests.helpers.peers import demo_command

pytestmark = pytest.mark.timeout(90)


async def open_target(window: MainWindow, stdio: str = "", url: str = "") -> None:
    before = len(window.connection_tabs())
    press(window, "Ctrl+T")
    await until(lambda: visible_window(NewTabDialog) is not None, "the New tab dialog")
    dialog = visible_window(NewTabDialog)
    assert isinstance(dialog, NewTabDialog)
    type_into(dialog.stdio_edit if stdio else dialog.url_edit, stdio or url)
    press(dialog, "Return")
    await until(lambda: len(window.connection_tabs()) == before + 1, "a new tab")
    await until(lambda: shows_connected(window.current_tab, 11), "the demo in the new tab")


async def answer(text: str) -> None:
    await until(lambda: visible_window(QInputDialog) is not None, "the dialog")
    dialog = visible_window(QInputDialog)
    assert isinstance(dialog, QInputDialog)
    edit = dialog.findChild(QLineEdit)
    assert edit is not None
    type_into(edit, text)
    press(dialog, "Return")
    await until(lambda: not dialog.isVisible(), "the dialog to close")


def test_command_and_url_tabs_come_back_and_one_is_saved_as_a_profile(
    loop: asyncio.AbstractEventLoop, tmp_path: Path, qapp: QApplication
) -> None:
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    first = window_for(store, tmp_path)
    first.show()

    async def scenario(url: str) -> None:
        await open_target(first, stdio=shlex.join(demo_command()))
        stdio_tab = first.current_tab
        first.strip.ask_rename(stdio_tab)  # (the tab's context menu ▸ Rename…)
        await answer("local build")
        await open_target(first, url=url)
        url_tab = first.current_tab
        menu = first.strip.context_menu_for(url_tab)
        save = [a for a in menu.actions() if a.text() == "&Save as profile…"]
        assert save, [a.text() for a in menu.actions()]
        save[0].trigger()
        await answer("Demo over HTTP")
        assert [p.name for p in store.profiles if not p.builtin] == ["Demo over HTTP"]
        assert not url_tab.unsaved_target()
        saved_menu = first.strip.context_menu_for(url_tab)
        assert "&Save as profile…" not in [a.text() for a in saved_menu.actions()]

    with demo_http_server() as url:
        try:
            run(loop, scenario(url), timeout=60)
            first.save_state()
        finally:
            run(loop, close_window(first))

        again = window_for(ProfileStore(tmp_path / "profiles.json", SecretStore()), tmp_path)
        again.show()
        try:
            assert again.offer_reopen()
            bar = again.reopen_bar
            text = bar.label.text()
            assert "2 tabs were open" in text, text
            assert "local build — stdio: python" in text and "(not saved)" in text, text
            assert "Demo over HTTP" in text, text

            async def reopened() -> None:
                click(bar.reopen_button)
                await until(lambda: len(again.connection_tabs()) == 2, "two tabs")
                for tab in again.connection_tabs():
                    await until(lambda t=tab: shows_connected(t, 11), "a reopened tab")
                assert tab_titles(again.tabs) == ["local build", DEMO_TITLE]

            run(loop, reopened(), timeout=60)
        finally:
            run(loop, close_window(again))
