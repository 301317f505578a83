"""The main window's menu bar: File, Log, View, (Client), Help.

Every action made here is also added to the window, so its shortcut works with the menu
bar hidden. Parts of the window that bring their own actions (the session files, the
client features) hand them over; this places them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu

from inspector.ui.widgets.actions import Shortcut, make_action

__all__ = ["Shortcut", "WindowMenus"]


class WindowMenus:
    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        bar = window.menuBar()
        self.file = bar.addMenu("&File")
        self.log = bar.addMenu("&Log")
        self.view = bar.addMenu("&View")
        self.help = bar.addMenu("&Help")
        self._file_end: QAction | None = None  # the separator above File ▸ Quit
        self._tab_anchor: QAction | None = None  # where the current tab's groups go
        self._tab_actions: list[QAction] = []  # the current tab's, in the File menu now
        self._tab_menus: list[QMenu] = []  # the current tab's own menus (Client, Watch)

    def action(
        self, text: str, slot: Callable[[], object], shortcut: Shortcut | None = None
    ) -> QAction:
        # Added to the window: shortcuts work even with the menu bar hidden.
        return make_action(text, slot, self.window, shortcut, add_to_parent=True)

    def end_file_menu(self, quit_action: QAction) -> None:
        """Close the File menu with Quit; groups added later go above it."""
        self._file_end = self.file.addSeparator()
        self.file.addAction(quit_action)

    def add_file_groups(self, groups: Sequence[Sequence[QAction]]) -> None:
        """Groups of actions at the end of the File menu (above Quit), separated."""
        for group in groups:
            for action in group:
                self.window.addAction(action)
            if self._file_end is None:
                self.file.addActions(list(group))
                self.file.addSeparator()
            else:
                self.file.insertSeparator(self._file_end)
                self.file.insertActions(self._file_end, list(group))

    def add_before_help(self, menu: QMenu) -> None:
        self.window.menuBar().insertMenu(self.help.menuAction(), menu)

    # ---------------------------------------------------------------- the current tab
    def mark_tab_groups(self) -> None:
        """The current tab's File groups go here (the window marks the place once)."""
        self._tab_anchor = self.file.addSeparator()

    def bind_tab(self, groups: Sequence[Sequence[QAction]], menus: Sequence[QMenu]) -> None:
        """Show the current tab's File groups and its menus (the previous tab's go away,
        shortcuts included: only the current tab's actions are on the window)."""
        for action in self._tab_actions:
            self.file.removeAction(action)
            self.window.removeAction(action)
            if action.isSeparator():
                action.deleteLater()
        self._tab_actions = []
        anchor = self._tab_anchor
        if anchor is None:
            raise RuntimeError("mark_tab_groups() first")
        for group in groups:
            for action in group:
                self.window.addAction(action)
            self.file.insertActions(anchor, list(group))
            separator = QAction(self.window)
            separator.setSeparator(True)
            self.file.insertAction(anchor, separator)
            self._tab_actions.extend([*group, separator])
        for old in self._tab_menus:
            self.window.menuBar().removeAction(old.menuAction())
        for menu in menus:
            self.add_before_help(menu)
        self._tab_menus = list(menus)
