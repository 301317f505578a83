"""The window's layout between runs: its geometry, toolbars and splitter positions, kept
in QSettings under fixed keys (a user's layout survives upgrades that keep the keys)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QMainWindow, QSplitter

from inspector.ui.tabs.tab_layout import restore_splitter

__all__ = ["STATE_VERSION", "WindowState"]

# The version of the saved toolbar/dock state. 1: the connection tabs (the window keeps no
# toolbar of its own; each tab has its own). A state saved by an older layout (version 0,
# with the connection toolbar on the window) is not restored: Qt would keep an empty band
# for the toolbar that is gone.
STATE_VERSION = 1


class WindowState:
    def __init__(
        self,
        settings: QSettings,
        window: QMainWindow,
        splitters: Callable[[], Mapping[str, QSplitter]],
    ) -> None:
        """`splitters()`: each splitter of the current tab under its settings key (the
        window's first tab at the next start gets them; each remembered tab keeps its own
        with the tab, see `tab_layout`)."""
        self.settings = settings
        self.window = window
        self._splitters = splitters

    @property
    def splitters(self) -> dict[str, QSplitter]:
        return dict(self._splitters())

    def restore(self) -> None:
        s = self.settings
        restorers = [
            ("geometry", self.window.restoreGeometry),
            ("windowState", lambda state: self.window.restoreState(state, STATE_VERSION)),
        ]
        for key, apply in restorers:
            value = s.value(key)
            if isinstance(value, QByteArray | bytes):
                apply(QByteArray(value))
        for key, splitter in self.splitters.items():
            restore_splitter(splitter, s.value(key))

    def save(self) -> None:
        s = self.settings
        s.setValue("geometry", self.window.saveGeometry())
        s.setValue("windowState", self.window.saveState(STATE_VERSION))
        for key, splitter in self.splitters.items():
            s.setValue(key, splitter.saveState())
        s.sync()
