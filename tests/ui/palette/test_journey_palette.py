"""The command palette as a person uses it (issue 31, item 27), in a window connected to
the demo server: Ctrl+Shift+P opens it; typing a few letters finds a tool, Enter opens it
in the workspace; an action shows its shortcut and Enter runs it; the recorded session of
this very connection is offered and Enter opens it in a tab; the open tabs are listed
and Enter makes one current; a query with no match says so; Esc closes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from inspector.ui.palette.palette_dialog import CommandPalette
from inspector.ui.shell.help_menu import shortcut_rows
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import until, with_demo
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)

OUT = Path(__file__).resolve().parents[3] / "out"


async def _open(window: MainWindow) -> CommandPalette:
    window.activateWindow()  # the palette just closed: the window is active again
    await until(lambda: QApplication.activeWindow() is window, "the window to be active")
    QTest.keyClick(
        window,
        Qt.Key.Key_P,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    palette = window.command_palette
    assert palette is not None and palette.isVisible(), "Ctrl+Shift+P opened nothing"
    return palette


def _type(palette: CommandPalette, text: str) -> None:
    palette.edit.clear()
    QTest.keyClicks(palette.edit, text)


def _rows(palette: CommandPalette) -> list[tuple[str, str, str]]:
    return [(e.title, e.kind, e.shortcut) for e in palette.model.rows]


def test_find_and_run_with_the_palette(
    recording_window: MainWindow, loop: asyncio.AbstractEventLoop, qapp: QApplication
) -> None:
    window = recording_window
    assert ("Command palette", "Ctrl+Shift+P") in shortcut_rows(window)

    async def body() -> None:
        tab = current_tab(window)
        palette = await _open(window)
        assert palette.shown_titles(), "an empty box lists the first entries"
        _type(palette, "echo")
        assert _rows(palette)[0][:2] == ("echo", "Tool"), _rows(palette)[:3]
        OUT.mkdir(exist_ok=True)
        palette.grab().save(str(OUT / "item27-palette-echo.png"))
        QTest.keyClick(palette.edit, Qt.Key.Key_Return)
        assert not palette.isVisible()
        assert tab.workspace.current is not None and tab.workspace.current.item.key == "echo"

        palette = await _open(window)
        _type(palette, "bottom panel")
        title, kind, keys = _rows(palette)[0]
        assert kind == "Action" and "Bottom panel" in title and keys == "Ctrl+Shift+B", title
        assert tab.bottom.isVisible()
        QTest.keyClick(palette.edit, Qt.Key.Key_Return)
        assert not tab.bottom.isVisible()  # the action ran

        palette = await _open(window)
        _type(palette, "zzqqxx")
        assert palette.model.rows == [] and palette.count.text() == "No match"
        QTest.keyClick(palette.edit, Qt.Key.Key_Escape)
        assert not palette.isVisible()

        palette = await _open(window)
        _type(palette, "open session")
        sessions = [r for r in _rows(palette) if r[1] == "Session"]
        assert sessions, _rows(palette)  # this connection's own recording
        tabs_before = len(window.connection_tabs())
        QTest.keyClick(palette.edit, Qt.Key.Key_Return)
        await until(lambda: len(window.connection_tabs()) == tabs_before + 1, "the session tab")
        await until(lambda: current_tab(window).offline, "the session opened read-only")

        palette = await _open(window)
        _type(palette, "tab:")
        tabs = [r for r in _rows(palette) if r[1] == "Tab"]
        assert len(tabs) == 2, tabs
        first = next(
            i for i, r in enumerate(_rows(palette)) if r[1] == "Tab" and "current" not in r[0]
        )
        for _ in range(first):
            QTest.keyClick(palette.edit, Qt.Key.Key_Down)
        QTest.keyClick(palette.edit, Qt.Key.Key_Return)
        assert current_tab(window) is tab

    with_demo(loop, window, body)
