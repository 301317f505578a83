"""A tab's status bar: a message too long for the room left of the permanent widgets
("⚠ 2 in Errors", "14 messages", "● REC") ends in "…" a little before them, instead of
being cut off against them; the whole message is in the tooltip. The permanent widgets
keep a margin from the window's edge.

Qt's own message times out with a timer that re-showing the message (after a resize, to
elide it again for the new width) would cancel; this bar times its messages itself.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QStatusBar, QWidget

from inspector.ui.widgets.plain_text import plain_tooltip

__all__ = ["TabStatusBar"]

_GAP: Final = 16  # between the message's end and the first permanent widget
_EDGE: Final = 10  # between the last permanent widget and the window's edge


class TabStatusBar(QStatusBar):
    # Every message as given (Qt's messageChanged carries the shown text, which may be cut).
    message_given = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setContentsMargins(0, 0, _EDGE, 0)
        self._full = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.clearMessage)
        self._permanent: list[QWidget] = []

    def addPermanentWidget(self, widget: QWidget, stretch: int | None = 0) -> None:
        super().addPermanentWidget(widget, stretch or 0)
        self._permanent.append(widget)

    def removeWidget(self, widget: QWidget) -> None:
        super().removeWidget(widget)
        if widget in self._permanent:
            self._permanent.remove(widget)

    def full_message(self) -> str:
        """The message as given (what shows may end in "…")."""
        return self._full

    def currentMessage(self) -> str:
        """The message as given, whole (what shows may end in "…": `shown_message`)."""
        return self._full

    def shown_message(self) -> str:
        """The message as it shows: cut to the room with "…" when too long."""
        return super().currentMessage()

    def showMessage(self, text: str, timeout: int | None = 0) -> None:
        self._full = text
        self._timer.stop()
        if timeout:
            self._timer.start(timeout)
        self._show()
        self.message_given.emit(text)

    def clearMessage(self) -> None:
        self._full = ""
        self._timer.stop()
        self.setToolTip("")
        super().clearMessage()
        self.message_given.emit("")

    def room(self) -> int:
        """The width the message may take: up to the first permanent widget shown."""
        right = self.width() - 12
        shown = [w.x() for w in self._permanent if w.isVisible() and w.width() > 0]
        if shown:
            right = min(right, min(shown))
        return max(0, right - 6 - _GAP)

    def _show(self) -> None:
        text = self._full
        if not text:
            super().clearMessage()
            return
        fits = self.fontMetrics().horizontalAdvance(text) <= self.room()
        shown = (
            text
            if fits
            else self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, self.room())
        )
        if fits:
            self.setToolTip("")
        else:
            self.setToolTip(plain_tooltip(text))
        super().showMessage(shown)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._full:
            QTimer.singleShot(0, self._show)  # after the permanent widgets have moved
