"""Watch mode and the Collections tab, driven as a person does on the demo server: a tab
opened from File ▸ New Tab, watch mode turned on from the Watch menu, a collection opened
with the Collections tab's Open… button (before or after watch mode was turned on), a
watched file edited. The re-run runs the collection open at the time of the change, and
the Collections panel shows that run's results, as the watch strip does."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QFileDialog,
    QMenu,
    QPlainTextEdit,
    QTabWidget,
)

from inspector.core.connection_state import ConnState
from inspector.settings.profiles import DEMO_PROFILE_ID
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.new_tab_dialog import NewTabDialog
from tests.helpers.gui import run, then_shutdown, until
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(150)

ECHO = {
    "name": "echo hi",
    "kind": "tool",
    "tool": "echo",
    "arguments": {"message": "hi"},
    "assert": [{"outcome": "ok"}, {"pointer": "/content/0/text", "equals": "hi"}],
}


def _menu_action(window: MainWindow, menu_title: str, text: str) -> QAction:
    """An item of the window's menu bar, as a person finds it."""
    for top in window.menuBar().actions():
        menu = top.menu()
        if isinstance(menu, QMenu) and top.text().replace("&", "") == menu_title:
            for action in menu.actions():
                if action.text().replace("&", "") == text:
                    return action
    raise AssertionError(f"no {menu_title} ▸ {text} in the menu bar")


def _ok(dialog: QDialogButtonBox | None) -> None:
    assert dialog is not None
    button = dialog.button(QDialogButtonBox.StandardButton.Ok)
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def _open_demo_tab(window: MainWindow) -> None:
    _menu_action(window, "File", "New Tab…").trigger()
    dialog = window.findChild(NewTabDialog)
    assert dialog is not None and dialog.isVisible()
    QTest.mouseClick(dialog.profile_choice, Qt.MouseButton.LeftButton)
    dialog.profile_combo.setCurrentIndex(dialog.profile_combo.findData(DEMO_PROFILE_ID))
    _ok(dialog.findChild(QDialogButtonBox))


def _watch_only(window: MainWindow, path: Path) -> None:
    """Watch ▸ Watch settings…: watch `path` (the demo server's own files are the app's)."""
    _menu_action(window, "Watch", "Watch settings…").trigger()
    dialog = window.findChild(QPlainTextEdit, "watchPaths")
    assert dialog is not None
    QTest.keyClicks(dialog, str(path))
    _ok(dialog.window().findChild(QDialogButtonBox))


def _open_collection(window: MainWindow, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Click the Collections tab, then its Open… button, and choose `path` (the system's
    file chooser answers it: a nested dialog typed into missed keys under load)."""
    tab = current_tab(window)
    bottom: QTabWidget = tab.bottom
    panel = tab.collections.panel
    bar = bottom.tabBar()
    index = bottom.indexOf(panel)
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    assert bottom.currentWidget() is panel
    chosen = (str(path), "")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a, **_k: chosen))
    QTest.mouseClick(panel.open_button, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))


@pytest.mark.parametrize("opened", ["after", "before"])
def test_a_change_reruns_the_collection_open_now_and_the_panel_shows_it(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: str,
) -> None:
    folder = tmp_path / "watched"
    folder.mkdir()
    source = folder / "tools.py"
    source.write_text("VERSION = 1\n")
    collection = folder / "calls.json"
    collection.write_text(json.dumps({"version": 1, "name": "demo calls", "calls": [ECHO]}))
    window.show()

    async def scenario() -> None:
        _open_demo_tab(window)
        tab = current_tab(window)
        await until(lambda: tab.controller.model.state is ConnState.CONNECTED, "the demo", 30)
        _watch_only(window, folder)
        wm, panel = tab.watch_mode, tab.collections.panel
        strip = wm.strip.result
        if opened == "before":
            _open_collection(window, collection, monkeypatch)
            await until(lambda: panel.path is not None, "the collection to open")
        _menu_action(window, "Watch", "Watch mode").trigger()
        assert wm.toggle_action.isChecked()
        await until(lambda: strip.isVisibleTo(window), "the first run's result", 30)
        assert strip.text().startswith("re-run · ") or strip.text().startswith("start · ")
        if opened == "after":
            _open_collection(window, collection, monkeypatch)
            await until(lambda: panel.path is not None, "the collection to open")
        assert panel.path == collection
        # Open before: watch mode's first run ran it, and the panel says so.
        first = "✓" if opened == "before" else "○"
        assert panel.tree.topLevelItem(0).text(0) == first, strip.text()

        source.write_text("VERSION = 2\n")
        await until(lambda: strip.text().startswith("restart #1 · "), "the restart", 40)
        text = strip.text()
        assert "collection 1/1 passed" in text, text
        item = panel.tree.topLevelItem(0)
        assert (item.text(0), item.text(1)) == ("✓", "echo hi")
        assert item.text(4).endswith(" ms")
        assert panel.summary.text().startswith("1 passed, 0 failed · "), panel.summary.text()
        assert tab.bottom.tabText(tab.bottom.indexOf(panel)) == "Collections"
        window.grab().save(str(tmp_path / f"watch-collection-{opened}.png"))

    run(loop, then_shutdown(window, scenario()), 140)
