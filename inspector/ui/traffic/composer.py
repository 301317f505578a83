"""Send raw…: a JSON editor with a template per method, sent exactly as typed.

It warns when the text is not valid JSON-RPC, or not valid for the method in the
negotiated version, and still lets the user send it: testing a server's error
handling is the point. The answer is paired in the traffic log like any other.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.core.server_connection import Call, SessionError
from inspector.features.raw_messages import check_message, methods_for, template_for
from inspector.protocol.wire.versions import LATEST_LEGACY
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.widgets.highlighter import JsonHighlighter
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.screen_fit import fit_to_screen
from inspector.ui.widgets.theme import colors

__all__ = ["RawComposerDialog"]


class RawComposerDialog(QDialog):
    def __init__(self, controller: ConnectionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Send raw message")
        fit_to_screen(self, 640, 520)
        self.controller = controller
        # Tests replace this to answer the "send anyway?" question without a modal box.
        self.confirm: Callable[[list[str]], bool] = self._ask_send_anyway
        self.last_call: Call | None = None
        self.last_result: str | None = None
        self.method_combo = QComboBox()
        self.method_combo.setMinimumWidth(260)
        self.method_combo.activated.connect(lambda _i: self.load_template())
        self.new_id_button = QPushButton("Template with a fresh id")
        self.new_id_button.clicked.connect(self.load_template)
        self.version_label = PlainLabel()
        top = QHBoxLayout()
        top.addWidget(PlainLabel("Template:"))
        top.addWidget(self.method_combo, 1)
        top.addWidget(self.new_id_button)
        self.editor = QPlainTextEdit()
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setTabChangesFocus(True)
        self.highlighter = JsonHighlighter(self.editor.document())
        self.warnings = PlainLabel(wrap=True)
        self.status = PlainLabel(wrap=True)
        self.send_button = QPushButton("Send")
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self.send)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.send_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.version_label)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.warnings)
        layout.addLayout(buttons)
        self._check_timer = QTimer(self)
        self._check_timer.setSingleShot(True)
        self._check_timer.setInterval(200)
        self._check_timer.timeout.connect(self.update_warnings)
        self.editor.textChanged.connect(self._check_timer.start)
        self.refresh_session()

    # ---------------------------------------------------------------- session
    @property
    def version(self) -> str:
        session = self.controller.model.server
        return (session.protocol_version if session else None) or LATEST_LEGACY

    def refresh_session(self) -> None:
        """Reload the method list for the negotiated version."""
        session = self.controller.model.server
        negotiated = session.protocol_version if session else None
        requests, notifications = methods_for(self.version)
        current = self.method_combo.currentText()
        self.method_combo.clear()
        self.method_combo.addItems(requests)
        self.method_combo.insertSeparator(len(requests))
        self.method_combo.addItems(notifications)
        if current:
            self.method_combo.setCurrentText(current)
        elif "tools/call" in requests:
            self.method_combo.setCurrentText("tools/call")
        self.version_label.setText(
            f"Templates for protocol {self.version}"
            + ("" if negotiated else " (not connected: the newest legacy version)")
        )
        self.send_button.setEnabled(self.controller.model.connected)
        if not self.editor.toPlainText().strip():
            self.load_template()

    def load_template(self) -> None:
        method = self.method_combo.currentText()
        if not method:
            return
        session = self.controller.model.server
        msg_id = session.fresh_id() if session is not None else 1
        info = session.client_info if session is not None else None
        caps = session.client_capabilities if session is not None else None
        self.editor.setPlainText(
            template_for(method, self.version, msg_id, client_info=info, capabilities=caps)
        )
        self.update_warnings()

    # ---------------------------------------------------------------- checks
    def update_warnings(self) -> list[str]:
        warnings = check_message(self.editor.toPlainText(), self.version)
        if warnings:
            self.warnings.setStyleSheet(f"color: {colors().warn.name()}")
            self.warnings.setText("⚠ " + "\n⚠ ".join(warnings) + "\n(You can still send it.)")
        else:
            self.warnings.setStyleSheet(f"color: {colors().ok.name()}")
            self.warnings.setText(f"✓ a valid message for protocol {self.version}")
        return warnings

    def _ask_send_anyway(self, warnings: list[str]) -> bool:
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Send anyway?")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText("This is not a valid message:\n\n" + "\n".join(warnings))
        box.setInformativeText("Send it exactly as typed, to see how the server copes?")
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
        return box.exec() == QMessageBox.StandardButton.Yes

    # ---------------------------------------------------------------- send
    def send(self) -> asyncio.Task[None] | None:
        if not self.controller.model.connected:
            self.status.setText("Not connected.")
            return None
        text = self.editor.toPlainText()
        warnings = self.update_warnings()
        if warnings and not self.confirm(warnings):
            return None
        self.status.setText("Sending…")
        return self.controller.model.start(self._send(text), "send raw")

    async def _send(self, text: str) -> None:
        session = self.controller.model.server
        if session is None:
            self.status.setText("Not connected.")
            return
        try:
            call = await session.send_raw(text)
        except SessionError as exc:
            self.status.setText(f"Not sent: {exc}")
            return
        except Exception as exc:  # a transport error: report, never crash the dialog
            self.status.setText(f"Not sent: {exc}")
            return
        self.last_call = call
        if call is None:
            self.status.setText("Sent (no answer expected). It is in the log.")
            self.last_result = "sent"
            return
        self.status.setText(f"Sent {call.method}; waiting for the answer…")
        if self.method_combo.currentText() and self._uses_template_id(text, call):
            self.load_template()  # next send gets a fresh id
        try:
            result = await call.result()
        except SessionError as exc:
            self.last_result = f"error: {exc}"
            self.status.setText(f"Answered with an error: {exc}. See the log.")
            return
        self.last_result = json.dumps(result, ensure_ascii=False)[:200]
        self.status.setText(f"Answered: {self.last_result}")

    @staticmethod
    def _uses_template_id(text: str, call: Call) -> bool:
        try:
            value = json.loads(text)
        except ValueError:
            return False
        return isinstance(value, dict) and "id" in value and bool(call.method)
