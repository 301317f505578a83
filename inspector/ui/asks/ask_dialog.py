"""The frame every server-ask dialog shares: header, notes, answer future, withdrawal.

A dialog is window-modal and opened with `open()`, never `exec()`: the qasync loop keeps
running, so traffic keeps flowing in the log while the user thinks. The answer is
delivered through `answer` (an asyncio Future the Responder awaits): a result dict, or
`AskRejected`. When the server withdraws the request (legacy notifications/cancelled,
or its modern request ended), `withdraw(reason)` disables the dialog, says why, and
closes it after a few seconds (or at once, with Close).
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any, ClassVar, Final

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.core.server_connection import AskRejected
from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.wire.versions import Era
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["WITHDRAW_DELAY_MS", "AskDialog"]

WITHDRAW_DELAY_MS: Final = 4000  # how long a withdrawn request's note stays up


class _Banner(QFrame):
    """A colored note strip (problems with the request, or why it was withdrawn)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("askBanner")
        self.label = PlainLabel(wrap=True, selectable=True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.label, 1)
        self.hide()

    def show_text(self, text: str, level: str = "warn") -> None:
        c = colors()
        color = {"warn": c.warn, "error": c.error, "ok": c.ok}.get(level, c.warn)
        self.setStyleSheet(
            f"#askBanner {{ border: 1px solid {color.name()}; border-radius: 4px; }}"
            f"#askBanner QLabel {{ color: {color.name()}; }}"
        )
        self.label.setText(text)
        self.show()


class AskDialog(QDialog):
    """Base class. Subclasses fill `body` and `buttons`, and call `finish` or `refuse`."""

    title: ClassVar[str] = "Server request"

    def __init__(self, ask: ServerAsk, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ask = ask
        self.answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.withdrawn: str | None = None
        self.withdraw_delay_ms = WITHDRAW_DELAY_MS
        self.setWindowTitle(self.title)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.heading = PlainLabel(self.title)
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.heading.setFont(font)
        era = "legacy server request" if ask.era is Era.LEGACY else "modern input request (MRTR)"
        self.origin = PlainLabel(f"{ask.method} · {era} · {ask.origin}", wrap=True, selectable=True)
        self.origin.setStyleSheet(f"color: {colors().muted.name()};")
        self.waiting = PlainLabel()
        self.waiting.hide()
        self.problems = _Banner()
        self.notice = _Banner()
        self.body = QVBoxLayout()
        self.buttons = QHBoxLayout()
        self.close_button = QPushButton("Close")
        self.close_button.clicked.connect(self.reject)
        self.close_button.hide()
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.waiting)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.origin)
        layout.addWidget(self.notice)
        layout.addWidget(self.problems)
        layout.addLayout(self.body, 1)
        layout.addLayout(self.buttons)
        self._content: list[QWidget] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.reject)
        self._ended = False

    # ---------------------------------------------------------------- for subclasses
    def add_content(self, widget: QWidget, stretch: int = 0) -> None:
        """Add an input area (disabled as a whole when the request is withdrawn)."""
        self.body.addWidget(widget, stretch)
        self._content.append(widget)

    def add_buttons(self, *buttons: QPushButton) -> None:
        """The last button is the primary one (default; also Ctrl+Enter from a text field)."""
        self.buttons.addStretch(1)
        for button in buttons:
            self.buttons.addWidget(button)
        self.buttons.addWidget(self.close_button)
        if buttons:
            shortcut = QShortcut(QKeySequence("Ctrl+Return"), self)
            shortcut.activated.connect(functools.partial(self._press, buttons[-1]))

    @staticmethod
    def _press(button: QPushButton) -> None:
        if button.isVisible() and button.isEnabled():
            button.click()

    def set_problems(self, problems: list[str]) -> None:
        if problems:
            self.problems.show_text(
                "The request does not follow the spec:\n• " + "\n• ".join(problems)
            )

    def finish(self, result: dict[str, Any]) -> None:
        if not self.answer.done():
            self.answer.set_result(result)
        self._end(QDialog.DialogCode.Accepted)

    def refuse(self, message: str) -> None:
        if not self.answer.done():
            self.answer.set_exception(AskRejected(message))
        self._end(QDialog.DialogCode.Rejected)

    def _end(self, code: QDialog.DialogCode) -> None:
        if self._ended:
            return
        self._ended = True
        self._timer.stop()
        self.done(code)

    def dismissed(self) -> None:
        """The user closed the window (Esc, the title bar): subclasses choose the answer."""
        self.refuse("dismissed by the user")

    # ---------------------------------------------------------------- queue and withdrawal
    def set_waiting(self, count: int) -> None:
        self.waiting.setText(f"{count} more waiting" if count else "")
        self.waiting.setVisible(count > 0)

    def withdraw(self, reason: str) -> None:
        """The server cancelled the request: nothing will be sent; close soon."""
        if self.withdrawn is not None:
            return
        self.withdrawn = reason
        for widget in self._content:
            widget.setEnabled(False)
        for i in range(self.buttons.count()):
            item = self.buttons.itemAt(i)
            button = item.widget() if item is not None else None
            if isinstance(button, QPushButton) and button is not self.close_button:
                button.hide()
        self.close_button.show()
        self.close_button.setDefault(True)
        self.notice.show_text(
            f"The server withdrew this request: {reason}. Nothing was sent; this window "
            "closes by itself.",
            "error",
        )
        self._timer.start(self.withdraw_delay_ms)

    # ---------------------------------------------------------------- Qt
    def reject(self) -> None:
        """Esc, the window's close button, Close and the withdrawal timer all end here."""
        if not self.answer.done() and self.withdrawn is None:
            self.dismissed()
        self._end(QDialog.DialogCode.Rejected)
