"""The keys that switch the window's tabs: View ▸ Next tab (Ctrl+Tab, Ctrl+PgDn) and
Previous tab (Ctrl+Shift+Tab, Ctrl+PgUp), round the ends, and Alt+1…9 to a tab by its
place (Alt+9, or a place past the end: the last one), as in browsers."""

from __future__ import annotations

import functools
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QTabWidget

__all__ = ["TabKeys"]


class TabKeys:
    def __init__(
        self,
        tabs: QTabWidget,
        menu: QMenu,
        action: Callable[[str, Callable[[], object], str | None], QAction],
    ) -> None:
        """`action(text, slot, keys)`: an action of the window (its shortcut works with the
        menu bar hidden); `menu`: where Next tab and Previous tab are listed."""
        self.tabs = tabs
        menu.addSeparator()
        ahead = action("&Next tab", lambda: self.step(1), None)
        ahead.setShortcuts([QKeySequence("Ctrl+Tab"), QKeySequence("Ctrl+PgDown")])
        back = action("&Previous tab", lambda: self.step(-1), None)
        back.setShortcuts([QKeySequence("Ctrl+Shift+Tab"), QKeySequence("Ctrl+PgUp")])
        for each in (ahead, back):
            each.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            menu.addAction(each)
        for place in range(1, 10):
            # No text: the shortcut list shows the nine as one row ("Go to tab 1 … 9").
            action("", functools.partial(self.go_to, place), f"Alt+{place}")
        menu.addSeparator()

    def step(self, step: int) -> None:
        """The next (1) or previous (-1) tab, round the ends."""
        count = self.tabs.count()
        if count > 1:
            self.tabs.setCurrentIndex((self.tabs.currentIndex() + step) % count)

    def go_to(self, place: int) -> None:
        """The tab at `place` (1 is the first); past the end, the last one."""
        self.tabs.setCurrentIndex(min(place, self.tabs.count()) - 1)
