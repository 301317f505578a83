"""The Help menu (issue 18.14): keyboard shortcuts read from the window's actions, the
guide shipped with the app, and "Report a problem" copying the versions a report needs."""

from __future__ import annotations

import asyncio
import platform

import PySide6
from PySide6.QtCore import qVersion
from PySide6.QtGui import QGuiApplication

from inspector import __version__
from inspector.ui.shell.help_menu import (
    docs_dir,
    problem_report,
    report_problem,
    shortcut_rows,
    show_guide,
    show_shortcuts,
)
from inspector.ui.shell.main_window import MainWindow


def texts(window: MainWindow) -> list[str]:
    return [a.text() for a in window.menus.help.actions() if a.text()]


def test_help_menu_has_shortcuts_guide_report_and_about(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    assert texts(window) == [
        "&Keyboard shortcuts",
        "&User guide",
        "&Report a problem…",
        "&About",
    ]


def test_the_shortcut_list_is_the_windows_actions(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    rows = dict(shortcut_rows(window))
    assert rows["Connect"] == "Ctrl+K"
    assert rows["Find in log"] == "Ctrl+F"
    assert rows["Explorer"] == "Ctrl+B" and rows["Bottom panel"] == "Ctrl+Shift+B"
    assert rows["Keyboard shortcuts"] == "Ctrl+/"
    assert "Esc" in rows.values() and "Ctrl+Enter" in rows.values()
    dialog = show_shortcuts(window)
    assert dialog.table.topLevelItemCount() == len(rows)
    dialog.close()


def test_the_guide_shows_the_readme_shipped_with_the_app(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    folder = docs_dir()
    assert folder is not None and (folder / "docs").is_dir()
    dialog = show_guide(window)
    assert "MCP Inspector (Qt)" in dialog.browser.toPlainText()
    assert dialog.browser.verticalScrollBar().value() == 0
    assert dialog.open_folder.isEnabled()
    dialog.close()


def test_report_a_problem_copies_the_versions(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    box = report_problem(window)
    copied = QGuiApplication.clipboard().text()
    assert copied == problem_report()
    for needed in (__version__, platform.python_version(), qVersion(), PySide6.__version__):
        assert needed in copied
    assert platform.platform() in copied
    assert copied in box.text()
    box.close()
