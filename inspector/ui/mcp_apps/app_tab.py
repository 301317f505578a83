"""The "App" tab of a tool that declares an MCP App (`_meta.ui.resourceUri`): it reads the
`ui://` resource through the session, renders it in a sandboxed view (inspector.ui.mcp_apps),
and hands it the latest call's input and result (or the call a card's "Show in App" picks).
QtWebEngine is loaded only when the tab is first shown with something to render. Reload
re-reads the resource and starts the app again; Close tears it down. Neither touches the
session. The app's messages are rows of the connection's traffic log (app→host, host→app).
"""

from __future__ import annotations

import logging
import time
from typing import Any, Final

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from inspector.core.server_connection import ServerConnection, SessionError
from inspector.features.catalog.lists import CatalogItem
from inspector.features.mcp_apps.events import AppEvent
from inspector.features.mcp_apps.meta import AppResource, AppResourceError, parse_app_resource
from inspector.features.mcp_apps.trace import app_note_record
from inspector.features.tool_calls import ToolCallRecord
from inspector.traffic.record import TrafficRecord
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.mcp_apps.app_view import AppView
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip, short
from inspector.ui.widgets.theme import colors

__all__ = ["AppTab", "ControllerServerSide"]

log = logging.getLogger(__name__)

_MAX_EVENT_LINES: Final = 500


class ControllerServerSide:
    """ServerSide over a connection: the app's rows go into its session's log and
    recording; its tool calls and reads go through the session like any other."""

    def __init__(self, controller: ConnectionController) -> None:
        self.controller = controller

    def _session(self) -> ServerConnection:
        session = self.controller.model.ready_server()
        if session is None:
            raise SessionError("not connected to the server")
        return session

    def report(self, record: TrafficRecord) -> None:
        session = self.controller.model.server
        if session is not None:
            session.report_side_traffic(record)
        else:  # disconnected: the log still shows what the app did
            self.controller.model.traffic.observe(record)

    def tool(self, name: str) -> dict[str, Any] | None:
        item = self.controller.model.catalog.tools.find(name)
        return item.raw if item is not None else None

    def tools_known(self) -> bool:
        return self.controller.model.catalog.tools.loaded

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return await self._session().call_tool(name, arguments)

    async def server_request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        return await self._session().request(method, params)


def _open_link(url: str) -> bool:
    """The system browser (or mail client): the host checked the scheme and the user said
    yes. Not the OAuth opener: that would load the auth machinery (cold start)."""
    qurl = QUrl(url, QUrl.ParsingMode.StrictMode)
    if not qurl.isValid() or qurl.scheme().lower() not in ("http", "https", "mailto"):
        return False
    return bool(QDesktopServices.openUrl(qurl))


class AppTab(QWidget):
    def __init__(self, item: CatalogItem, controller: ConnectionController, uri: str) -> None:
        super().__init__()
        self.setObjectName("appTab")
        self.item = item
        self.controller = controller
        self.uri = uri
        self.server = ControllerServerSide(controller)
        self.resource: AppResource | None = None
        self.view: AppView | None = None
        self.record: ToolCallRecord | None = None  # the call the app shows
        self._pending = False  # a render waits for the tab to be shown
        self._off_record: Any = None
        self.link_opener = _open_link
        self.confirm: Any = None  # tests: an async (question) -> Decision
        self.use_webengine: bool | None = None  # None: when installed (tests force False)

        self.status = PlainLabel(f"App {uri}: run the tool to see it.", wrap=True)
        self.status.setObjectName("appStatus")
        self.reload_button = QPushButton("Reload")
        self.reload_button.setToolTip("Read the resource again and restart the app")
        self.reload_button.clicked.connect(self.reload)
        self.open_button = QPushButton("Open without a call")
        self.open_button.setToolTip("Render the app now; it gets no tool input or result")
        self.open_button.clicked.connect(self.open_without_call)
        self.close_button = QPushButton("Close app")
        self.close_button.setToolTip("Tear the app down (ui/resource-teardown), then drop it")
        self.close_button.clicked.connect(self.close_app)
        bar = QHBoxLayout()
        bar.setContentsMargins(8, 6, 8, 2)
        bar.addWidget(self.status, 1)
        for button in (self.open_button, self.reload_button, self.close_button):
            bar.addWidget(button)
        self.sandbox_label = PlainLabel("", wrap=True)
        self.sandbox_label.setObjectName("appSandboxNote")
        self.sandbox_label.setStyleSheet(f"color: {colors().warn.name()};")
        self.sandbox_label.setVisible(False)
        self.placeholder = PlainLabel(
            "The app renders here, in a sandbox, with the input and result of the latest "
            "call (or of a call card's Show in App).",
            wrap=True,
        )
        self.placeholder.setStyleSheet(f"color: {colors().muted.name()};")
        self.stack = QStackedWidget()
        self.stack.addWidget(self.placeholder)
        self.event_box = QPlainTextEdit()
        self.event_box.setObjectName("appEvents")
        self.event_box.setReadOnly(True)
        self.event_box.setMaximumBlockCount(_MAX_EVENT_LINES)
        self.event_box.setPlaceholderText("What the app did: problems, logs, messages, sizes")
        self.event_box.setMaximumHeight(self.event_box.fontMetrics().lineSpacing() * 5 + 12)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        sandbox_row = QVBoxLayout()
        sandbox_row.setContentsMargins(8, 0, 8, 0)
        sandbox_row.addWidget(self.sandbox_label)
        layout.addLayout(sandbox_row)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.event_box)
        self._update_buttons()

    # ------------------------------------------------------------------ calls
    def follow(self, record: ToolCallRecord) -> None:
        """Show this call: its input now, its result when it comes."""
        if self._off_record is not None:
            self._off_record()
            self._off_record = None
        self.record = record
        if record.running:
            self._off_record = record.on_change(self._record_changed)
        self._request_render()

    def _record_changed(self, record: ToolCallRecord) -> None:
        if record is not self.record or record.running:
            return
        if self._off_record is not None:
            self._off_record()
            self._off_record = None
        view = self.view
        if view is None or view.host.closed:
            return
        if record.result is not None:
            view.host.set_result(record.result)
        else:
            view.host.cancel_call(record.error_message or record.status)

    def open_without_call(self) -> None:
        self.record = None
        self._pending = True
        self._render()

    def _request_render(self) -> None:
        self._pending = True
        if self.isVisible():
            self._render()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._pending:
            self._render()

    def _render(self) -> None:
        self._pending = False
        if self.resource is None:
            self._read()
            return
        self._build()

    # --------------------------------------------------------------- resource
    def _read(self) -> None:
        session = self.controller.model.ready_server()
        if session is None:
            self._set_status("Connect to the server to read the app resource.", error=True)
            return
        self._set_status(f"Reading {self.uri}…")
        self.controller.model.start(self._read_and_build(session), f"resources/read {self.uri}")

    async def _read_and_build(self, session: ServerConnection) -> None:
        try:
            result = await session.read_resource(self.uri)
        except SessionError as exc:
            self._set_status(f"Could not read {self.uri}: {exc}", error=True)
            return
        listed = self.controller.model.catalog.resources.find(self.uri)
        try:
            self.resource = parse_app_resource(
                self.uri, result, listed.raw if listed is not None else None
            )
        except AppResourceError as exc:
            self._set_status(str(exc), error=True)
            self.server.report(app_note_record(f"app {self.uri}: {exc}"))
            return
        self._build()

    def _build(self) -> None:
        resource = self.resource
        if resource is None:
            return
        self._drop_view()
        view = AppView(
            resource,
            self.server,
            self.item.raw,
            open_link=self.link_opener,
            confirm=self.confirm,
            use_webengine=self.use_webengine,
        )
        view.events.connect(self._on_event)
        self.view = view
        self.stack.addWidget(view)
        self.stack.setCurrentWidget(view)
        note = view.sandbox_note
        self.sandbox_label.setText(note or "")
        self.sandbox_label.setVisible(bool(note))
        record = self.record
        if record is not None:
            call_id = record.call.key if record.call is not None else None
            view.set_call(record.arguments, record.result, call_id)
            if not record.running and record.result is None:
                view.host.cancel_call(record.error_message or record.status)
            what = f"call #{record.serial}"
        else:
            what = "no call"
        for problem in view.problems:
            self._log_line(f"⚠ {problem}")
        engine = "" if view.webengine else " (QtWebEngine missing: HTML source shown)"
        self._set_status(f"App {resource.uri} · {what}{engine}")
        self._update_buttons()

    # ------------------------------------------------------------------- life
    def reload(self) -> None:
        """Read the resource again and restart the app (same call)."""
        self.resource = None
        self._log_line("── reload")
        self._pending = True
        self._render()

    def close_app(self) -> None:
        view = self.view
        if view is None:
            return
        self.view = None
        self._log_line("── closed")
        self.controller.model.start(self._close(view), "app teardown")
        self.stack.setCurrentWidget(self.placeholder)
        self._set_status(f"App {self.uri} closed. Run the tool or reload to open it again.")
        self._update_buttons()

    async def _close(self, view: AppView) -> None:
        try:
            await view.close_app()
        finally:
            if isValid(self) and isValid(view):  # the tab may have gone meanwhile
                self.stack.removeWidget(view)
                view.deleteLater()

    def _drop_view(self) -> None:
        view = self.view
        if view is None:
            return
        self.view = None
        view.dispose()
        self.stack.removeWidget(view)
        view.deleteLater()

    def dispose(self) -> None:
        self._drop_view()

    # ----------------------------------------------------------------- events
    def _on_event(self, event: AppEvent) -> None:
        stamp = time.strftime("%H:%M:%S")
        mark = "⚠ " if event.kind == "problem" else ""
        self._log_line(f"{stamp} {mark}{event.text}")
        if event.kind == "teardown":
            self.close_app()
        elif event.kind == "initialized":
            self._set_status(f"{self.status.text()} · ready")

    def _log_line(self, text: str) -> None:
        self.event_box.appendPlainText(short(text, 600))

    def _set_status(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setToolTip(plain_tooltip(text))
        self.status.setStyleSheet(f"color: {colors().error.name()};" if error else "")

    def _update_buttons(self) -> None:
        live = self.view is not None
        self.close_button.setEnabled(live)
        self.reload_button.setEnabled(live or self.resource is not None)
