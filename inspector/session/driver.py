"""The async driver: one transport plus one `ClientConnection`, behind an awaitable API.

The session owns the IO the sans-IO core leaves out: it reads transport events,
feeds frames to the connection, writes what the connection queues, runs its
timers, hands server asks to the `Responder`, and reports every frame (valid or
not) to the traffic observers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Collection
from typing import Any, Literal

from inspector.common.listeners import Unsubscribe
from inspector.common.tasks import settle_tasks
from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.machine.connection import ClientConfig, ClientConnection, ConnectionState
from inspector.protocol.machine.events import (
    AskCancelled,
    Event,
    NotificationReceived,
    ProgressUpdate,
    RequestCompleted,
    RequestFailed,
    ServerAskReceived,
    SessionReady,
)
from inspector.protocol.wire.errors import LocalProtocolError
from inspector.protocol.wire.jsonrpc import (
    ErrorResponse,
    Invalid,
    Message,
    Request,
    encode,
    parse_frame,
)
from inspector.protocol.wire.versions import Era
from inspector.session.ask_runner import AskRunner
from inspector.session.call import Call, ProgressCallback, new_call_future
from inspector.session.client import McpClient
from inspector.session.deadline_timer import DeadlineTimer
from inspector.session.exceptions import (
    ConnectError,
    ConnectionClosed,
    ConnectTimeout,
    RequestNotAllowed,
    SessionError,
    error_for,
)
from inspector.session.expiry import ExpiryReplay, not_replayed
from inspector.session.frames import REINIT_ONCE, REINIT_REFUSED, typed_wire
from inspector.session.intake import FrameIntake
from inspector.session.listeners import SessionItem, SessionListener, SessionListeners
from inspector.session.outgoing import outgoing_for
from inspector.session.resend_policy import MAX_RESENDS, ResendPolicy
from inspector.session.responder import PolicyResponder, Responder
from inspector.session.tool_definitions import ToolDefinitions
from inspector.session.tool_headers import ToolHeaderRegistry
from inspector.session.traffic_reporter import TrafficReporter
from inspector.traffic.record import TrafficBatchObserver, TrafficObserver, TrafficRecord
from inspector.transports.base import (
    DeliveryFailed,
    FrameReceived,
    FramesReceived,
    HttpExchange,
    Outgoing,
    SessionExpired,
    StderrLine,
    StreamLost,
    Transport,
    TransportClosed,
    TransportError,
)

__all__ = ["Session", "SessionItem", "SessionListener"]

log = logging.getLogger(__name__)


class Session:
    """The async driver. `client` is the MCP client API over it (`session.client.call_tool`,
    `session.client.read_resource`, ...); the driver itself moves messages."""

    def __init__(
        self,
        transport: Transport,
        config: ClientConfig | None = None,
        responder: Responder | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_pages: int = 100,
    ) -> None:
        self.transport = transport
        self.conn = ClientConnection(config)
        self.responder: Responder = responder or PolicyResponder()
        self.max_pages = max_pages
        self._clock = clock
        self._traffic = TrafficReporter(transport.kind, clock)
        self._intake = FrameIntake(self._traffic, self._dispatch, clock, transport.kind)
        self._listeners = SessionListeners()
        self._calls: dict[int, Call] = {}
        self._progress: dict[int, ProgressCallback] = {}
        self._asks = AskRunner(self._respond, self.answer_ask, self.reject_ask)
        self._tasks: list[asyncio.Task[None]] = []
        self._outq: asyncio.Queue[tuple[str, Outgoing] | None] = asyncio.Queue()
        # modern HTTP: the x-mcp-header specs of listed tools, filled by the client
        self.tool_headers = ToolHeaderRegistry()
        self.tool_definitions = ToolDefinitions()  # fed by every tools/list result
        self.client = McpClient(self, self.tool_headers, self.tool_definitions)
        self.auto_reinitialize = False
        self._reinit_spent = False  # re-initialized, and no request of the user's since
        self.session_expired: str | None = None
        self._reinit_task: asyncio.Task[None] | None = None
        self._resends = ResendPolicy()
        self._replay = ExpiryReplay()  # safe requests to send again after a re-initialize
        self._ready: asyncio.Future[SessionReady] | None = None
        self._timer = DeadlineTimer(clock, self._on_timer)  # the next request deadline
        self._closed: TransportClosed | None = None
        self._closing = False
        self._close_task: asyncio.Future[None] | None = None
        self.ready_info: SessionReady | None = None

    # ----------------------------------------------------------- observers
    def add_traffic_observer(
        self, observer: TrafficObserver, many: TrafficBatchObserver | None = None
    ) -> Unsubscribe:
        """Every frame both ways, valid or not, and what the session did (the log, the
        recorder). `many`, if given, takes plain frames that arrived together in one call
        (the same records, in order) instead of `observer` once per frame."""
        return self._traffic.add(observer, many)

    def report_side_traffic(self, record: TrafficRecord) -> None:
        """Traffic beside MCP that belongs in this session's log and recording (e.g. the
        exchanges with a model that answered a sampling ask)."""
        self._traffic.side(record)

    def add_listener(
        self, listener: SessionListener, *, notifications: Collection[str] | None = None
    ) -> Unsubscribe:
        """What the frames meant: protocol events, stderr lines, HTTP exchanges, the end.

        `notifications`: the notification methods the listener wants to hear of (None:
        every one); it is not called for the others.
        """
        return self._listeners.add(listener, notifications)

    def _notify(self, item: SessionItem) -> None:
        self._listeners.emit(item)

    # ------------------------------------------------------------ state
    @property
    def era(self) -> Era:
        return self.conn.era

    @property
    def transport_kind(self) -> str:
        return self.transport.kind

    def use_log_level(self, level: str | None) -> None:
        """Modern era: the level every later request carries in its _meta (None: none)."""
        self.conn.config.log_level = level

    @property
    def protocol_version(self) -> str | None:
        return self.conn.protocol_version

    @property
    def server_info(self) -> dict[str, Any]:
        return self.conn.server_info

    @property
    def server_capabilities(self) -> dict[str, Any]:
        return self.conn.server_capabilities or {}

    @property
    def instructions(self) -> str | None:
        return self.conn.instructions

    @property
    def closed(self) -> TransportClosed | None:
        """Set once the transport has ended (with the reason)."""
        return self._closed

    @property
    def is_ready(self) -> bool:
        return self.conn.state is ConnectionState.READY and self._closed is None

    # ----------------------------------------------------------- lifecycle
    async def connect(self, timeout: float | None = None) -> SessionReady:
        """Start the transport and run the handshake for the configured era."""
        loop = asyncio.get_running_loop()
        self._ready = loop.create_future()
        # The outcome is delivered to connect()'s caller; if that caller has gone (timed
        # out, cancelled), nobody reads it, and that is fine: mark it read.
        self._ready.add_done_callback(lambda f: f.cancelled() or f.exception())
        try:
            await self.transport.start()
        except TransportError as exc:
            raise ConnectError(str(exc)) from exc
        self._tasks.append(asyncio.create_task(self._read_loop(), name="session-reader"))
        self._tasks.append(asyncio.create_task(self._write_loop(), name="session-writer"))
        self.conn.start(self._clock())
        self._after_change()
        try:
            if timeout is None:
                return await asyncio.shield(self._ready)
            return await asyncio.wait_for(asyncio.shield(self._ready), timeout)
        except TimeoutError:
            raise ConnectTimeout(f"the handshake took longer than {timeout:g} s") from None

    async def close(self) -> None:
        """Shut the server down (the transport's ladder) and fail what is pending.

        Idempotent; every caller, concurrent ones too, returns once the end is complete.
        """
        if self._close_task is None:
            self._close_task = asyncio.ensure_future(self._close())
        await asyncio.shield(self._close_task)

    async def _close(self) -> None:
        self._closing = True
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(ConnectError("the session was closed during the handshake"))
        self._timer.cancel()
        self._asks.cancel_all("the session was closed")
        # Let queued frames go out first (e.g. a cancellation), then end the writer.
        await self._outq.put(None)
        writer = self._tasks[1] if len(self._tasks) > 1 else None
        if writer is not None:
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(writer), 2.0)
        try:
            await self.transport.close()
        finally:
            for event in self.conn.connection_lost("the session was closed"):
                self._dispatch(event)
            await settle_tasks(self._tasks, 2.0, log, "a session task")

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------ requests
    def start_request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: float | Literal["default"] | None = "default",
        max_total: float | Literal["default"] | None = "default",
        on_progress: ProgressCallback | None = None,
        override: bool = False,
    ) -> Call:
        """Queue a request and return its `Call` at once (for cancel and progress)."""
        self._reinit_spent = False  # a new request may re-initialize once again
        key = self._queue(method, params, timeout, max_total, on_progress, override)
        call = Call(key, method, self.cancel, new_call_future(), self._clock())
        self._calls[key] = call
        return call

    def _queue(
        self,
        method: str,
        params: dict[str, Any] | None,
        timeout: float | Literal["default"] | None = "default",
        max_total: float | Literal["default"] | None = "default",
        on_progress: ProgressCallback | None = None,
        override: bool = False,
    ) -> int:
        if self._closed is not None:
            raise ConnectionClosed(
                RequestFailed(0, method, "closed", f"{method}: {self._closed.reason}")
            )
        try:
            key = self.conn.send_request(
                method,
                params,
                now=self._clock(),
                timeout=timeout,
                max_total=max_total,
                progress=on_progress is not None,
                override=override,
            )
        except LocalProtocolError as exc:
            raise RequestNotAllowed(exc) from exc
        if on_progress is not None:
            self._progress[key] = on_progress
        self._after_change()
        return key

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: float | Literal["default"] | None = "default",
        on_progress: ProgressCallback | None = None,
        override: bool = False,
    ) -> dict[str, Any]:
        call = self.start_request(
            method, params, timeout=timeout, on_progress=on_progress, override=override
        )
        return await call.result()

    def cancel(self, key: int, reason: str = "cancelled by the user") -> None:
        events = self.conn.cancel(key, reason, self._clock())
        for event in events:
            self._dispatch(event)
        self._after_change()

    # ----------------------------------------------------- hand-written messages
    def fresh_id(self) -> int:
        """A request id that no request in flight uses, for a message written by hand."""
        return self.conn.fresh_id()

    @property
    def client_info(self) -> dict[str, Any]:
        """The clientInfo this session announces (a hand-written message may carry it)."""
        return self.conn.config.client_info

    @property
    def client_capabilities(self) -> dict[str, Any]:
        """The capabilities this session declares (a hand-written message may carry them)."""
        return self.conn.config.capabilities

    async def send_raw(self, text: str) -> Call | None:
        """Send exactly what the user typed (as one line: `typed_wire`). A request gets
        paired and returns a Call."""
        wire = typed_wire(text)
        frame = parse_frame(wire)
        call: Call | None = None
        if isinstance(frame, Request):
            key = self.conn.track_raw_request(frame, self._clock())
            future = new_call_future()
            call = Call(key, frame.method, self.cancel, future, self._clock())
            self._calls[key] = call
        self._traffic.sent(wire, frame)
        try:
            await self.transport.send(wire, info=self._outgoing(frame))
        except TransportError as exc:
            if call is not None:
                self.cancel(call.key, f"not sent: {exc}")
            raise
        self._after_change()
        return call

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Send a client notification (e.g. notifications/roots/list_changed)."""
        if self._closed is not None:
            raise ConnectionClosed(
                RequestFailed(0, method, "closed", f"{method}: {self._closed.reason}")
            )
        self.conn.send_notification(method, params)
        self._after_change()

    def answer_ask(self, ask_id: int, result: dict[str, Any]) -> None:
        for event in self.conn.answer_ask(ask_id, result, self._clock()):
            self._dispatch(event)
        self._after_change()

    def reject_ask(self, ask_id: int, message: str) -> None:
        for event in self.conn.reject_ask(ask_id, message, self._clock()):
            self._dispatch(event)
        self._after_change()

    # ------------------------------------------------------------- plumbing
    def _after_change(self) -> None:
        """Flush what the connection queued and re-arm the timer."""
        for message in self.conn.data_to_send():
            self._send_message(message)
        self._timer.arm(None if self._closing else self.conn.next_deadline())
        self._check_ready()

    def _send_message(self, message: Message) -> None:
        text = encode(message)
        info = self._outgoing(message)
        if info.cancels is not None and info.era == "modern" and self.transport.kind == "http":
            # spec 2026-07-28 streamable HTTP: the transport cancels by closing the response
            # stream and sends no notifications/cancelled; the log must not show one going out.
            self._traffic.note(
                f"request {info.cancels!r} cancelled by closing its response stream "
                "(streamable HTTP sends no notifications/cancelled)"
            )
        else:
            self._traffic.sent(text, message)
        self._outq.put_nowait((text, info))

    def _outgoing(self, frame: Message | Invalid) -> Outgoing:
        return outgoing_for(frame, self.era, self.conn.protocol_version, self.tool_headers)

    def _on_timer(self) -> None:
        for event in self.conn.handle_timer(self._clock()):
            self._dispatch(event)
        self._after_change()

    def _check_ready(self) -> None:
        ready = self._ready
        if ready is None or ready.done():
            return
        if self.conn.state in (ConnectionState.FAILED, ConnectionState.CLOSED):
            why = self.conn.failure or "the handshake failed"
            timed_out = self.conn.handshake_timed_out
            ready.set_exception(ConnectTimeout(why) if timed_out else ConnectError(why))

    async def _write_loop(self) -> None:
        while True:
            item = await self._outq.get()
            if item is None:
                return
            text, info = item
            try:
                await self.transport.send(text, info=info)
            except TransportError as exc:
                log.info("could not send: %s", exc)
                # The read loop will see the transport end and fail pending requests.

    async def _read_loop(self) -> None:
        try:
            async for event in self.transport.events():
                if type(event) is FramesReceived:
                    done = self._on_frames(event, 0)
                    # A queue with items does not suspend get(): let the loop (the GUI)
                    # breathe between reads, and within a read that takes long.
                    await asyncio.sleep(0)
                    while done < len(event):
                        done = self._on_frames(event, done)
                        await asyncio.sleep(0)
                elif type(event) is FrameReceived:
                    self._on_frame(event)
                elif isinstance(event, StderrLine):
                    self._on_stderr(event)
                elif isinstance(event, HttpExchange):
                    self._on_http(event)
                elif isinstance(event, DeliveryFailed):
                    self._on_delivery_failed(event)
                elif isinstance(event, StreamLost):
                    self._on_stream_lost(event)
                elif isinstance(event, SessionExpired):
                    self._on_session_expired(event)
                elif isinstance(event, TransportClosed):
                    self._on_closed(event)
                    return
        except Exception as exc:
            log.exception("session read loop failed")
            self._on_closed(TransportClosed(f"reading failed: {exc}", error=True))

    def _on_frames(self, batch: FramesReceived, start: int) -> int:
        """The frames of one read from `start` (as many as fit in the intake's budget);
        the outbox and the timer once after them. Returns where it stopped."""
        end = self._intake.take_batch(self.conn, batch, start)
        self._after_change()
        return end

    def _on_frame(self, event: FrameReceived) -> None:
        self._intake.take_one(self.conn, event)
        self._after_change()

    def _on_delivery_failed(self, event: DeliveryFailed) -> None:
        error = None
        if event.error is not None:
            code = event.error.get("code")
            message = event.error.get("message")
            if isinstance(code, int) and not isinstance(code, bool):
                error = ErrorResponse(
                    event.wire_id,
                    code,
                    message if isinstance(message, str) else event.reason,
                    event.error.get("data"),
                )
        for ev in self.conn.fail_wire(event.wire_id, event.reason, self._clock(), error=error):
            self._dispatch(ev)
        self._after_change()

    def _on_stream_lost(self, event: StreamLost) -> None:
        now = self._clock()
        key = self.conn.key_of_wire_id(event.wire_id)
        if key is None:
            return
        if not self._resends.may_resend(key, now):
            why = f"{event.reason}; gave up after re-sending it {MAX_RESENDS} times"
            for ev in self.conn.fail_wire(event.wire_id, why, now):
                self._dispatch(ev)
        else:
            new_id = self.conn.resend(event.wire_id, now)
            if new_id is not None:
                self._traffic.note(
                    f"{event.reason}; re-sent request {event.wire_id!r} as {new_id!r}"
                )
        self._after_change()

    def _on_session_expired(self, event: SessionExpired) -> None:
        self.session_expired = event.reason
        self._traffic.note(event.reason)
        again = self.auto_reinitialize and not self._closing and not self._reinit_spent
        held = self._replay.hold(self.conn.replayable(), self._calls, self._progress, again)
        for ev in self.conn.connection_lost(f"session expired: {event.reason}"):
            if again and isinstance(ev, RequestFailed):
                if ev.key in held:
                    continue  # sent again in the new session (`expiry`)
                ev = not_replayed(ev, self._calls)
            self._dispatch(ev)
        self._notify(event)
        if self.auto_reinitialize and not self._closing:
            self._traffic.note(REINIT_ONCE if again else REINIT_REFUSED)
            if again:
                self._reinit_spent = True
                self._reinit_task = asyncio.create_task(self._auto_reinitialize())

    async def _auto_reinitialize(self) -> None:
        try:
            await self.reinitialize()
        except SessionError as exc:
            self._traffic.note(f"re-initializing after the session expired failed: {exc}")
            self._replay.fail(str(exc))
            return
        # as their callers asked them; not requests of the user's (`_reinit_spent` stays)
        self._replay.send_again(self._queue, self._calls, self._traffic.note)

    async def reinitialize(self, timeout: float | None = 30.0) -> SessionReady:
        """Start a new protocol session on the same transport (after HTTP 404 on a session)."""
        loop = asyncio.get_running_loop()
        self.conn = self.conn.reset_for_new_session()
        self.session_expired = None
        self._ready = loop.create_future()
        self.conn.start(self._clock())
        self._after_change()
        try:
            return await asyncio.wait_for(asyncio.shield(self._ready), timeout)
        except TimeoutError:
            raise ConnectTimeout(f"re-initializing took longer than {timeout:g} s") from None

    def _on_stderr(self, event: StderrLine) -> None:
        self._traffic.stderr(event)
        self._notify(event)

    def _on_http(self, event: HttpExchange) -> None:
        self._traffic.http(event)
        self._notify(event)

    def _on_closed(self, event: TransportClosed) -> None:
        self._closed = event
        self._timer.cancel()
        self._traffic.closed(event)
        for ev in self.conn.connection_lost(event.reason):
            self._dispatch(ev)
        self._check_ready()
        self._notify(event)
        self._outq.put_nowait(None)

    def _dispatch(self, event: Event) -> None:
        if type(event) is NotificationReceived:  # the common event first
            method = event.notification.method
            if self._progress and method == "notifications/progress":
                self._on_progress(event)
            self._listeners.emit_notification(event)
            return
        if isinstance(event, RequestCompleted):
            self._resends.forget(event.key)
            call = self._calls.pop(event.key, None)
            self._progress.pop(event.key, None)
            if call is not None and call.method == "tools/list":
                self.tool_definitions.learn(event.result)
            if call is not None and not call.future.done():
                call.future.set_result(event.result)
        elif isinstance(event, RequestFailed):
            self._resends.forget(event.key)
            call = self._calls.pop(event.key, None)
            self._progress.pop(event.key, None)
            if call is not None and not call.future.done():
                call.future.set_exception(error_for(event))
        elif isinstance(event, SessionReady):
            self.ready_info = event
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(event)
        elif isinstance(event, ServerAskReceived):
            self._asks.start(event.ask)
        elif isinstance(event, AskCancelled):
            self._asks.withdraw(event.ask_id, event.reason)
        self._notify(event)

    def _on_progress(self, event: NotificationReceived) -> None:
        typed = event.typed
        if not isinstance(typed, ProgressUpdate) or typed.request_key is None:
            return
        callback = self._progress.get(typed.request_key)
        if callback is not None:
            try:
                callback(typed)
            except Exception:
                log.exception("progress callback failed")

    async def _respond(self, ask: ServerAsk) -> dict[str, Any]:
        # Looked up per ask: a caller may wrap the responder after construction (recording).
        return await self.responder.respond(ask)
