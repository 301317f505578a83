"""The connection controller: one Session at a time, driven for the widgets.

It owns the asyncio tasks (kept, and their failures reported), turns session events
into the Qt-free stores (traffic, log messages, errors) and emits a few low-rate
signals (state, server ready, tools). Widgets never touch the Session directly.
"""

from __future__ import annotations

import asyncio
import enum
import functools
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from inspector.auth import AuthCancelled, AuthError
from inspector.features.asks.canned_replies import CannedReplies
from inspector.features.catalog.loader import CatalogLoader
from inspector.features.catalog.model import Catalog, CatalogKind, ListDiff
from inspector.features.catalog.pins import PinStore
from inspector.features.resource_watch import ResourceWatches
from inspector.protocol.events import (
    InvalidFrame,
    LateResponse,
    ListChanged,
    LogMessage,
    NotificationReceived,
    ProgressUpdate,
    ProtocolViolation,
    RequestFailed,
    UnmatchedResponse,
    VersionRenegotiated,
)
from inspector.protocol.versions import Era
from inspector.session import Call, ConnectError, Session, SessionError
from inspector.settings.connect import (
    SetupError,
    client_config_for,
    roots_for,
    transport_for,
)
from inspector.settings.profile_auth import ProfileAuth, ProfileAuthError
from inspector.settings.profiles import Profile
from inspector.storage.secrets import SecretStore
from inspector.traffic.error_store import ErrorStore
from inspector.traffic.log import TrafficLog
from inspector.traffic.log_messages import LogMessageStore
from inspector.transports.base import StderrLine, TransportClosed
from inspector.ui.controller.auth_opener import desktop_opener
from inspector.ui.controller.gui_responder import GuiResponder

__all__ = ["ConnState", "ConnectionController"]

log = logging.getLogger(__name__)


class ConnState(enum.StrEnum):
    DISCONNECTED = "disconnected"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    DISCONNECTING = "disconnecting"
    FAILED = "failed"  # could not connect
    LOST = "lost"  # the server went away while connected (crash, exit)


class ConnectionController(QObject):
    state_changed = Signal(str, str)  # ConnState value, detail sentence
    server_ready = Signal(object)  # SessionReady
    tools_changed = Signal()
    notice = Signal(str)  # a short sentence for the status bar
    catalog_relisted = Signal(str, object)  # kind, ListDiff: a re-list changed the list
    pins_changed = Signal()  # catalog_loader.pin_alerts changed

    def __init__(
        self,
        traffic: TrafficLog,
        messages: LogMessageStore,
        errors: ErrorStore,
        console: Callable[[str], None],
        secrets: SecretStore | None = None,
        pins: PinStore | None = None,
    ) -> None:
        super().__init__()
        self.traffic = traffic
        self.messages = messages
        self.errors = errors
        self.console = console
        self.secrets = secrets
        self.state = ConnState.DISCONNECTED
        self.detail = ""
        self.profile: Profile | None = None
        self.session: Session | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._lock: asyncio.Lock | None = None
        # The catalog (explorer): filled by the loader after connect, kept after a disconnect.
        self.catalog = Catalog()
        self.pins = pins
        self.catalog_loader = CatalogLoader(
            self.catalog, self.start, lambda category, text: self._report(category, text), pins
        )
        self.catalog_loader.relisted.add(self._relisted)
        self.catalog_loader.pins_changed.add(self.pins_changed.emit)
        self.catalog.tools.on_change(lambda _lst: self.tools_changed.emit())
        self.pin_scope: Callable[[Profile], str] = lambda p: p.id  # whose pins a profile uses
        # Resource subscriptions outlive the views that start them (engineer C).
        self.watches = ResourceWatches()
        # Server asks (engineer D): where their dialogs open, the canned sampling replies,
        # the live responder, and hooks that see each new session (tasks, MRTR rounds).
        self.dialog_parent: QWidget | None = None
        self.canned_replies: CannedReplies | None = None
        self.responder: GuiResponder | None = None
        self.session_hooks: list[Callable[[Session], None]] = []
        # Authorization (issue 7): OAuth per profile, its timeline and step-through gate.
        self.auth = ProfileAuth(secrets)
        self.auth.opener = desktop_opener(self.auth.note)

    # ---------------------------------------------------------------- tasks
    def start(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run `coro` as a kept task; a failure is reported, never lost."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("%s failed", task.get_name(), exc_info=exc)
            self.errors.add("internal", f"{task.get_name()} failed: {exc!r}")

    def _get_lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    # ---------------------------------------------------------------- intents
    def connect_profile(self, profile: Profile) -> asyncio.Task[Any]:
        busy = self.auth.login_profile
        if busy is not None and busy.id != profile.id:
            self.auth.cancel_login()  # another server's login would hold this connect
        return self.start(self._connect(profile), f"connect {profile.name}")

    def disconnect_server(self) -> asyncio.Task[Any]:
        self.auth.cancel_login()  # a login before connecting holds the connect
        return self.start(self._disconnect(), "disconnect")

    def reconnect(self) -> asyncio.Task[Any] | None:
        if self.profile is None:
            return None
        return self.connect_profile(self.profile)

    def send_raw(self, text: str) -> asyncio.Task[Any]:
        return self.start(self._send_raw(text), "send raw")

    def start_tool_call(
        self,
        name: str,
        arguments: dict[str, Any],
        on_progress: Callable[[ProgressUpdate], None],
        *,
        extra: dict[str, Any] | None = None,
    ) -> Call:
        """tools/call as a Call (progress, cancel): the caller awaits it in a kept task
        (`start`). `extra` adds to the params (e.g. run as a task).
        Raises SessionError when not connected."""
        session = self.session
        if session is None or not session.is_ready:
            raise SessionError("not connected")
        return session.client.start_tool_call(name, arguments, on_progress=on_progress, extra=extra)

    async def shutdown(self) -> None:
        """Close the session (the server is shut down with the transport's ladder)."""
        self.auth.cancel_login()
        await self._disconnect()
        for task in list(self._tasks):
            if task is not asyncio.current_task():
                task.cancel()

    # ---------------------------------------------------------------- state
    def _set_state(self, state: ConnState, detail: str = "") -> None:
        self.state = state
        self.detail = detail
        self.state_changed.emit(state.value, detail)

    @property
    def connected(self) -> bool:
        return self.state is ConnState.CONNECTED

    # ---------------------------------------------------------------- connect
    async def _connect(self, profile: Profile) -> None:
        async with self._get_lock():
            await self._close_session()
            self.profile = profile
            self.catalog.reset()
            self._set_state(ConnState.CONNECTING, profile.target)
            try:
                oauth = await self.auth.prepare(profile)  # logs in first if need be
                transport = transport_for(profile, self.secrets, oauth=oauth)
            except (SetupError, ProfileAuthError) as exc:
                self._fail(str(exc))
                return
            except AuthCancelled:
                self._fail("the login was cancelled")
                return
            except AuthError as exc:
                self._fail(f"authorization failed: {exc}")
                return
            responder = GuiResponder(
                roots_for(profile),
                self._ask_notice,
                parent=self.dialog_parent,
                profile_id=profile.id,
                canned=self.canned_replies,
            )
            self.responder = responder
            session = Session(transport, client_config_for(profile), responder)
            session.add_traffic_observer(self.traffic.observe)
            session.add_listener(functools.partial(self._on_item, session))
            for hook in self.session_hooks:
                hook(session)
            self.session = session
            self.console(f"── connecting to {profile.name}: {profile.target}")
            timeout = max(profile.timeouts.request or 60.0, 5.0)
            if oauth is not None and not oauth.logged_in:  # the login happens on the 401
                timeout = max(timeout, oauth.settings.login_timeout + 30.0)
            try:
                await session.connect(timeout=timeout)
            except ConnectError as exc:
                await asyncio.sleep(0.1)  # let the dying server's stderr arrive
                self._fail(self._with_stderr(str(exc), session))
                await session.close()
                self.session = None
                return
            info = session.server_info
            name = info.get("name", "?") if isinstance(info, dict) else "?"
            self._set_state(ConnState.CONNECTED, f"{name} · {session.protocol_version}")
            self.server_ready.emit(session.ready_info)
            self.catalog_loader.attach(session, self.pin_scope(profile))

    def _fail(self, reason: str) -> None:
        self._set_state(ConnState.FAILED, reason)
        self.errors.add("connection", f"could not connect: {reason}")
        self.console(f"── could not connect: {reason}")

    @staticmethod
    def _with_stderr(message: str, session: Session) -> str:
        closed = session.closed
        if closed is not None and closed.stderr_tail and closed.stderr_tail[-1] not in message:
            return f"{message} (last stderr: {' | '.join(closed.stderr_tail[-3:])})"
        return message

    # ---------------------------------------------------------------- catalog
    @property
    def tools(self) -> list[dict[str, Any]] | None:
        """The listed tools' raw definitions; None until the first listing ended."""
        lst = self.catalog.tools
        if lst.loaded or lst.error or lst.absent:
            return [i.raw for i in lst]
        return None

    @property
    def tools_error(self) -> str | None:
        return self.catalog.tools.error or self.catalog.tools.absent

    def reload_list(self, kind: CatalogKind) -> asyncio.Task[None] | None:
        return self.catalog_loader.reload(kind)

    def load_more(self, kind: CatalogKind) -> asyncio.Task[None] | None:
        return self.catalog_loader.load_more(kind)

    def load_all(self, kind: CatalogKind) -> asyncio.Task[None] | None:
        return self.catalog_loader.load_all(kind)

    def _relisted(self, kind: CatalogKind, diff: ListDiff) -> None:
        self.catalog_relisted.emit(kind, diff)
        self.notice.emit(f"{self.catalog[kind].method}: {diff.describe()}")

    def _report(self, category: str, text: str) -> None:
        self.errors.add(category, text)

    # ---------------------------------------------------------------- disconnect
    async def _disconnect(self) -> None:
        async with self._get_lock():
            if self.session is None:
                if self.state is not ConnState.DISCONNECTED:
                    self._set_state(ConnState.DISCONNECTED, "")
                return
            await self._close_session()
            self._set_state(ConnState.DISCONNECTED, "")

    async def _close_session(self) -> None:
        session = self.session
        if session is None:
            return
        self.session = None  # events from now on are from a session we left
        self.catalog_loader.detach()
        if self.state is ConnState.CONNECTED:
            self._set_state(ConnState.DISCONNECTING, "")
        await session.close()
        self.console("── disconnected")

    # ---------------------------------------------------------------- raw
    async def _send_raw(self, text: str) -> Call | None:
        session = self.session
        if session is None:
            raise SessionError("not connected")
        return await session.send_raw(text)

    # ---------------------------------------------------------------- roots
    def set_roots(self, roots: list[dict[str, Any]]) -> str:
        """Answer roots/list with `roots` from now on, and tell the server when the protocol
        lets us (legacy notifications/roots/list_changed, if roots.listChanged was declared).
        Returns what happened, as a sentence for the user."""
        if self.responder is not None:
            self.responder.roots = [dict(r) for r in roots]
        session = self.session
        if session is None or not session.is_ready:
            return "Roots saved; they are sent when a server asks."
        if session.era is Era.MODERN:
            return (
                "Roots updated. The modern protocol has no roots/list_changed notification: "
                "the server gets them the next time it asks."
            )
        declared = session.conn.config.capabilities.get("roots")
        if not (isinstance(declared, dict) and declared.get("listChanged")):
            return "Roots updated (roots.listChanged is not declared, so the server is not told)."
        try:
            session.notify("notifications/roots/list_changed")
        except SessionError as exc:
            return f"Roots updated, but the server could not be told: {exc}"
        return "Roots updated; notifications/roots/list_changed sent."

    # ---------------------------------------------------------------- events
    def _ask_notice(self, text: str, declined: bool) -> None:
        if declined:
            self.errors.add("server ask", text)
        self.notice.emit(text)

    def _on_item(self, session: Session, item: object) -> None:
        # The hot path (a flood of log notifications): test the common case first.
        if isinstance(item, NotificationReceived):
            typed = item.typed
            if isinstance(typed, LogMessage):
                # The session records the frame before it dispatches its events, so the
                # notification is the log's last row.
                last = len(self.traffic) - 1
                if last >= 0:
                    self.messages.add(typed.level, last)
            elif isinstance(typed, ListChanged) and session is self.session:
                self.catalog_loader.list_changed(typed.list_name)
            return
        if isinstance(item, StderrLine):
            self.console(item.text)
        elif isinstance(item, InvalidFrame):
            raw = item.invalid.raw
            shown = raw if isinstance(raw, str) else repr(raw)
            self.errors.add(
                "invalid frame",
                f"{item.invalid.reason}: {shown[:300]}",
                self._last_index(),
            )
        elif isinstance(item, ProtocolViolation):
            self.errors.add(
                "protocol violation", f"{item.rule}: {item.message}", self._last_index()
            )
        elif isinstance(item, UnmatchedResponse):
            self.errors.add("unmatched response", item.message, self._last_index())
        elif isinstance(item, LateResponse):
            self.errors.add(
                "late response",
                f"late response to {item.method} (given up: {item.why_given_up})",
                self._last_index(),
            )
        elif isinstance(item, RequestFailed):
            if item.kind != "cancelled" and item.method not in ("initialize", "server/discover"):
                message = item.message
                if not message.startswith(item.method):
                    message = f"{item.method}: {message}"
                self.errors.add("request failed", message)
        elif isinstance(item, VersionRenegotiated):
            self.errors.add("version", f"protocol {item.old} → {item.new}: {item.reason}")
        elif isinstance(item, TransportClosed):
            self._on_closed(session, item)

    def _last_index(self) -> int | None:
        return len(self.traffic.entries) - 1 if self.traffic.entries else None

    def _on_closed(self, session: Session, closed: TransportClosed) -> None:
        if session is not self.session or self.state is not ConnState.CONNECTED:
            return  # we asked for it, or the connect path reports it
        reason = closed.reason
        if closed.stderr_tail:
            reason += f" (last stderr: {' | '.join(closed.stderr_tail[-3:])})"
        self.errors.add("connection", f"the server went away: {reason}")
        self.console(f"── the server went away: {closed.reason}")
        self._set_state(ConnState.LOST, reason)
        self.session = None
        self.catalog_loader.detach()
        self.start(session.close(), "close lost session")
        self.tools_changed.emit()

    # ---------------------------------------------------------------- info
    def elapsed(self) -> float:
        return time.monotonic() - self.traffic.started_mono
