"""One app on screen: the AppHost (protocol) joined to a sandboxed web surface, or, without
QtWebEngine, the fallback that says how to get it and shows the HTML source. Reload and
close never touch the session: they only replace or drop this view's page and host."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication, QPalette
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QScrollArea, QVBoxLayout, QWidget

from inspector.features.mcp_apps.consent import ConsentQuestion, Decision
from inspector.features.mcp_apps.csp import NetworkPolicy, csp_header
from inspector.features.mcp_apps.events import AppEvent
from inspector.features.mcp_apps.handshake import HostContext
from inspector.features.mcp_apps.host import AppHost
from inspector.features.mcp_apps.meta import AppResource, CspDeclaration
from inspector.features.mcp_apps.shell import app_document, shell_document
from inspector.features.mcp_apps.sizing import Fit, fit_height, max_height
from inspector.features.mcp_apps.trace import app_note_record
from inspector.traffic.record import TrafficRecord
from inspector.ui.mcp_apps.consent_dialog import ask_consent
from inspector.ui.mcp_apps.webengine import (
    INSTALL_HINT,
    prepare_sandbox,
    sandbox_note,
    webengine_available,
)
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors, is_dark

__all__ = ["AppView", "ServerSide"]

log = logging.getLogger(__name__)

_CONSOLE_ERROR: Final = 2  # QWebEnginePage.ErrorMessageLevel
_CONSOLE_WARNING: Final = 1
_NO_LIMIT: Final = 16777215  # QWIDGETSIZE_MAX


class ServerSide(Protocol):
    """The session side of an app (the workspace builds it from the connection)."""

    def report(self, record: TrafficRecord) -> None: ...
    def tool(self, name: str) -> dict[str, Any] | None: ...
    def tools_known(self) -> bool: ...
    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]: ...
    async def server_request(self, method: str, params: dict[str, Any]) -> dict[str, Any]: ...


Confirm = Callable[[ConsentQuestion], Awaitable[Decision]]


class _Services:
    """AppServices: the server side, plus what only the view knows (the user)."""

    def __init__(self, view: AppView, server: ServerSide) -> None:
        self.view = view
        self.server = server

    def report(self, record: TrafficRecord) -> None:
        self.server.report(record)

    def event(self, event: AppEvent) -> None:
        self.view.on_event(event)

    def tool(self, name: str) -> dict[str, Any] | None:
        return self.server.tool(name)

    def tools_known(self) -> bool:
        return self.server.tools_known()

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return await self.server.call_tool(name, arguments)

    async def server_request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        return await self.server.server_request(method, params)

    async def confirm(self, question: ConsentQuestion) -> Decision:
        return await self.view.confirm(question)

    def open_link(self, url: str) -> bool:
        return self.view.open_link(url)


def _css_variables() -> dict[str, str]:
    c = colors()
    palette = QGuiApplication.palette()
    role = QPalette.ColorRole
    return {
        "--color-background-primary": palette.color(role.Base).name(),
        "--color-background-secondary": palette.color(role.Window).name(),
        "--color-text-primary": palette.color(role.Text).name(),
        "--color-text-secondary": c.muted.name(),
        "--color-border-primary": palette.color(role.Mid).name(),
        "--color-text-danger": c.error.name(),
        "--color-text-warning": c.warn.name(),
        "--font-sans": "system-ui, sans-serif",
        "--font-mono": "monospace",
    }


class AppView(QWidget):
    """The app's page and its host. `events` carries every AppEvent for the tab."""

    events = Signal(object)

    def __init__(
        self,
        resource: AppResource,
        server: ServerSide,
        tool: dict[str, Any],
        *,
        open_link: Callable[[str], bool],
        confirm: Confirm | None = None,
        use_webengine: bool | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("appView")
        self.resource = resource
        self.server = server
        self._open_link = open_link
        self._confirm = confirm
        self.policy = NetworkPolicy(resource.csp)
        self.csp = csp_header(self.policy)
        enforced = CspDeclaration(
            connect=tuple(self.policy.allowed("connect")),
            resource=tuple(self.policy.allowed("resource")),
            frame=tuple(self.policy.allowed("frame")),
            base_uri=tuple(self.policy.base_uri),
        )
        variables = {k: v for k, v in _css_variables().items() if v}
        self.context = HostContext(
            theme="dark" if is_dark() else "light", styles=variables, tool=tool
        )
        self.host = AppHost(resource, _Services(self, server), self._send, self.context, enforced)
        self.problems: list[str] = []
        self.surface: Any = None
        self.source: QPlainTextEdit | None = None
        self.app_area: QScrollArea | None = None  # the app's area (with QtWebEngine)
        self.asked_height: int | None = None  # the app's latest size-changed height
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for warning in (*resource.warnings, *self.policy.warnings):
            self.flag(f"CSP: {warning}")
        self.webengine = webengine_available() if use_webengine is None else use_webengine
        if self.webengine:
            self._build_surface(layout)
        else:
            self._build_fallback(layout)
        self._flush = QTimer(self)
        self._flush.setInterval(1000)
        self._flush.timeout.connect(self.host.flush_dropped)
        self._flush.start()
        self._resize = QTimer(self)
        self._resize.setSingleShot(True)
        self._resize.setInterval(200)
        self._resize.timeout.connect(self._size_changed)

    # -------------------------------------------------------------- building
    def _build_surface(self, layout: QVBoxLayout) -> None:
        prepare_sandbox()
        from inspector.ui.mcp_apps.surface import AppSurface  # QtWebEngine: only now

        self.surface = AppSurface(
            shell_document(self.csp),
            app_document(self.resource.html, self.csp),
            self.policy,
            self,
            on_message=self.host.receive,
            on_refused=self.flag,
            on_console=self._console,
            on_loaded=self._loaded,
            on_crashed=self.flag,
        )
        # The app sits in a scrolling area: its width is the area's, its height what it
        # asks for (size-changed, clamped: features.apps.sizing), or the area's until then.
        scroll = QScrollArea(self)
        scroll.setObjectName("appScroll")
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget()
        inner_layout = QVBoxLayout(inner)
        inner_layout.setContentsMargins(0, 0, 0, 0)
        inner_layout.setSpacing(0)
        inner_layout.addWidget(self.surface.view, 1)
        inner_layout.addStretch(0)
        self._inner_layout = inner_layout
        scroll.setWidget(inner)
        scroll.viewport().installEventFilter(self)
        self.app_area = scroll
        layout.addWidget(scroll, 1)

    def _build_fallback(self, layout: QVBoxLayout) -> None:
        hint = PlainLabel(
            f"{INSTALL_HINT} Until then, here is the app's HTML ({len(self.resource.html):,} "
            "characters):",
            wrap=True,
        )
        hint.setObjectName("appInstallHint")
        hint.setStyleSheet(f"color: {colors().warn.name()};")
        layout.addWidget(hint)
        source = QPlainTextEdit()
        source.setObjectName("appSource")
        source.setReadOnly(True)
        source.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        source.setPlainText(self.resource.html)
        layout.addWidget(source, 1)
        self.source = source

    # ------------------------------------------------------------- app calls
    def set_call(
        self, arguments: dict[str, Any], result: dict[str, Any] | None, call_id: Any = None
    ) -> None:
        self.host.set_call(arguments, result, call_id)

    def _send(self, text: str) -> None:
        if self.surface is not None:
            self.surface.send(text)

    def _loaded(self, ok: bool) -> None:
        if not ok:
            self.flag("the app's page did not load")
            return
        try:
            self.host.page_loaded()
        except RuntimeError:  # no running loop (a test without qasync)
            log.debug("no event loop for the handshake timer")

    def _console(self, level: int, message: str) -> None:
        """The page's console: errors and refusals are problems (and note rows); the rest
        is shown in the tab only (an app's own debug output)."""
        if level < _CONSOLE_WARNING:
            self.on_event(AppEvent("log", f"console: {message[:500]}"))
            return
        if level >= _CONSOLE_WARNING:
            lowered = message.lower()
            blocked = "refused" in lowered or "blocked" in lowered or "sandbox" in lowered
            if level >= _CONSOLE_ERROR or blocked:
                self.flag(f"console: {message[:500]}")

    def on_event(self, event: AppEvent) -> None:
        if event.kind == "size" and self.app_area is not None:
            event = self._size_requested(event)
        if event.kind == "problem":
            self.problems.append(event.text)
        self.events.emit(event)

    def flag(self, text: str) -> None:
        """A refusal or failure: a note row in the log and a problem in the tab. The
        same text twice in a row (the shell's and the app's CSP both refuse) once."""
        if self.problems and self.problems[-1] == text:
            return
        self.server.report(app_note_record(f"app {self.resource.uri}: {text}"))
        self.on_event(AppEvent("problem", text))

    async def confirm(self, question: ConsentQuestion) -> Decision:
        if self._confirm is not None:
            return await self._confirm(question)
        return await ask_consent(question, self)

    def open_link(self, url: str) -> bool:
        return self._open_link(url)

    @property
    def sandbox_note(self) -> str | None:
        return sandbox_note() if self.webengine else None

    # ------------------------------------------------------------------ size
    def _size_requested(self, event: AppEvent) -> AppEvent:
        """Honour the app's height (within bounds); its width stays the area's."""
        width, height = event.data if isinstance(event.data, tuple) else (None, None)
        if height is None:
            return AppEvent("size", f"{event.text}; the width is the tab's", event.data)
        self.asked_height = height
        fit = self._apply_height()
        _width, visible = self._visible()
        shown = fit.describe(height, visible) if fit is not None else "not shown"
        note = "" if width is None else "; the width is the tab's"
        return AppEvent("size", f"{event.text}: shown at {shown}{note}", event.data)

    def _apply_height(self) -> Fit | None:
        if self.surface is None or self.asked_height is None:
            return None
        _width, visible = self._visible()
        fit = fit_height(self.asked_height, visible)
        self.surface.view.setFixedHeight(fit.height)
        self._inner_layout.setStretch(0, 0)
        self._inner_layout.setStretch(1, 1)  # the room below a short app stays empty
        return fit

    def _release_height(self) -> None:
        """The app fills the area again (a reloaded app has not asked yet)."""
        self.asked_height = None
        if self.surface is None:
            return
        self.surface.view.setMinimumHeight(0)
        self.surface.view.setMaximumHeight(_NO_LIMIT)
        self._inner_layout.setStretch(0, 1)
        self._inner_layout.setStretch(1, 0)

    @property
    def shown_height(self) -> int | None:
        """The app's height when it asked for one (None: it fills the area)."""
        if self.surface is None or self.asked_height is None:
            return None
        return int(self.surface.view.height())

    # ------------------------------------------------------------------ life
    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if self.app_area is None:
            self._area_changed()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            self.app_area is not None
            and watched is self.app_area.viewport()
            and event.type() == QEvent.Type.Resize
        ):
            self._area_changed()
        return False

    def _area_changed(self) -> None:
        self._apply_height()  # the cap follows the visible area
        if self.host.initialized:
            self._resize.start()  # tell the app, once the resizing settles
        else:  # not told yet: ui/initialize's answer carries the size
            self.context.width, self.context.max_height = self._container()

    def _visible(self) -> tuple[int, int]:
        area: QWidget = self.app_area.viewport() if self.app_area is not None else self
        return max(1, area.width()), max(1, area.height())

    def _container(self) -> tuple[int, int]:
        """containerDimensions: the area's width, and the tallest the app may be."""
        width, visible = self._visible()
        return width, max_height(visible)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # light/dark switched: tell the app
            variables = {k: v for k, v in _css_variables().items() if v}
            self.host.change_context(theme="dark" if is_dark() else "light", styles=variables)

    def _size_changed(self) -> None:
        width, height = self._container()
        self.host.change_context(width=width, max_height=height)

    def reload(self) -> None:
        """The page again from the resource, with a fresh host (the call is sent again)."""
        if self.surface is None:
            return
        old = self.host
        old.close()
        self._release_height()
        self.host = AppHost(
            self.resource, _Services(self, self.server), self._send, self.context, old.enforced
        )
        arguments, result = old.call
        if arguments is not None:
            self.host.set_call(arguments, result, self.context.call_id)
        self.surface.bridge.posted.disconnect()
        self.surface.bridge.posted.connect(self.host.receive)
        self._flush.timeout.disconnect()
        self._flush.timeout.connect(self.host.flush_dropped)
        self.surface.reload(shell_document(self.csp))

    async def close_app(self) -> None:
        """Teardown (the app may save its state), then the page goes."""
        await self.host.teardown()
        self.dispose()

    def dispose(self) -> None:
        self.host.close()
        self._flush.stop()
        if self.app_area is not None:
            self.app_area.viewport().removeEventFilter(self)
        if self.surface is not None:
            self.surface.dispose()
            self.surface = None
