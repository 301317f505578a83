"""The sans-IO MCP client connection, in the style of h11's `Connection`.

The caller owns the IO and the clock:

* `start(now)` queues the handshake for the configured era;
* `send_request(...)` queues a request and returns its key;
* `receive(frame, now)` takes one parsed frame and returns events;
* `data_to_send()` drains the outgoing messages;
* `next_deadline()` / `handle_timer(now)` drive timeouts (aioquic's pattern).

Nothing here touches a socket, a task or a timer.
"""

from __future__ import annotations

from typing import Any, Literal

from inspector.protocol.config import (
    CAPABILITY_FOR,
    META_CLIENT_CAPS,
    META_PREFIX,
    ClientConfig,
    ConnectionState,
)
from inspector.protocol.errors import CapabilityNotDeclared, LocalProtocolError
from inspector.protocol.events import (
    AskCancelled,
    Event,
    InvalidFrame,
    LateResponse,
    ProtocolViolation,
    RequestFailed,
    UnmatchedResponse,
    VersionRenegotiated,
)
from inspector.protocol.handshake import HandshakeMixin, _supported_list
from inspector.protocol.jsonrpc import (
    INVALID_REQUEST,
    UNSUPPORTED_PROTOCOL_VERSION,
    ErrorResponse,
    Invalid,
    Notification,
    ParsedFrame,
    Request,
    RequestId,
    Response,
)
from inspector.protocol.mrtr import MrtrMixin
from inspector.protocol.pending import Pending
from inspector.protocol.server_side import ServerSideMixin
from inspector.protocol.versions import (
    Era,
    features,
)

__all__ = ["META_PREFIX", "ClientConfig", "ClientConnection", "ConnectionState"]


class ClientConnection(HandshakeMixin, MrtrMixin, ServerSideMixin):
    """One client's view of one MCP conversation, in either era."""

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
        self._check_can_send(method, override)
        return self._queue(
            method,
            params,
            now,
            timeout=self.config.request_timeout if timeout == "default" else timeout,
            max_total=self.config.max_total_timeout if max_total == "default" else max_total,
            progress=progress,
        )

    def track_raw_request(self, request: Request, now: float) -> int:
        """Record a request the user typed by hand and sent verbatim, so its answer pairs."""
        if request.id in self._by_wire:
            raise LocalProtocolError(f"request id {request.id!r} is already in flight")
        key = self._new_key()
        self._pending[key] = Pending(
            key=key,
            method=request.method,
            params=request.params,
            wire_id=request.id,
            started=now,
            timeout=self.config.request_timeout,
            max_total=self.config.max_total_timeout,
            progress_token=None,
            last_activity=now,
            raw=True,
        )
        self._by_wire[request.id] = key
        return key

    def _check_can_send(self, method: str, override: bool) -> None:
        if self.state in (ConnectionState.FAILED, ConnectionState.CLOSED):
            detail = f": {self.failure}" if self.failure else ""
            raise LocalProtocolError(f"the connection is {self.state}{detail}")
        if self.state is ConnectionState.IDLE:
            raise LocalProtocolError("connect first: the handshake has not been started")
        # spec 2025-06-18 lifecycle: no requests before initialize returns, except ping.
        if self.state is not ConnectionState.READY and not (
            self.state is ConnectionState.INITIALIZING and method == "ping"
        ):
            raise LocalProtocolError(
                f"cannot send {method} before the handshake completes (state {self.state})"
            )
        if override:
            return
        if method == "ping" and self.era is Era.LEGACY:
            return  # every legacy version has ping, even before the version is agreed
        assert self.protocol_version is not None
        feats = features(self.protocol_version)
        if not feats.knows_client_request(method):
            raise LocalProtocolError(
                f"{method} is not a client request in protocol version {self.protocol_version}"
                " (send anyway with the override)"
            )
        cap = CAPABILITY_FOR.get(method)
        if cap is None or self.server_capabilities is None:
            return
        if cap == "completions" and not feats.completions_capability:
            return
        if not _has_capability(self.server_capabilities, cap):
            raise CapabilityNotDeclared(method, cap)

    def cancel(self, key: int, reason: str, now: float) -> list[Event]:
        """The user gives up on a request: tell the server (never for initialize)."""
        p = self._pending.get(key)
        if p is None:
            return []
        events = self._give_up(p, "cancelled", reason, f"cancelled: {reason}")
        if p.internal is not None:
            events.extend(self._handshake_failed(f"{p.method} cancelled: {reason}"))
        return events

    def _give_up(self, p: Pending, kind: str, reason: str, message: str) -> list[Event]:
        events: list[Event] = []
        self._forget(p)
        if p.on_wire:
            self._remember(self._given_up, p.wire_id, (p.method, reason))
            # spec lifecycle/cancellation: the initialize request MUST NOT be cancelled.
            if p.method != "initialize":
                self._outbox.append(
                    Notification(
                        "notifications/cancelled", {"requestId": p.wire_id, "reason": reason}
                    )
                )
        events.extend(self._drop_asks_of(p, f"request {kind}"))
        events.append(
            RequestFailed(p.key, p.method, kind, message, wire_id=p.wire_id)  # type: ignore[arg-type]
        )
        return events

    def next_deadline(self) -> float | None:
        deadlines = [d for p in self._pending.values() if (d := p.deadline()) is not None]
        return min(deadlines) if deadlines else None

    def handle_timer(self, now: float) -> list[Event]:
        events: list[Event] = []
        for p in list(self._pending.values()):
            if self._pending.get(p.key) is not p:
                continue  # already ended by an earlier timeout (a failed handshake)
            deadline = p.deadline()
            if deadline is None or deadline > now:
                continue
            if not p.on_wire:  # state-only MRTR backoff elapsed: retry
                self._put_on_wire(p, now)
                p.wire_rounds += 1
                continue
            if p.internal == "discover" and self.state is ConnectionState.PROBING:
                self._forget(p)
                self._remember(self._given_up, p.wire_id, (p.method, "auto-era probe timed out"))
                events.extend(self._fall_back_to_legacy(now, "server/discover got no answer"))
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
                events.extend(self._handshake_failed(f"{p.method} timed out: {what}"))
        return events

    def receive(self, frame: ParsedFrame, now: float) -> list[Event]:
        """Take one parsed frame from the server; return what it means."""
        if isinstance(frame, Invalid):
            return self._on_invalid(frame, now)
        if isinstance(frame, Response | ErrorResponse):
            return self._on_response(frame, now)
        if isinstance(frame, Request):
            return self._on_server_request(frame, now)
        return self._on_notification(frame, now)

    def _on_invalid(self, frame: Invalid, now: float) -> list[Event]:
        events: list[Event] = [InvalidFrame(frame)]
        value = frame.value
        if frame.id is not None and isinstance(value, dict) and "method" in value:
            # A malformed request from the server: answer it, or the server waits forever.
            self._outbox.append(
                ErrorResponse(frame.id, INVALID_REQUEST, f"Invalid request: {frame.reason}")
            )
            return events
        if frame.id is not None and frame.id in self._by_wire:
            value = frame.value
            looks_like_response = isinstance(value, dict) and "method" not in value
            if looks_like_response:
                p = self._pending[self._by_wire[frame.id]]
                self._forget(p)
                self._remember(self._answered, p.wire_id, p.method)
                events.extend(self._drop_asks_of(p, "malformed response"))
                events.append(
                    RequestFailed(
                        p.key,
                        p.method,
                        "protocol",
                        f"{p.method}: the server's response was malformed ({frame.reason})",
                        wire_id=p.wire_id,
                    )
                )
                if p.internal is not None:
                    events.extend(self._handshake_failed(f"malformed {p.method} response"))
        return events

    def _on_response(self, msg: Response | ErrorResponse, now: float) -> list[Event]:
        if msg.id is None:
            assert isinstance(msg, ErrorResponse)
            return [
                UnmatchedResponse(
                    None,
                    "null id",
                    f"error with null id (the server could not read a request): "
                    f"{msg.code} {msg.message}",
                )
            ]
        key = self._by_wire.get(msg.id)
        if key is None:
            if msg.id in self._given_up:
                method, why = self._given_up[msg.id]
                return [LateResponse(msg.id, method, why)]
            if msg.id in self._answered:
                return [
                    UnmatchedResponse(
                        msg.id,
                        "duplicate",
                        f"a second response to request {msg.id!r} ({self._answered[msg.id]})",
                    )
                ]
            return [
                UnmatchedResponse(
                    msg.id, "unknown id", f"a response to id {msg.id!r}, which was never sent"
                )
            ]
        p = self._pending[key]
        del self._by_wire[msg.id]
        self._remember(self._answered, msg.id, p.method)
        if p.internal == "initialize":
            return self._on_initialize_answer(p, msg, now)
        if p.internal == "discover":
            return self._on_discover_answer(p, msg, now)
        if isinstance(msg, ErrorResponse):
            return self._on_error_answer(p, msg, now)
        return self._on_result(p, msg.result, now)

    def _on_error_answer(self, p: Pending, err: ErrorResponse, now: float) -> list[Event]:
        if err.code == UNSUPPORTED_PROTOCOL_VERSION and self.era is Era.MODERN and not p.raw:
            supported = _supported_list(err.data)
            better = self._retry_version(p, supported)
            if better is not None:
                old = self.protocol_version or ""
                self.protocol_version = better
                p.wire_rounds += 1
                self._put_on_wire(p, now)
                return [VersionRenegotiated(old, better, "server answered -32022")]
            listed = ", ".join(supported) if supported else "no list given"
            return [
                self._fail_error(
                    p,
                    err,
                    f"{p.method}: the server does not support protocol version "
                    f"{self.protocol_version} (it supports: {listed})",
                )
            ]
        return [self._fail_error(p, err)]

    def _on_result(self, p: Pending, result: dict[str, Any], now: float) -> list[Event]:
        if self.era is not Era.MODERN or p.raw:
            return self._complete(p, result)
        result_type = result.get("resultType", "complete")  # spec: absent means "complete"
        if result_type == "complete":
            return self._complete(p, result)
        if result_type == "task" and p.method == "tools/call":
            # The io.modelcontextprotocol/tasks extension (SEP-2663): a CreateTaskResult, which
            # a server must only send when the request declared the extension.
            if _declares_tasks(self.config.capabilities, p.params):
                return self._complete(p, result)
            return [
                ProtocolViolation(
                    "task-undeclared",
                    f"{p.method}: the server answered with a task, but this request did not "
                    "declare the io.modelcontextprotocol/tasks extension; shown as is",
                ),
                *self._complete(p, result),
            ]
        if result_type != "input_required":
            events: list[Event] = [
                ProtocolViolation(
                    "resultType", f"{p.method}: unknown resultType {result_type!r}; shown as is"
                )
            ]
            return events + self._complete(p, result)
        return self._on_input_required(p, result, now)

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
        key = self._by_wire.get(wire_id)
        if key is None:
            return []
        if error is not None:
            return self._on_response(
                ErrorResponse(wire_id, error.code, error.message, error.data), now
            )
        p = self._pending[key]
        self._forget(p)
        self._remember(self._answered, wire_id, p.method)
        if p.internal == "discover" and self.state is ConnectionState.PROBING:
            return self._fall_back_to_legacy(now, f"server/discover failed ({message})")
        events: list[Event] = self._drop_asks_of(p, message)
        events.append(RequestFailed(p.key, p.method, "transport", message, wire_id=wire_id))
        if p.internal is not None:
            events.extend(self._handshake_failed(f"{p.method} failed: {message}"))
        return events

    def resend(self, wire_id: RequestId, now: float) -> RequestId | None:
        """Re-send a request under a new id (spec 2026-07-28: a broken response stream is
        not resumable; the client re-sends). Returns the new id, or None if not pending."""
        key = self._by_wire.pop(wire_id, None)
        if key is None:
            return None
        p = self._pending[key]
        self._remember(self._given_up, wire_id, (p.method, "re-sent after its stream broke"))
        p.wire_rounds += 1
        self._put_on_wire(p, now)
        return p.wire_id

    def reset_for_new_session(self) -> ClientConnection:
        """A fresh connection with the same configuration (after a legacy session expired)."""
        return ClientConnection(self.config)

    def connection_lost(self, why: str) -> list[Event]:
        """The transport ended: fail everything still pending with `why`."""
        if self.state is not ConnectionState.FAILED:
            self.state = ConnectionState.CLOSED
            self.failure = why
        events: list[Event] = []
        for p in list(self._pending.values()):
            self._forget(p)
            if p.on_wire:
                self._remember(self._given_up, p.wire_id, (p.method, why))
            events.extend(self._drop_asks_of(p, why))
            events.append(RequestFailed(p.key, p.method, "closed", why, wire_id=p.wire_id))
        for ask_id in list(self._asks):
            self._asks.pop(ask_id)
            events.append(AskCancelled(ask_id, why))
        self._legacy_asks_by_wire.clear()
        return events


def _has_capability(caps: dict[str, Any], path: str) -> bool:
    node: Any = caps
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return node is not False and node is not None


TASKS_EXTENSION = META_PREFIX + "tasks"


def _declares_tasks(caps: dict[str, Any], params: dict[str, Any] | None) -> bool:
    """Did this request declare the tasks extension (the connection's caps or its own)?"""
    sources: list[Any] = [caps]
    meta = (params or {}).get("_meta")
    if isinstance(meta, dict):
        sources.append(meta.get(META_CLIENT_CAPS))
    for source in sources:
        extensions = source.get("extensions") if isinstance(source, dict) else None
        if isinstance(extensions, dict) and TASKS_EXTENSION in extensions:
            return True
    return False
