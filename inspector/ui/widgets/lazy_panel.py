"""`LazyPanel`: a tab's place holder that builds its panel when the tab is first shown
(or when the code asks for it), so a panel's imports and set-up cost nothing at start."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

__all__ = ["LazyPanel"]


class LazyPanel(QWidget):
    """Holds `build()`'s widget once built; `panel()` builds it on first call."""

    def __init__(self, build: Callable[[], QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._build = build
        self._panel: QWidget | None = None
        self._building = False
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)

    @property
    def built(self) -> bool:
        return self._panel is not None

    def panel(self) -> QWidget:
        if self._panel is None:
            self._building = True
            try:
                self._panel = self._build()
            finally:
                self._building = False
            self._layout.addWidget(self._panel)
        return self._panel

    def ensure(self) -> None:
        """Build the panel now, unless it is built or being built (a build that causes
        this call again is not repeated)."""
        if self._panel is None and not self._building:
            self.panel()

    def showEvent(self, event: QShowEvent) -> None:
        self.panel()
        super().showEvent(event)
