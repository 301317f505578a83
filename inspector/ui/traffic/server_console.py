"""The Server console tab: what a stdio server writes to stderr, as plain text.

A chatty server must not stall the UI, so lines are appended in batches (at most ten times
a second), and only the last lines are kept.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

__all__ = ["ServerConsole"]

_CONSOLE_MAX_LINES: Final = 50_000


class ServerConsole(QWidget):
    """The server's stderr, appended in batches (a chatty server must not stall the UI)."""

    def __init__(self) -> None:
        super().__init__()
        self.view = QPlainTextEdit()
        self.view.setObjectName("serverConsole")
        self.view.setReadOnly(True)
        self.view.setMaximumBlockCount(_CONSOLE_MAX_LINES)
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.view.setPlaceholderText("What the server writes to stderr appears here.")
        self._pending: list[str] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self.flush)
        clear = QToolButton()
        clear.setText("Clear")
        clear.clicked.connect(self.view.clear)
        bar = QHBoxLayout()
        bar.addStretch(1)
        bar.addWidget(clear)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)

    def append(self, line: str) -> None:
        self._pending.append(line)
        if not self._timer.isActive():
            self._timer.start()

    def flush(self) -> None:
        if not self._pending:
            return
        lines, self._pending = self._pending[-_CONSOLE_MAX_LINES:], []
        self.view.appendPlainText("\n".join(lines))
        bar = self.view.verticalScrollBar()
        bar.setValue(bar.maximum())

    def text(self) -> str:
        self.flush()
        return self.view.toPlainText()
