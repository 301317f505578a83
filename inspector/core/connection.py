"""One connection to one server, Qt-free: its session and everything that belongs to it.

A connection owns its traffic log, log messages and errors, the catalog and its loader,
resource watches, tasks, MRTR rounds, its authorization state and its recording, and the
connect / disconnect / reconnect logic. It holds one `ServerConnection` at a time
(`server`: the session and its request API, see `server_connection`) and tells the
front end what changed through `Listeners`; a front end adapts those (the Qt window turns
them into signals) and sends intents back (`connect_profile`, `use_roots`, ...); requests go through
`ready_server()`.

Several connections can live side by side (the app model opens them); nothing here is
shared between two of them but the app-wide stores they are given (secrets, pins).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import itertools
import time
from collections.abc import Callable, Coroutine, Hashable
from typing import TYPE_CHECKING, Any

from inspector.common.listeners import Listeners
from inspector.core.connection_state import ConnState
from inspector.core.front_end import (
    ClientResponder,
    OpenerFactory,
    ResponderFactory,
    policy_responders,
)
from inspector.core.recording import ConnectionRecording
from inspector.core.server_connection import ServerConnection, connection_for
from inspector.core.session_events import ROUTED_NOTIFICATIONS, SessionEventRouter
from inspector.core.task_feed import TaskFeed
from inspector.core.task_runner import TaskRunner
from inspector.features.catalog.lists import Catalog, CatalogKind, ListDiff
from inspector.features.catalog.loader import CatalogLoader
from inspector.features.catalog.pins import PinStore
from inspector.features.resource_watch import ResourceWatches, Watch, subscribe_supported
from inspector.features.tasks import TaskClient, TaskStore
from inspector.lint import LintStore, LiveLinter
from inspector.lint.live import loop_scheduler
from inspector.protocol.machine.events import SessionReady
from inspector.protocol.wire.jsonrpc import RequestId
from inspector.protocol.wire.versions import Era
from inspector.recording.live import AutoRecorder
from inspector.session import ConnectError, Session, SessionError
from inspector.settings.connect import SetupError, client_config_for, roots_for, transport_for
from inspector.settings.profiles import Profile, RootEntry
from inspector.storage.secrets import SecretStore
from inspector.traffic.error_store import ErrorStore
from inspector.traffic.log import TrafficLog
from inspector.traffic.log_messages import LogMessageStore
from inspector.traffic.rounds import RequestRounds
from inspector.transports.base import TransportClosed

if TYPE_CHECKING:
    # The auth machinery (httpx, joserfc, keyring) loads when a profile first needs it.
    from inspector.auth import OAuth
    from inspector.auth.flow.events import Level
    from inspector.settings.profile_auth import ProfileAuth

__all__ = ["ConnectionModel"]


def _cache_key(profile: Profile) -> str:
    """Which server a catalog is of, for keeping fresh lists across a reconnect: the whole
    profile (target, era, headers, auth settings), hashed (no value kept in the clear)."""
    return hashlib.sha256(profile.model_dump_json().encode()).hexdigest()


def _own_scope(profile: Profile) -> str:
    return profile.id


def _round_key(session: Session, serial: int, wire_id: RequestId) -> Hashable | None:
    """The group of an outgoing request: the core's key, unique per session and connection
    (a re-initialize starts a new connection whose keys start again)."""
    key = session.conn.key_of_wire_id(wire_id)
    return None if key is None else (serial, id(session.conn), key)


class ConnectionModel:
    def __init__(
        self,
        *,
        secrets: SecretStore | None = None,
        responders: ResponderFactory = policy_responders,
        opener: OpenerFactory | None = None,
        pins: PinStore | None = None,
        pin_scope: Callable[[Profile], str] = _own_scope,
        recorder: AutoRecorder | None = None,
        ui_apps: bool = False,
    ) -> None:
        """`responders` answers each session's asks; `opener` brings an authorization URL to
        a browser; `pins` checks tool definitions under `pin_scope(profile)`; `recorder`
        records every session (None: nothing is recorded); `ui_apps`: the front end renders
        MCP Apps, so its sessions declare the extension (the GUI; never a headless run)."""
        self.secrets = secrets
        self._responders = responders
        self._pin_scope = pin_scope
        self.ui_apps = ui_apps
        # What changed, for the front end.
        self.state_changed: Listeners[[ConnState, str]] = Listeners("state listener")
        self.server_ready: Listeners[[SessionReady]] = Listeners("server ready listener")
        self.tools_changed: Listeners[[]] = Listeners("tools listener")
        self.relisted: Listeners[[CatalogKind, ListDiff]] = Listeners("relist listener")
        self.notice: Listeners[[str]] = Listeners("notice listener")  # for the status bar
        self.console: Listeners[[str]] = Listeners("console listener")  # server console lines
        # A new session, before it connects (observers that must see the handshake).
        self.session_started: Listeners[[ServerConnection]] = Listeners("session listener")
        # The connection's state.
        self.state = ConnState.DISCONNECTED
        self.detail = ""
        self.profile: Profile | None = None
        # The live session and its request API (None when not connected).
        self.server: ServerConnection | None = None
        self.responder: ClientResponder | None = None
        self._lock: asyncio.Lock | None = None
        # Its stores.
        self.traffic = TrafficLog()
        self.messages = LogMessageStore(self.traffic)
        self.errors = ErrorStore()
        self.traffic.on_clear(self.errors.forget_entries)
        # Every server message, linted behind the log (off its hot path).
        self.lint = LintStore()
        self.linter = LiveLinter(self.traffic, self.lint, loop_scheduler)
        self.runner = TaskRunner(functools.partial(self._report, "internal"))
        # The catalog (explorer): filled by the loader after connect, kept after a disconnect.
        self.catalog = Catalog()
        self.pins = pins
        self.catalog_loader = CatalogLoader(self.catalog, self.start, self._report, pins)
        self.catalog_loader.relisted.add(self._relisted)
        self.catalog.tools.on_change(lambda _lst: self.tools_changed.emit())
        # Resource subscriptions outlive the views that start them.
        self.watches = ResourceWatches()
        self.rounds = RequestRounds(self.traffic)  # MRTR rounds of one request, in the log
        self._serial = itertools.count(1)
        self.task_store = TaskStore()
        self.tasks = TaskClient(self.task_store, lambda: self.server, lambda: self.responder)
        self._task_feed = TaskFeed(self.tasks, lambda: self.session)
        # OAuth per profile (`auth`): built on first use; a stdio window never loads it.
        self._opener = opener
        self._auth: ProfileAuth | None = None
        self.auth_created: Listeners[[ProfileAuth]] = Listeners("auth created")
        self.recording = (
            ConnectionRecording(recorder, self.traffic, self.errors, secrets, self.lint)
            if recorder is not None
            else None
        )
        self._events = SessionEventRouter(
            self.traffic,
            self.messages,
            self.errors,
            self.console.emit,
            self._list_changed,
            self._on_closed,
            self.linter.violation,
        )

    # ---------------------------------------------------------------- tasks
    def start(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run `coro` as a kept task; a failure goes to the Errors store."""
        return self.runner.start(coro, name)

    def _get_lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    # ---------------------------------------------------------------- intents
    @property
    def auth(self) -> ProfileAuth:
        """OAuth per profile, its timeline and step-through gate; kept across reconnects.
        Built (and the HTTP and auth stacks imported) on first use."""
        if self._auth is None:
            from inspector.settings.profile_auth import ProfileAuth

            opener = self._opener
            self._auth = ProfileAuth(
                self.secrets, opener=opener(self._auth_note) if opener else None
            )
            self.auth_created.emit(self._auth)
        return self._auth

    def _cancel_login(self) -> None:
        if self._auth is not None:
            self._auth.cancel_login()

    def connect_profile(self, profile: Profile) -> asyncio.Task[Any]:
        busy = self._auth.login_profile if self._auth is not None else None
        if busy is not None and busy.id != profile.id:
            self._cancel_login()  # another server's login would hold this connect
        return self.start(self._connect(profile), f"connect {profile.name}")

    def disconnect_server(self) -> asyncio.Task[Any]:
        self._cancel_login()  # a login before connecting holds the connect
        return self.start(self._disconnect(), "disconnect")

    def reconnect(self) -> asyncio.Task[Any] | None:
        if self.profile is None:
            return None
        return self.connect_profile(self.profile)

    def ready_server(self) -> ServerConnection | None:
        """The server's request API while its session is ready (None otherwise): what a
        front end sends its requests through (`ServerConnection`)."""
        server = self.server
        return server if server is not None and server.is_ready else None

    async def shutdown(self) -> None:
        """Close the session (the server is shut down with the transport's ladder). The
        connection is over: what the live linter has not linted yet (a big listing's
        slices) is dropped, not waited for."""
        self.linter.close()
        self._cancel_login()
        await self._disconnect()
        self.runner.cancel_all()

    # ---------------------------------------------------------------- resource watches
    def can_watch(self) -> tuple[bool, str]:
        """Whether the live server lets a resource be watched, and why not."""
        return subscribe_supported(self.session)

    def watch_of(self, uri: str) -> Watch | None:
        """The watch of `uri` in the live session (watches of an earlier one are gone)."""
        return self.watches.get(uri, self.session)

    async def watch(self, uri: str) -> Watch:
        """Start watching `uri` (see `ResourceWatches.subscribe`). Raises SessionError when
        not connected."""
        session = self.session
        if session is None:
            raise SessionError("not connected")
        return await self.watches.subscribe(session, uri)

    # ---------------------------------------------------------------- state
    def _set_state(self, state: ConnState, detail: str = "") -> None:
        self.state = state
        self.detail = detail
        if state in (ConnState.DISCONNECTED, ConnState.LOST, ConnState.FAILED):
            self.tasks.stop()
        self.state_changed.emit(state, detail)
        if self.recording is not None:
            self.recording.state_changed(state, detail, self.session)

    @property
    def connected(self) -> bool:
        return self.state is ConnState.CONNECTED

    @property
    def session(self) -> Session | None:
        """The live session's driver, for the observers on this floor (the catalog loader,
        tasks, recording); a front end uses `server`, its request API."""
        server = self.server
        return None if server is None else server.session

    def elapsed(self) -> float:
        return time.monotonic() - self.traffic.started_mono

    # ---------------------------------------------------------------- connect
    async def _connect(self, profile: Profile) -> None:
        async with self._get_lock():
            await self._close_session()
            self.profile = profile
            # The lists of the same server, still fresh and public, are kept (no re-list).
            self.catalog_loader.prepare(_cache_key(profile))
            self._set_state(ConnState.CONNECTING, profile.target)
            try:
                oauth = await self._prepare_auth(profile)  # logs in first if need be
                transport = transport_for(profile, self.secrets, oauth=oauth)
            except SetupError as exc:
                self._fail(str(exc))
                return
            responder = self._responders(profile, roots_for(profile), self._ask_notice)
            self.responder = responder
            server = connection_for(
                profile,
                responder=responder,
                transport=transport,
                config=client_config_for(profile, ui_apps=self.ui_apps),
            )
            server.auto_reinitialize = True  # HTTP 404 for the session: one new one
            session = server.session
            self._follow(server, profile)
            self.server = server
            self.console.emit(f"── connecting to {profile.name}: {profile.target}")
            timeout = max(profile.timeouts.request or 60.0, 5.0)
            if oauth is not None and not oauth.logged_in:  # the login happens on the 401
                timeout = max(timeout, oauth.settings.login_timeout + 30.0)
            try:
                await session.connect(timeout=timeout)
            except ConnectError as exc:
                await asyncio.sleep(0.1)  # let the dying server's stderr arrive
                self._fail(self._with_stderr(str(exc), session))
                await session.close()
                self.server = None
                self.linter.release()
                return
            self.linter.session_ready(session.protocol_version)
            info = session.server_info
            name = info.get("name", "?") if isinstance(info, dict) else "?"
            self._set_state(ConnState.CONNECTED, f"{name} · {session.protocol_version}")
            ready = session.ready_info
            if ready is not None:
                if self.recording is not None:
                    self.recording.ready(ready)
                self.server_ready.emit(ready)
            self.catalog_loader.attach(session, self._pin_scope(profile))

    def _follow(self, server: ServerConnection, profile: Profile) -> None:
        """Everything that observes a new session, before it connects."""
        session = server.session
        self.linter.begin_session()
        session.add_traffic_observer(self.traffic.observe, self.traffic.observe_many)
        session.add_traffic_observer(self.messages.observe, self.messages.observe_many)
        session.add_listener(
            functools.partial(self._events.route, session), notifications=ROUTED_NOTIFICATIONS
        )
        serial = next(self._serial)
        self.rounds.set_key_lookup(functools.partial(_round_key, session, serial))
        self._task_feed.follow(session)
        if self.recording is not None:
            self.recording.session_started(session, profile)
        self.session_started.emit(server)

    def _fail(self, reason: str) -> None:
        self._set_state(ConnState.FAILED, reason)
        self.errors.add("connection", f"could not connect: {reason}")
        self.console.emit(f"── could not connect: {reason}")

    @staticmethod
    def _with_stderr(message: str, session: Session) -> str:
        closed = session.closed
        if closed is not None and closed.stderr_tail and closed.stderr_tail[-1] not in message:
            return f"{message} (last stderr: {' | '.join(closed.stderr_tail[-3:])})"
        return message

    async def _prepare_auth(self, profile: Profile) -> OAuth | None:
        """The profile's OAuth, logged in first if need be; None for a profile without
        OAuth (a stdio one loads no auth at all). Raises `SetupError` with the sentence
        the connection fails with."""
        if profile.transport != "http" or profile.http.auth.kind != "oauth":
            return None
        from inspector.auth import AuthCancelled, AuthError
        from inspector.settings.profile_auth import ProfileAuthError

        try:
            return await self.auth.prepare(profile)
        except ProfileAuthError as exc:
            raise SetupError(str(exc)) from None
        except AuthCancelled:
            raise SetupError("the login was cancelled") from None
        except AuthError as exc:
            raise SetupError(f"authorization failed: {exc}") from None

    def _auth_note(self, step: str, message: str, level: Level, url: str | None) -> None:
        self.auth.note(step, message, level, url)

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

    def _relisted(self, kind: CatalogKind, diff: ListDiff) -> None:
        self.relisted.emit(kind, diff)
        self.notice.emit(f"{self.catalog[kind].method}: {diff.describe()}")

    def _list_changed(self, session: Session, list_name: str) -> None:
        if session is self.session:
            self.catalog_loader.list_changed(list_name)

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
        self.server = None  # events from now on are from a session we left
        self.catalog_loader.detach()
        if self.state is ConnState.CONNECTED:
            self._set_state(ConnState.DISCONNECTING, "")
        await session.close()
        self.console.emit("── disconnected")

    def _on_closed(self, session: Session, closed: TransportClosed) -> None:
        if session is not self.session or self.state is not ConnState.CONNECTED:
            return  # we asked for it, or the connect path reports it
        reason = closed.reason
        if closed.stderr_tail and closed.stderr_tail[-1][:200] not in reason:
            reason += f" (last stderr: {' | '.join(closed.stderr_tail[-3:])})"
        self.errors.add("connection", f"the server went away: {reason}")
        self.console.emit(f"── the server went away: {closed.reason}")
        self._set_state(ConnState.LOST, reason)
        self.server = None
        self.catalog_loader.detach()
        self.start(session.close(), "close lost session")
        self.tools_changed.emit()

    # ---------------------------------------------------------------- roots
    def use_roots(self, roots: list[RootEntry]) -> str:
        """The connection's profile has new roots: keep them in its copy and answer with
        them from now on (`set_roots`). Returns what happened, as a sentence."""
        profile = self.profile
        if profile is None:
            return "Roots saved; they are sent when a server asks."
        self.profile = profile.model_copy(deep=True, update={"roots": list(roots)})
        return self.set_roots(roots_for(self.profile))

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

    # ---------------------------------------------------------------- errors
    def _report(self, category: str, text: str) -> None:
        self.errors.add(category, text)

    def _ask_notice(self, text: str, declined: bool) -> None:
        if declined:
            self.errors.add("server ask", text)
        self.notice.emit(text)
