"""The watch mode strip: one compact line under the connection bar, saying what watch mode
is doing and what its last run found ("restart #3 · 12:01:05 · +1 tool, 1 changed ·
collection 5/6 passed"), green when everything passed, red when something failed; a click
on the result opens the details."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QSizePolicy, QWidget

from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors

if TYPE_CHECKING:  # the watch machinery loads when watch mode is first used
    from inspector.watch.report import RunReport

__all__ = ["WatchStrip"]


class WatchStrip(QWidget):
    details_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("watchStrip")
        self.state = PlainLabel("Watch mode is off")
        self.state.setObjectName("watchState")
        self.result = QPushButton()
        self.result.setObjectName("watchResult")
        self.result.setFlat(True)
        self.result.setCursor(Qt.CursorShape.PointingHandCursor)
        self.result.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.result.clicked.connect(self.details_requested.emit)
        self.result.hide()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 0, 6, 0)
        layout.addWidget(self.state)
        layout.addWidget(self.result, 1)
        self.report: RunReport | None = None

    def set_state(self, text: str) -> None:
        """What watch mode does now ("watching server.py's folder", "restarting…")."""
        self.state.setText(text)

    def show_report(self, report: RunReport) -> None:
        self.report = report
        self.result.setText(report.summary())
        c = colors()
        color = c.ok if report.passed else c.error
        self.result.setStyleSheet(
            f"QPushButton {{ color: {color.name()}; text-align: left; padding: 2px 6px; }}"
        )
        self.result.setToolTip(plain_tooltip(report.details() + "\n\n(click for details)"))
        self.result.show()

    def clear(self) -> None:
        self.report = None
        self.result.hide()
        self.result.setText("")
