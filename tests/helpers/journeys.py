"""A person's hands and eyes on the real window, for the end-to-end journeys (issue 26).

A journey acts only as a person does: it clicks a visible, enabled button or row, types into
a field, presses a shortcut, picks a menu entry by its visible text from the menu bar. It
reads only what is on the screen: a label's text, a row's cells, a tab's title, the status
bar. No model or controller method is called to act; the connection's state is never read
to decide what happened (what the window shows is).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction, QContextMenuEvent, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from inspector.settings.profiles import Profile, StdioSettings
from inspector.ui.forms.schema_form import SchemaForm
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.connection_tab import ConnectionTab
from inspector.ui.tabs.new_tab_dialog import NewTabDialog
from tests.helpers.gui import until

__all__ = [
    "DEMO_TITLE",
    "EVERYTHING_TITLE",
    "cells",
    "click",
    "click_row",
    "click_tab",
    "double_click_row",
    "everything_profile",
    "field_edit",
    "menu_action",
    "open_tab_with",
    "press",
    "right_click",
    "row_texts",
    "shown",
    "shows_connected",
    "tab_titles",
    "type_into",
    "type_keys",
    "visible_texts",
    "visible_window",
]


def _plain(text: str) -> str:
    """A menu or tab text as seen: without its mnemonic ampersands."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def menu_action(window: QMainWindow, *path: str) -> QAction:
    """The menu bar's entry at `path` of visible texts ("File", "Live Taps", "x — pid …"):
    the last text may be a prefix. The menus are filled as they are when they open."""
    actions = window.menuBar().actions()
    for depth, name in enumerate(path):
        last = depth == len(path) - 1
        found = None
        for action in actions:
            text = _plain(action.text())
            if text == name or (last and text.startswith(name)):
                found = action
                break
        seen = [_plain(a.text()) for a in actions if a.text()]
        assert found is not None, f"no menu entry {name!r} in {seen}"
        if last:
            if isinstance(found.menu(), QMenu):
                found.menu().aboutToShow.emit()  # type: ignore[union-attr]
            return found
        menu = found.menu()
        assert isinstance(menu, QMenu), f"{name!r} is not a menu"
        menu.aboutToShow.emit()  # as when it opens: menus filled on demand fill now
        actions = menu.actions()
    raise AssertionError("an empty menu path")


def shown(widget: QWidget) -> bool:
    return widget.isVisible() and widget.isEnabled()


def click(button: QAbstractButton) -> None:
    """A left click on a button the person can see and use."""
    assert button.isVisible(), f"the button {button.text()!r} is not visible"
    assert button.isEnabled(), f"the button {button.text()!r} is disabled"
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def right_click(widget: QWidget, pos: QPoint) -> None:
    """A right click at `pos`: the button, then the context menu event it brings (QTest's
    click alone does not make one)."""
    assert widget.isVisible(), "right-clicked where nothing is shown"
    QTest.mouseClick(widget, Qt.MouseButton.RightButton, pos=pos)
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, widget.mapToGlobal(pos))
    QApplication.sendEvent(widget, event)


def press(widget: QWidget, keys: str) -> None:
    """Keys pressed while `widget`'s window has the focus ("Ctrl+T", "Return")."""
    window = widget.window()
    if QApplication.activeWindow() is not window:
        # A window manager gives the focus back to the window when a dialog closes; the
        # offscreen platform does not, so do what it would.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            QApplication.setActiveWindow(window)
    QTest.keySequence(widget, QKeySequence(keys))


def type_keys(widget: QWidget, text: str) -> None:
    """Letters typed on the keyboard into `widget` (a list jumps to the row they start)."""
    QTest.keyClicks(widget, text)


def type_into(edit: QLineEdit | QPlainTextEdit, text: str) -> None:
    """Click into a visible field, select what is there and type over it."""
    assert edit.isVisible() and edit.isEnabled(), "the field is not there to type into"
    QTest.mouseClick(
        edit.viewport() if isinstance(edit, QPlainTextEdit) else edit, Qt.MouseButton.LeftButton
    )
    edit.selectAll()
    QTest.keyClicks(edit, text)


def _indexes(view: QAbstractItemView, parent: QModelIndex | None = None) -> Iterator[QModelIndex]:
    model = view.model()
    parent = parent if parent is not None else QModelIndex()
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        yield index
        if model.rowCount(index) > 0:
            yield from _indexes(view, index)


def cells(view: QAbstractItemView, index: QModelIndex) -> list[str]:
    """The texts a row shows, column by column."""
    model = view.model()
    return [
        str(model.index(index.row(), c, index.parent()).data() or "")
        for c in range(model.columnCount(index.parent()))
    ]


def row_texts(view: QAbstractItemView) -> list[list[str]]:
    """Every row of a list, table or tree (children after their parent), as shown."""
    return [cells(view, index) for index in _indexes(view)]


def click_row(view: QAbstractItemView, text: str, *, column: int = 0) -> list[str]:
    """Click the first row whose cell in `column` shows `text` (its first line, for rows
    drawn on two lines); returns that row's cells."""
    for index in _indexes(view):
        cell = view.model().index(index.row(), column, index.parent())
        shown_text = str(cell.data() or "")
        if shown_text == text or shown_text.split("\n", 1)[0] == text:
            view.scrollTo(cell)
            rect = view.visualRect(cell)
            assert rect.isValid() and view.isVisible(), f"the row {text!r} is not on screen"
            QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.center()))
            return cells(view, index)
    raise AssertionError(f"no row {text!r} in {[r[column] for r in row_texts(view)]}")


def double_click_row(view: QAbstractItemView, text: str, *, column: int = 0) -> list[str]:
    """Double-click the first row whose cell in `column` shows `text`; its cells."""
    shown_cells = click_row(view, text, column=column)
    index = view.currentIndex()
    rect = view.visualRect(view.model().index(index.row(), column, index.parent()))
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.center()))
    return shown_cells


def tab_titles(tabs: QTabWidget | QTabBar) -> list[str]:
    bar = tabs.tabBar() if isinstance(tabs, QTabWidget) else tabs
    return [_plain(bar.tabText(i)) for i in range(bar.count())]


def click_tab(tabs: QTabWidget | QTabBar, title: str) -> None:
    """Click the tab whose visible title starts with `title`."""
    bar = tabs.tabBar() if isinstance(tabs, QTabWidget) else tabs
    titles = tab_titles(bar)
    index = next((i for i, t in enumerate(titles) if t.startswith(title)), -1)
    assert index >= 0, f"no tab {title!r} in {titles}"
    assert bar.isVisible(), "the tab bar is hidden"
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())


def visible_texts(widget: QWidget) -> list[str]:
    """Every text shown inside `widget`: its labels, buttons and text views on screen."""
    out = []
    for child in [widget, *widget.findChildren(QWidget)]:
        if not child.isVisible():
            continue
        if isinstance(child, QLabel | QAbstractButton | QLineEdit):
            out.append(child.text())
        elif isinstance(child, QPlainTextEdit | QTextEdit):
            out.append(child.toPlainText())
    return [text for text in out if text]


def visible_window(kind: type[QWidget]) -> QWidget | None:
    """The top-level window of `kind` on the screen, if any (a dialog, the compare view)."""
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, kind) and widget.isVisible():
            return widget
    return None


def field_edit(form: SchemaForm, name: str) -> QLineEdit | QPlainTextEdit:
    """The text field a form shows for its field `name` (a number's too)."""
    row = form.row(name)
    assert row is not None, f"the form has no field {name!r}"
    editor = row.editor
    edits: list[QLineEdit | QPlainTextEdit] = [
        *editor.findChildren(QLineEdit),
        *editor.findChildren(QPlainTextEdit),
    ]
    edits = [e for e in edits if e.isVisible()]
    assert edits, f"the field {name!r} has no text field on screen"
    return edits[0]


# ---------------------------------------------------------------- the two servers
DEMO_TITLE = "mcp-inspector-qt demo"  # the tab of the demo server, by its serverInfo
EVERYTHING_TITLE = "mcp-servers/everything"


def everything_profile(command: list[str], folder: Path) -> Profile:
    """server-everything as a saved profile, run from `folder` (where its files go)."""
    return Profile(
        name="Everything",
        stdio=StdioSettings(command=command[0], args=command[1:], cwd=str(folder)),
    )


def shows_connected(tab: ConnectionTab, tools: int) -> bool:
    """The tab's bar says Connected and its explorer counts the server's tools."""
    status = tab.explorer.panes["tools"].status.text()
    counted = f"{tools} tool" if tools == 1 else f"{tools} tools"
    return tab.bar.state_label.text() == "Connected" and status == counted


async def open_tab_with(window: MainWindow, profile_name: str) -> ConnectionTab:
    """Ctrl+T, pick the saved profile by typing its name in the list, Open tab (Return)."""
    before = len(tab_titles(window.tabs))
    press(window, "Ctrl+T")
    await until(lambda: visible_window(NewTabDialog) is not None, "the New tab dialog")
    dialog = visible_window(NewTabDialog)
    assert isinstance(dialog, NewTabDialog)
    if dialog.profile_combo.currentText() != profile_name:
        type_keys(dialog.profile_combo, profile_name[:4])  # keyboard search in the list
    assert dialog.profile_combo.currentText() == profile_name
    assert dialog.profile_choice.isChecked()
    press(dialog, "Return")  # "Open tab" is the default button
    await until(lambda: not dialog.isVisible(), "the dialog to close")
    await until(lambda: len(tab_titles(window.tabs)) == before + 1, "a new tab")
    return window.current_tab
