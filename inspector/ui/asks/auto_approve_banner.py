"""The banner that stays on the window while sampling is auto-approved through a model
("Auto-approve the model's drafts for the rest of this session"), with a button to turn it
off. It floats over the bottom right of the window it is given, so no layout changes for it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QWidget

from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["AutoApproveBanner"]

MARGIN = 12
BOTTOM = 36  # above the status bar


class AutoApproveBanner(QFrame):
    def __init__(self, window: QWidget, on_turn_off: Callable[[], None]) -> None:
        super().__init__(window)
        self.setObjectName("autoApproveBanner")
        warn = colors().warn.name()
        self.setStyleSheet(
            f"#autoApproveBanner {{ border: 2px solid {warn}; border-radius: 6px; "
            f"background: palette(window); }} #autoApproveBanner QLabel {{ color: {warn}; }}"
        )
        self.label = PlainLabel(wrap=True)
        self.turn_off = QPushButton("Turn off")
        self.turn_off.clicked.connect(on_turn_off)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.turn_off)
        self.setMaximumWidth(520)
        window.installEventFilter(self)
        self.hide()

    def show_for(self, text: str) -> None:
        self.label.setText(text)
        self.adjustSize()
        self._place()
        self.show()
        self.raise_()

    def _place(self) -> None:
        parent = self.parentWidget()
        if parent is not None:
            self.move(
                max(MARGIN, parent.width() - self.width() - MARGIN),
                max(MARGIN, parent.height() - self.height() - BOTTOM),
            )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.isVisible():
            self._place()
        return False
