"""The sans-IO MCP client connection, in the style of h11's `Connection`.

The caller owns the IO and the clock:

* `start(now)` queues the handshake for the configured era;
* `send_request(...)` queues a request and returns its key;
* `receive(frame, now)` takes one parsed frame and returns events;
* `data_to_send()` drains the outgoing messages;
* `next_deadline()` / `handle_timer(now)` drive timeouts (aioquic's pattern).

Nothing here touches a socket, a task or a timer. `ClientConnection` is the one public
face; it composes parts that each hold one concern and get what they share passed in
explicitly: the lifecycle (`ConnectionStateMachine`, the one transition table), the
pending table, the open asks, the outbox, the remembered ids, and `Negotiated`. The
handshake, the MRTR rounds, the server side and the response routing are objects of
their own; this class keeps the caller's operations (send, cancel, timers, transport
failures) and dispatches what arrives.
"""

from __future__ import annotations

from typing import Any, Literal

from inspector.protocol.machine.ask_table import AskTable
from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.machine.config import META_PREFIX, ClientConfig
from inspector.protocol.machine.events import Event, FailureKind, RequestFailed
from inspector.protocol.machine.handshake import Handshake
from inspector.protocol.machine.mrtr import MrtrRounds
from inspector.protocol.machine.negotiated import Negotiated
from inspector.protocol.machine.outbox import Outbox
from inspector.protocol.machine.parts import ConnectionParts
from inspector.protocol.machine.pending import Pending
from inspector.protocol.machine.pending_table import PendingTable
from inspector.protocol.machine.recent_ids import RecentIds
from inspector.protocol.machine.request_gate import check_can_send
from inspector.protocol.machine.request_wire import RequestWire
from inspector.protocol.machine.responses import Responses
from inspector.protocol.machine.server_side import ServerSide
from inspector.protocol.machine.state import ConnectionState, ConnectionStateMachine, Trigger
from inspector.protocol.machine.version_retry import VersionRetry
from inspector.protocol.wire.errors import LocalProtocolError
from inspector.protocol.wire.json_text import dumps
from inspector.protocol.wire.jsonrpc import (
    ErrorResponse,
    Invalid,
    Message,
    Notification,
    ParsedFrame,
    Request,
    RequestId,
    Response,
)
from inspector.protocol.wire.versions import Era, EraSetting

__all__ = ["META_PREFIX", "ClientConfig", "ClientConnection", "ConnectionState"]


def check_sendable(value: Any) -> None:
    """Refuse, before it is queued, what JSON cannot carry (NaN, a value nested too deeply,
    a non-JSON type): once queued, it would stop the session's writer."""
    if value is None:
        return
    try:
        dumps(value)
    except (ValueError, TypeError, RecursionError) as exc:
        raise LocalProtocolError(f"cannot be sent: {exc}") from exc


class ClientConnection:
    """One client's view of one MCP conversation, in either era."""

    def __init__(self, config: ClientConfig | None = None) -> None:
        self._config = config or ClientConfig()
        era = Era.MODERN if self._config.era is EraSetting.MODERN else Era.LEGACY
        self._lifecycle = ConnectionStateMachine()
        self._negotiated = Negotiated(era=era)
        self._pending = PendingTable()
        self._asks = AskTable()
        self._outbox = Outbox()
        # Ids we are done with: a late or second answer to one is named, not "unknown".
        self._given_up: RecentIds[tuple[str, str]] = RecentIds()  # id -> (method, why)
        self._answered: RecentIds[str] = RecentIds()  # id -> method
        self._wire = RequestWire(self._config, self._negotiated, self._pending, self._outbox)
        versions = VersionRetry(self._negotiated, self._wire)
        parts = ConnectionParts(
            config=self._config,
            lifecycle=self._lifecycle,
            negotiated=self._negotiated,
            pending=self._pending,
            asks=self._asks,
            outbox=self._outbox,
            given_up=self._given_up,
            answered=self._answered,
            wire=self._wire,
            versions=versions,
        )
        self._handshake = Handshake(parts)
        self._mrtr = MrtrRounds(parts)
        self._server_side = ServerSide(parts)
        self._responses = Responses(parts, self._handshake, self._mrtr)
        self._handshake_timed_out = False

    # ------------------------------------------------------------- what is known
    @property
    def config(self) -> ClientConfig:
        return self._config

    @property
    def state(self) -> ConnectionState:
        return self._lifecycle.state

    @property
    def failure(self) -> str | None:
        """Why the connection failed or closed; None while it works."""
        return self._lifecycle.failure

    @property
    def era(self) -> Era:
        return self._negotiated.era

    @property
    def protocol_version(self) -> str | None:
        return self._negotiated.protocol_version

    @property
    def server_info(self) -> dict[str, Any]:
        return self._negotiated.server_info

    @property
    def server_capabilities(self) -> dict[str, Any] | None:
        return self._negotiated.server_capabilities

    @property
    def instructions(self) -> str | None:
        return self._negotiated.instructions

    @property
    def handshake_result(self) -> dict[str, Any] | None:
        return self._negotiated.handshake_result

    @property
    def handshake_timed_out(self) -> bool:
        """The handshake failed because its request got no answer in time."""
        return self._handshake_timed_out

    @property
    def initialized_sent(self) -> bool:
        return self._negotiated.initialized_sent

    @property
    def pending_count(self) -> int:
        return len(self._pending)

    def pending_method(self, key: int) -> str | None:
        p = self._pending.get(key)
        return p.method if p else None

    def wire_id_of(self, key: int) -> RequestId | None:
        p = self._pending.get(key)
        return p.wire_id if p else None

    def key_of_wire_id(self, wire_id: RequestId) -> int | None:
        return self._pending.key_of_wire_id(wire_id)

    def open_asks(self) -> list[ServerAsk]:
        return self._asks.all()

    # ------------------------------------------------------------- sending
    def data_to_send(self) -> list[Message]:
        return self._outbox.drain()

    def fresh_id(self) -> int:
        """An id no in-flight request uses (for the raw composer)."""
        return self._pending.fresh_id()

    def start(self, now: float) -> int:
        """Queue the handshake for the configured era. Returns the handshake request key."""
        return self._handshake.start(now)

    def send_request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        now: float,
        timeout: float | Literal["default"] | None = "default",
        max_total: float | Literal["default"] | None = "default",
        progress: bool = False,
        override: bool = False,
    ) -> int:
        """Queue a request; returns its key (stable across MRTR and version retries).

        `override=True` skips capability gating and the version's method table, for
        debugging a server that behaves differently from what it declared.
        """
        check_can_send(self._lifecycle, self._negotiated, method, override)
        if params is not None and not isinstance(params.get("_meta", {}), dict):
            raise LocalProtocolError('"_meta" must be an object (the client adds its keys)')
        check_sendable(params)
        return self._wire.queue(
            method,
            params,
            now,
            timeout=self._config.request_timeout if timeout == "default" else timeout,
            max_total=self._config.max_total_timeout if max_total == "default" else max_total,
            progress=progress,
        )

    def track_raw_request(self, request: Request, now: float) -> int:
        """Record a request the user typed by hand and sent verbatim, so its answer pairs."""
        if self._pending.key_of_wire_id(request.id) is not None:
            raise LocalProtocolError(f"request id {request.id!r} is already in flight")
        pending = Pending(
            key=self._pending.new_key(),
            method=request.method,
            params=request.params,
            wire_id=request.id,
            started=now,
            timeout=self._config.request_timeout,
            max_total=self._config.max_total_timeout,
            progress_token=None,
            last_activity=now,
            raw=True,
        )
        self._pending.add(pending)
        self._pending.bind_wire(pending)
        return pending.key

    def send_notification(self, method: str, params: dict[str, Any] | None = None) -> None:
        check_sendable(params)
        self._outbox.put(Notification(method, params))

    def answer_ask(self, ask_id: int, result: dict[str, Any], now: float) -> list[Event]:
        """Answer a server ask (a sampling result, an ElicitResult, a ListRootsResult)."""
        check_sendable(result)
        ask = self._asks.take(ask_id)
        if ask is None:
            return []  # withdrawn or already answered: nothing to send
        if ask.era is Era.LEGACY:
            self._server_side.answer(ask, result)
            return []
        return self._mrtr.answer(ask, result, now)

    def reject_ask(self, ask_id: int, message: str, now: float) -> list[Event]:
        """Refuse a server ask.

        Legacy: a JSON-RPC error -1 (spec 2025-06-18 sampling: "User rejected").
        Modern: MRTR has no error slot in inputResponses, so (as the SDKs do) the
        client abandons the paused request; it fails locally as "rejected".
        """
        ask = self._asks.take(ask_id)
        if ask is None:
            return []
        if ask.era is Era.LEGACY:
            self._server_side.reject(ask, message)
            return []
        return self._mrtr.reject(ask, message)

    # ------------------------------------------------------------- giving up
    def cancel(self, key: int, reason: str, now: float) -> list[Event]:
        """The user gives up on a request: tell the server (never for initialize)."""
        p = self._pending.get(key)
        if p is None:
            return []
        events = self._give_up(p, "cancelled", reason, f"cancelled: {reason}")
        if p.internal is not None:
            events.extend(self._handshake.fail(f"{p.method} cancelled: {reason}"))
        return events

    def _give_up(self, p: Pending, kind: FailureKind, reason: str, message: str) -> list[Event]:
        self._pending.forget(p)
        if p.on_wire:
            self._given_up.remember(p.wire_id, (p.method, reason))
            # spec lifecycle/cancellation: the initialize request MUST NOT be cancelled.
            if p.method != "initialize":
                self._outbox.put(
                    Notification(
                        "notifications/cancelled", {"requestId": p.wire_id, "reason": reason}
                    )
                )
        events = self._asks.withdraw_for(p, f"request {kind}")
        events.append(RequestFailed(p.key, p.method, kind, message, wire_id=p.wire_id))
        return events

    # ------------------------------------------------------------- the clock
    def next_deadline(self) -> float | None:
        return self._pending.next_deadline()

    def handle_timer(self, now: float) -> list[Event]:
        events: list[Event] = []
        for p in self._pending.all():
            if self._pending.get(p.key) is not p:
                continue  # already ended by an earlier timeout (a failed handshake)
            deadline = p.deadline()
            if deadline is None or deadline > now:
                continue
            if not p.on_wire:  # state-only MRTR backoff elapsed: retry
                self._wire.again(p, now)
                continue
            if self._handshake.is_probe(p):
                self._pending.forget(p)
                self._given_up.remember(p.wire_id, (p.method, "auto-era probe timed out"))
                events.extend(
                    self._handshake.fall_back_to_legacy(now, "server/discover got no answer")
                )
                continue
            total = p.max_total is not None and now >= p.started + p.max_total
            what = (
                f"no answer within the maximum total time of {p.max_total:g} s"
                if total and p.max_total is not None
                else f"no answer within {p.timeout:g} s"
                if p.timeout is not None
                else "timed out"
            )
            events.extend(self._give_up(p, "timeout", "timed out", f"{p.method}: {what}"))
            if p.internal is not None:
                self._handshake_timed_out = True
                events.extend(self._handshake.fail(f"{p.method} timed out: {what}"))
        return events

    # ------------------------------------------------------------- receiving
    def receive(self, frame: ParsedFrame, now: float) -> list[Event]:
        """Take one parsed frame from the server; return what it means."""
        if type(frame) is Notification:  # the common frame first (a flood of log lines)
            return self._server_side.on_notification(frame, now)
        if isinstance(frame, Invalid):
            return self._responses.on_invalid(frame)
        if isinstance(frame, Response | ErrorResponse):
            return self._responses.on_response(frame, now)
        if isinstance(frame, Request):
            return self._server_side.on_request(frame)
        return self._server_side.on_notification(frame, now)

    # ------------------------------------------------------------- the transport
    def fail_wire(
        self,
        wire_id: RequestId,
        message: str,
        now: float,
        *,
        error: ErrorResponse | None = None,
    ) -> list[Event]:
        """The transport could not deliver request `wire_id`, or got no answer for it.

        With `error` (a JSON-RPC error the server sent without a usable id, e.g. in an
        HTTP 400 body), it is handled as that request's error answer, so -32022 retries
        and the auto-era fallback work as for any error. Otherwise the request fails with
        kind "transport", except that a failed auto-era probe falls back to initialize.
        """
        p = self._pending.on_wire(wire_id)
        if p is None:
            return []
        if error is not None:
            return self._responses.on_response(
                ErrorResponse(wire_id, error.code, error.message, error.data), now
            )
        self._pending.forget(p)
        self._answered.remember(wire_id, p.method)
        if self._handshake.is_probe(p):
            return self._handshake.fall_back_to_legacy(now, f"server/discover failed ({message})")
        events = self._asks.withdraw_for(p, message)
        events.append(RequestFailed(p.key, p.method, "transport", message, wire_id=wire_id))
        if p.internal is not None:
            events.extend(self._handshake.fail(f"{p.method} failed: {message}"))
        return events

    def resend(self, wire_id: RequestId, now: float) -> RequestId | None:
        """Re-send a request under a new id (spec 2026-07-28: a broken response stream is
        not resumable; the client re-sends). Returns the new id, or None if not pending."""
        p = self._pending.unbind_wire(wire_id)
        if p is None:
            return None
        self._given_up.remember(wire_id, (p.method, "re-sent after its stream broke"))
        self._wire.again(p, now)
        return p.wire_id

    def replayable(self) -> dict[int, tuple[str, dict[str, Any] | None]]:
        """The pending requests that could be asked again as the caller asked them (not
        the handshake, not one typed by hand): key -> (method, params)."""
        return {
            p.key: (p.method, p.params)
            for p in self._pending.all()
            if not p.raw and p.internal is None
        }

    def reset_for_new_session(self) -> ClientConnection:
        """A fresh connection with the same configuration (after a legacy session expired)."""
        return ClientConnection(self._config)

    def connection_lost(self, why: str) -> list[Event]:
        """The transport ended: fail everything still pending with `why`."""
        self._lifecycle.fire(Trigger.CONNECTION_LOST, why=why)
        events: list[Event] = []
        for p in self._pending.all():
            self._pending.forget(p)
            if p.on_wire:
                self._given_up.remember(p.wire_id, (p.method, why))
            events.extend(self._asks.withdraw_for(p, why))
            events.append(RequestFailed(p.key, p.method, "closed", why, wire_id=p.wire_id))
        events.extend(self._asks.cancel_all(why))
        return events
