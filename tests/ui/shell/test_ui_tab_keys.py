"""Keys that switch the window's tabs (issue 31, item 8): Ctrl+Tab and Ctrl+PgDn go to the
next tab, Ctrl+Shift+Tab and Ctrl+PgUp to the previous one (round the ends), Alt+1…9 to
a tab by its place; Help ▸ Keyboard shortcuts lists them, and the current tab's own keys
(Watch mode's Ctrl+Shift+W, Re-run now's F5) too."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QTreeWidgetItemIterator

from inspector.ui.shell.help_menu import ShortcutsDialog
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.journeys import press, visible_window


def test_keys_switch_tabs_and_the_shortcut_list_names_them(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    first = window.current_tab
    second = window.new_tab()
    third = window.new_tab()
    assert window.current_tab is third
    focus = window.current_tab.explorer  # keys pressed while the window has the focus
    press(focus, "Ctrl+Tab")
    assert window.current_tab is first  # past the end: round to the first
    press(window.current_tab, "Ctrl+PgDown")
    assert window.current_tab is second
    press(window.current_tab, "Ctrl+Shift+Tab")
    assert window.current_tab is first
    press(window.current_tab, "Ctrl+PgUp")
    assert window.current_tab is third
    press(window.current_tab, "Alt+2")
    assert window.current_tab is second
    press(window.current_tab, "Alt+1")
    assert window.current_tab is first
    press(window.current_tab, "Alt+9")  # no ninth tab: the last one, as in browsers
    assert window.current_tab is third

    async def shortcut_list() -> dict[str, str]:
        press(window, "Ctrl+/")
        await until(lambda: visible_window(ShortcutsDialog) is not None, "the shortcut list")
        dialog = visible_window(ShortcutsDialog)
        assert isinstance(dialog, ShortcutsDialog)
        rows = {}
        it = QTreeWidgetItemIterator(dialog.table)
        while it.value():
            rows[it.value().text(0)] = it.value().text(1)
            it += 1
        dialog.close()
        return rows

    rows = run(loop, shortcut_list())
    assert rows["Next tab"] == "Ctrl+Tab, Ctrl+PgDown"
    assert rows["Previous tab"] == "Ctrl+Shift+Tab, Ctrl+PgUp"
    assert rows["Go to tab 1 … 9"] == "Alt+1 … Alt+9"
    assert rows["Watch mode"] == "Ctrl+Shift+W"
    assert rows["Re-run now"] == "F5"
