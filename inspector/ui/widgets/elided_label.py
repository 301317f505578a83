"""A one-line label that elides what does not fit (plain text, like every label)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["ElidedLabel"]


class ElidedLabel(PlainLabel):
    """A plain-text label that cuts each line to the width it gets, with an ellipsis.

    A server name, a failure reason or a note can be any length; a normal QLabel would
    make its minimum width the width of the whole text and push the window off screen.
    `text()` returns the full text.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__("", parent)  # sets _full through setText
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:
        self._full = text
        self._elide()

    def text(self) -> str:
        return self._full

    def minimumSizeHint(self) -> QSize:
        return QSize(20, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        lines = self._full.splitlines() or [""]
        width = max(metrics.horizontalAdvance(line) for line in lines)
        return QSize(min(width + 4, 600), super().sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        metrics = self.fontMetrics()
        width = max(0, self.width() - 2)
        lines = self._full.splitlines() or [""]
        shown = [metrics.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in lines]
        super().setText("\n".join(shown))
