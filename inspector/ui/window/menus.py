"""The main window's menu bar: File, Log, View, (Client), Help.

Every action made here is also added to the window, so its shortcut works with the menu
bar hidden. Parts of the window that bring their own actions (the session files, the
client features) hand them over; this places them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

__all__ = ["Shortcut", "WindowMenus"]

Shortcut = QKeySequence | QKeySequence.StandardKey | str


class WindowMenus:
    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        bar = window.menuBar()
        self.file = bar.addMenu("&File")
        self.log = bar.addMenu("&Log")
        self.view = bar.addMenu("&View")
        self.help = bar.addMenu("&Help")
        self._file_end: QAction | None = None  # the separator above File ▸ Quit

    def action(
        self, text: str, slot: Callable[[], object], shortcut: Shortcut | None = None
    ) -> QAction:
        action = QAction(text, self.window)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        self.window.addAction(action)  # shortcuts work even with the menu bar hidden
        return action

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

    def add_after(self, anchor: QAction, action: QAction) -> None:
        """`action` right after `anchor` in the File menu (in its group)."""
        self.window.addAction(action)
        actions = self.file.actions()
        index = actions.index(anchor) if anchor in actions else -1
        if 0 <= index < len(actions) - 1:
            self.file.insertAction(actions[index + 1], action)
        else:
            self.file.addAction(action)

    def add_before_help(self, menu: QMenu) -> None:
        self.window.menuBar().insertMenu(self.help.menuAction(), menu)
