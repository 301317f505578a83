"""Two small session controls: the server log level, and Ping with its round-trip time.

Log level. Legacy: logging/setLevel (when the server declares `logging`). Modern
(2026-07-28): there is no such method; the level rides in every request's `_meta`
(`io.modelcontextprotocol/logLevel`), so choosing one changes what later requests carry.
The choice is kept for the window and applied again after a reconnect.

Ping. Legacy only: the modern protocol has no ping method (a liveness check there is
server/discover or any cheap list call), so the button says so and stays disabled.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Final

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QPushButton, QWidget

from inspector.common.log_levels import LOG_LEVELS
from inspector.core.server_connection import ServerConnection, SessionError
from inspector.protocol.machine.events import SessionReady
from inspector.protocol.wire.versions import Era
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["LogLevelControl", "PingControl"]

# spec: LoggingLevel (RFC 5424 severities), most verbose first.
_NOT_SET: Final = "not set"


class LogLevelControl(QWidget):
    """ "Server log level: [not set ▾]" and what the last change did."""

    def __init__(self, controller: ConnectionController) -> None:
        super().__init__()
        self.setObjectName("logLevelControl")
        self.controller = controller
        self.combo = QComboBox()
        self.combo.setObjectName("serverLogLevel")
        self.combo.addItem(_NOT_SET, None)
        for level in LOG_LEVELS:
            self.combo.addItem(level, level)
        self.combo.activated.connect(self._chosen)
        self.status = PlainLabel()
        self.status.setObjectName("logLevelStatus")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(PlainLabel("Server log level:"))
        layout.addWidget(self.combo)
        layout.addWidget(self.status)
        self.wanted: str | None = None
        self.task: asyncio.Task[Any] | None = None
        controller.state_changed.connect(self._state_changed)
        controller.server_ready.connect(self._server_ready)
        self._update()

    def _session(self) -> ServerConnection | None:
        return self.controller.model.ready_server()

    def _update(self) -> None:
        session = self._session()
        if session is None:
            self.combo.setEnabled(False)
            self.combo.setToolTip("Connect to set the server's log level.")
            return
        if session.era is Era.MODERN:
            self.combo.setEnabled(True)
            self.combo.setToolTip(
                "Modern protocol: the level is sent in every request's _meta "
                "(io.modelcontextprotocol/logLevel); the server logs only during requests."
            )
        elif "logging" in session.server_capabilities:
            self.combo.setEnabled(True)
            self.combo.setToolTip("Sends logging/setLevel; the server keeps the last level set.")
        else:
            self.combo.setEnabled(False)
            self.combo.setToolTip("The server does not declare the logging capability.")

    def _state_changed(self, state: str, _detail: str) -> None:
        if ConnState(state) is not ConnState.CONNECTED:
            self._set_status("")
        self._update()

    def _server_ready(self, _ready: SessionReady) -> None:
        self._update()
        if self.wanted is not None and self.combo.isEnabled():
            self.task = self.controller.model.start(self._apply(self.wanted), "set log level")

    def _chosen(self, _index: int) -> None:
        level = self.combo.currentData()
        self.set_level(level if isinstance(level, str) else None)

    def set_level(self, level: str | None) -> asyncio.Task[Any] | None:
        """Choose a level (None: stop asking for logs where the protocol allows it)."""
        self.wanted = level
        index = self.combo.findData(level) if level is not None else 0
        self.combo.setCurrentIndex(max(0, index))
        if self._session() is None:
            return None
        self.task = self.controller.model.start(self._apply(level), "set log level")
        return self.task

    async def _apply(self, level: str | None) -> None:
        session = self._session()
        if session is None:
            return
        if level is None:
            if session.clear_log_level():
                self._set_status("requests no longer ask for logs")
            else:
                self._set_status("a legacy server keeps the last level set")
            return
        self._set_status("…")
        try:
            await session.set_log_level(level)
        except SessionError as exc:
            self._set_status(f"failed: {exc}", error=True)
            return
        if session.era is Era.MODERN:
            self._set_status(f"each request asks for {level}+")
        else:
            self._set_status(f"set to {level}")

    def _set_status(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setToolTip(plain_tooltip(text))
        color = colors().error if error else colors().muted
        self.status.setStyleSheet(f"color: {color.name()}" if text else "")


class PingControl(QWidget):
    """A Ping button and the last round-trip time."""

    def __init__(self, controller: ConnectionController) -> None:
        super().__init__()
        self.setObjectName("pingControl")
        self.controller = controller
        self.button = QPushButton("Ping")
        self.button.setObjectName("pingButton")
        self.button.clicked.connect(self.ping)
        self.result = PlainLabel()
        self.result.setObjectName("pingResult")
        self.result.setMinimumWidth(self.result.fontMetrics().horizontalAdvance("999.9 ms  "))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.button)
        layout.addWidget(self.result)
        self.task: asyncio.Task[Any] | None = None
        self.last_rtt: float | None = None
        controller.state_changed.connect(lambda _s, _d: self._update())
        controller.server_ready.connect(lambda _r: self._update())
        self._update()

    def _update(self) -> None:
        session = self.controller.model.server
        if session is None or not session.is_ready:
            self.button.setEnabled(False)
            self.button.setToolTip("Connect to ping the server.")
            self.result.setText("")
            return
        if session.era is Era.MODERN:
            self.button.setEnabled(False)
            self.button.setToolTip(
                "The modern protocol (2026-07-28) has no ping method. A liveness check is "
                "server/discover or any cheap list request (Send raw…)."
            )
            self.result.setText("")
            return
        self.button.setEnabled(self.task is None or self.task.done())
        self.button.setToolTip("Send ping and show the round-trip time.")

    def ping(self) -> asyncio.Task[Any] | None:
        session = self.controller.model.server
        if session is None or not session.is_ready or session.era is Era.MODERN:
            return None
        self.task = self.controller.model.start(self._ping(session), "ping")
        self._update()
        return self.task

    async def _ping(self, session: ServerConnection) -> None:
        self.button.setEnabled(False)
        self._show("…", None)
        started = time.perf_counter()
        try:
            await session.ping()
        except SessionError as exc:
            self._show("failed", str(exc))
            return
        finally:
            self.button.setEnabled(session.is_ready)
        self.last_rtt = time.perf_counter() - started
        ms = self.last_rtt * 1000
        self._show(f"{ms:.1f} ms" if ms < 100 else f"{ms:.0f} ms", None)

    def _show(self, text: str, error: str | None) -> None:
        self.result.setText(text)
        self.result.setToolTip(plain_tooltip(error or "round-trip time of the last ping"))
        self.result.setStyleSheet(f"color: {colors().error.name()}" if error else "")
