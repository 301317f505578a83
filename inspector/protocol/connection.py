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

import enum
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from inspector.jsonrpc import (
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    UNSUPPORTED_PROTOCOL_VERSION,
    USER_REJECTED,
    ErrorResponse,
    Invalid,
    Message,
    Notification,
    ParsedFrame,
    Request,
    RequestId,
    Response,
)
from inspector.protocol.asks import ServerAsk, ask_kind
from inspector.protocol.errors import CapabilityNotDeclared, LocalProtocolError
from inspector.protocol.events import (
    AskCancelled,
    Event,
    InvalidFrame,
    LateResponse,
    NotificationReceived,
    ProgressUpdate,
    ProtocolViolation,
    RequestCompleted,
    RequestFailed,
    ServerAskReceived,
    ServerCancelled,
    SessionReady,
    SubscriptionAcknowledged,
    UnmatchedResponse,
    VersionRenegotiated,
)
from inspector.protocol.notifications import type_notification
from inspector.protocol.versions import (
    LATEST_LEGACY,
    LATEST_MODERN,
    LEGACY_VERSIONS,
    MODERN_VERSIONS,
    Era,
    EraSetting,
    features,
    is_supported,
)

__all__ = ["META_PREFIX", "ClientConfig", "ClientConnection", "ConnectionState"]

META_PREFIX: Final = "io.modelcontextprotocol/"
_META_VERSION: Final = META_PREFIX + "protocolVersion"
_META_CLIENT_INFO: Final = META_PREFIX + "clientInfo"
_META_CLIENT_CAPS: Final = META_PREFIX + "clientCapabilities"
_META_LOG_LEVEL: Final = META_PREFIX + "logLevel"
_META_SERVER_INFO: Final = META_PREFIX + "serverInfo"
_META_SUBSCRIPTION_ID: Final = META_PREFIX + "subscriptionId"

# How many given-up / answered ids we remember to recognise late and duplicate answers.
_MEMORY: Final = 4096
# MRTR state-only rounds: back off 50 ms doubling to 250 ms (as the SDKs do).
_STATE_ONLY_BACKOFF: Final = (0.05, 0.1, 0.2, 0.25)

# spec 2026-07-28 MRTR "Supported Requests": the only methods that may answer input_required.
_MRTR_METHODS: Final = frozenset({"tools/call", "prompts/get", "resources/read"})

# Which server capability each method needs (spec: capability negotiation).
_CAPABILITY_FOR: Final[dict[str, str]] = {
    "tools/list": "tools",
    "tools/call": "tools",
    "resources/list": "resources",
    "resources/templates/list": "resources",
    "resources/read": "resources",
    "resources/subscribe": "resources.subscribe",
    "resources/unsubscribe": "resources.subscribe",
    "prompts/list": "prompts",
    "prompts/get": "prompts",
    "logging/setLevel": "logging",
    "completion/complete": "completions",
}


class ConnectionState(enum.StrEnum):
    IDLE = "idle"
    PROBING = "probing"  # auto era: server/discover sent, legacy fallback possible
    DISCOVERING = "discovering"  # modern era: server/discover sent
    INITIALIZING = "initializing"  # legacy: initialize sent
    READY = "ready"
    FAILED = "failed"
    CLOSED = "closed"


def _default_capabilities() -> dict[str, Any]:
    return {"sampling": {}, "elicitation": {"form": {}, "url": {}}, "roots": {"listChanged": True}}


def _default_client_info() -> dict[str, Any]:
    from inspector import __version__

    return {"name": "mcp-inspector-qt", "title": "MCP Inspector (Qt)", "version": __version__}


@dataclass
class ClientConfig:
    era: EraSetting = EraSetting.LEGACY
    client_info: dict[str, Any] = field(default_factory=_default_client_info)
    capabilities: dict[str, Any] = field(default_factory=_default_capabilities)
    legacy_version: str = LATEST_LEGACY  # offered in initialize
    modern_version: str = LATEST_MODERN
    request_timeout: float | None = 60.0  # per request, reset on progress
    max_total_timeout: float | None = 600.0  # hard cap, progress or not
    reset_timeout_on_progress: bool = True
    auto_probe_timeout: float = 5.0  # auto era: how long server/discover may take
    max_mrtr_rounds: int = 10
    log_level: str | None = None  # modern: sent in every request's _meta


@dataclass
class _Pending:
    key: int
    method: str
    params: dict[str, Any] | None  # as the caller gave them (no MRTR fields, no our _meta)
    wire_id: RequestId
    started: float
    timeout: float | None
    max_total: float | None
    progress_token: str | None
    last_activity: float
    internal: str | None = None  # "initialize" | "discover" for the handshake
    raw: bool = False  # sent verbatim by the user: no MRTR, no retries
    on_wire: bool = True  # False while a modern request waits for the user's input
    wire_rounds: int = 1
    mrtr_rounds: int = 0
    request_state: str | None = None
    asks: dict[str, int] = field(default_factory=dict)  # input key -> ask id
    responses: dict[str, Any] = field(default_factory=dict)
    retry_at: float | None = None  # state-only MRTR backoff
    waiting_since: float | None = None  # MRTR: when the user was asked (not the server's time)
    state_only_streak: int = 0
    same_version_retried: bool = False  # -32022 listing the version we sent: retried once

    def deadline(self) -> float | None:
        if not self.on_wire:
            return self.retry_at
        candidates = []
        if self.timeout is not None:
            candidates.append(self.last_activity + self.timeout)
        if self.max_total is not None:
            candidates.append(self.started + self.max_total)
        return min(candidates) if candidates else None


class ClientConnection:
    """One client's view of one MCP conversation, in either era."""

    def __init__(self, config: ClientConfig | None = None) -> None:
        self.config = config or ClientConfig()
        self.state = ConnectionState.IDLE
        self.era: Era = Era.MODERN if self.config.era is EraSetting.MODERN else Era.LEGACY
        self.protocol_version: str | None = None
        self.server_info: dict[str, Any] = {}
        self.server_capabilities: dict[str, Any] | None = None
        self.instructions: str | None = None
        self.handshake_result: dict[str, Any] | None = None
        self.failure: str | None = None
        self.initialized_sent = False

        self._outbox: list[Message] = []
        self._next_id = 1
        self._next_key = 1
        self._next_ask = 1
        self._pending: dict[int, _Pending] = {}
        self._by_wire: dict[RequestId, int] = {}
        self._by_token: dict[str, int] = {}
        self._asks: dict[int, ServerAsk] = {}
        self._legacy_asks_by_wire: dict[RequestId, int] = {}
        self._given_up: OrderedDict[RequestId, tuple[str, str]] = OrderedDict()
        self._answered: OrderedDict[RequestId, str] = OrderedDict()

    # ------------------------------------------------------------------ queries
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
        return self._by_wire.get(wire_id)

    def open_asks(self) -> list[ServerAsk]:
        return list(self._asks.values())

    def data_to_send(self) -> list[Message]:
        out, self._outbox = self._outbox, []
        return out

    # ---------------------------------------------------------------- handshake
    def start(self, now: float) -> int:
        """Queue the handshake for the configured era. Returns the handshake request key."""
        if self.state is not ConnectionState.IDLE:
            raise LocalProtocolError(f"start() called in state {self.state}")
        setting = self.config.era
        if setting is EraSetting.LEGACY:
            return self._send_initialize(now)
        self.era = Era.MODERN
        self.protocol_version = self.config.modern_version
        if setting is EraSetting.AUTO:
            self.state = ConnectionState.PROBING
            timeout: float | None = self.config.auto_probe_timeout
        else:
            self.state = ConnectionState.DISCOVERING
            timeout = self.config.request_timeout
        return self._queue(
            "server/discover", {}, now, internal="discover", timeout=timeout, progress=False
        )

    def _send_initialize(self, now: float) -> int:
        self.era = Era.LEGACY
        self.state = ConnectionState.INITIALIZING
        self.protocol_version = None
        params = {
            "protocolVersion": self.config.legacy_version,
            "capabilities": self.config.capabilities,
            "clientInfo": self.config.client_info,
        }
        return self._queue("initialize", params, now, internal="initialize", progress=False)

    # ---------------------------------------------------------------- requests
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
        self._pending[key] = _Pending(
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

    def fresh_id(self) -> int:
        """An id no in-flight request uses (for the raw composer)."""
        while self._next_id in self._by_wire:
            self._next_id += 1
        value = self._next_id
        self._next_id += 1
        return value

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
        cap = _CAPABILITY_FOR.get(method)
        if cap is None or self.server_capabilities is None:
            return
        if cap == "completions" and not feats.completions_capability:
            return
        if not _has_capability(self.server_capabilities, cap):
            raise CapabilityNotDeclared(method, cap)

    def _new_key(self) -> int:
        key = self._next_key
        self._next_key += 1
        return key

    def _queue(
        self,
        method: str,
        params: dict[str, Any] | None,
        now: float,
        *,
        internal: str | None = None,
        timeout: float | None = None,
        max_total: float | None = None,
        progress: bool,
    ) -> int:
        key = self._new_key()
        if internal is not None and timeout is None:
            timeout = self.config.request_timeout
        pending = _Pending(
            key=key,
            method=method,
            params=params,
            wire_id=0,
            started=now,
            timeout=timeout,
            max_total=max_total,
            progress_token=f"p{key}" if progress else None,
            last_activity=now,
            internal=internal,
        )
        self._pending[key] = pending
        if pending.progress_token is not None:
            self._by_token[pending.progress_token] = key
        self._put_on_wire(pending, now)
        return key

    def _put_on_wire(self, p: _Pending, now: float) -> None:
        wire_id = self.fresh_id()
        p.wire_id = wire_id
        p.on_wire = True
        p.last_activity = now
        p.retry_at = None
        self._by_wire[wire_id] = p.key
        self._outbox.append(Request(wire_id, p.method, self._wire_params(p)))

    def _wire_params(self, p: _Pending) -> dict[str, Any] | None:
        params: dict[str, Any] = dict(p.params) if p.params else {}
        meta: dict[str, Any] = dict(params.get("_meta") or {})
        if self.era is Era.MODERN:
            meta[_META_VERSION] = self.protocol_version or self.config.modern_version
            meta[_META_CLIENT_INFO] = self.config.client_info
            meta[_META_CLIENT_CAPS] = self.config.capabilities
            if self.config.log_level is not None:
                meta[_META_LOG_LEVEL] = self.config.log_level
            if p.responses:
                params["inputResponses"] = dict(p.responses)
            if p.request_state is not None:
                params["requestState"] = p.request_state
        if p.progress_token is not None:
            meta["progressToken"] = p.progress_token
        if meta:
            params["_meta"] = meta
        if not params and self.era is Era.LEGACY and p.params is None:
            return None
        return params

    def send_notification(self, method: str, params: dict[str, Any] | None = None) -> None:
        self._outbox.append(Notification(method, params))

    def cancel(self, key: int, reason: str, now: float) -> list[Event]:
        """The user gives up on a request: tell the server (never for initialize)."""
        p = self._pending.get(key)
        if p is None:
            return []
        events = self._give_up(p, "cancelled", reason, f"cancelled: {reason}")
        if p.internal is not None:
            events.extend(self._handshake_failed(f"{p.method} cancelled: {reason}"))
        return events

    def _give_up(self, p: _Pending, kind: str, reason: str, message: str) -> list[Event]:
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

    def _forget(self, p: _Pending) -> None:
        self._pending.pop(p.key, None)
        if self._by_wire.get(p.wire_id) == p.key:
            del self._by_wire[p.wire_id]
        if p.progress_token is not None:
            self._by_token.pop(p.progress_token, None)

    def _drop_asks_of(self, p: _Pending, reason: str) -> list[Event]:
        events: list[Event] = []
        for ask_id in p.asks.values():
            if self._asks.pop(ask_id, None) is not None:
                events.append(AskCancelled(ask_id, reason))
        p.asks.clear()
        return events

    @staticmethod
    def _remember(store: OrderedDict[RequestId, Any], key: RequestId, value: Any) -> None:
        store[key] = value
        store.move_to_end(key)
        while len(store) > _MEMORY:
            store.popitem(last=False)

    # ------------------------------------------------------------------ timers
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

    # --------------------------------------------------------------- receiving
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

    def _complete(self, p: _Pending, result: dict[str, Any]) -> list[Event]:
        self._forget(p)
        return [RequestCompleted(p.key, p.method, result, p.wire_id, p.wire_rounds)]

    def _fail_error(self, p: _Pending, err: ErrorResponse, message: str | None = None) -> Event:
        self._forget(p)
        return RequestFailed(
            p.key,
            p.method,
            "error",
            message or f"{p.method} failed: {err.code} {err.message}",
            error=err,
            wire_id=p.wire_id,
        )

    def _retry_version(self, p: _Pending, supported: list[str]) -> str | None:
        """The version to retry with after -32022: the best mutual one other than the one
        refused; else, once per request, the same one if the server lists it as supported
        (spec 2026-07-28: "choose a mutually supported version from this list and retry")."""
        better = _best_mutual(supported, MODERN_VERSIONS, exclude=self.protocol_version)
        current = self.protocol_version
        if (
            better is None
            and current is not None
            and current in supported
            and current in MODERN_VERSIONS
            and not p.same_version_retried
        ):
            p.same_version_retried = True
            return current
        return better

    def _on_error_answer(self, p: _Pending, err: ErrorResponse, now: float) -> list[Event]:
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

    def _on_result(self, p: _Pending, result: dict[str, Any], now: float) -> list[Event]:
        if self.era is not Era.MODERN or p.raw:
            return self._complete(p, result)
        result_type = result.get("resultType", "complete")  # spec: absent means "complete"
        if result_type == "complete":
            return self._complete(p, result)
        if result_type != "input_required":
            events: list[Event] = [
                ProtocolViolation(
                    "resultType", f"{p.method}: unknown resultType {result_type!r}; shown as is"
                )
            ]
            return events + self._complete(p, result)
        return self._on_input_required(p, result, now)

    # ----------------------------------------------------------------- MRTR
    def _on_input_required(self, p: _Pending, result: dict[str, Any], now: float) -> list[Event]:
        violations: list[Event] = []
        if p.method not in _MRTR_METHODS:
            # spec 2026-07-28 MRTR: servers MUST NOT answer other requests with input_required.
            violations.append(
                ProtocolViolation(
                    "mrtr-method",
                    f"{p.method} was answered with input_required, which the spec allows only "
                    f"for {', '.join(sorted(_MRTR_METHODS))}; handled anyway",
                )
            )
        return violations + self._handle_input_required(p, result, now)

    def _handle_input_required(
        self, p: _Pending, result: dict[str, Any], now: float
    ) -> list[Event]:
        p.mrtr_rounds += 1
        if p.mrtr_rounds > self.config.max_mrtr_rounds:
            self._forget(p)
            return [
                RequestFailed(
                    p.key,
                    p.method,
                    "protocol",
                    f"{p.method}: the server asked for input more than "
                    f"{self.config.max_mrtr_rounds} rounds; giving up",
                    wire_id=p.wire_id,
                )
            ]
        p.on_wire = False
        state = result.get("requestState")
        p.request_state = state if isinstance(state, str) else None
        p.responses = {}
        p.asks = {}
        requests = result.get("inputRequests")
        if requests is None:
            requests = {}
        if not isinstance(requests, dict):
            self._forget(p)
            return [
                RequestFailed(
                    p.key,
                    p.method,
                    "protocol",
                    f"{p.method}: inputRequests is not an object",
                    wire_id=p.wire_id,
                )
            ]
        if not requests:
            if p.request_state is None:
                self._forget(p)
                return [
                    RequestFailed(
                        p.key,
                        p.method,
                        "protocol",
                        f"{p.method}: input_required with neither inputRequests nor requestState",
                        wire_id=p.wire_id,
                    )
                ]
            delay = _STATE_ONLY_BACKOFF[min(p.state_only_streak, len(_STATE_ONLY_BACKOFF) - 1)]
            p.state_only_streak += 1
            p.retry_at = now + delay
            return []
        p.state_only_streak = 0
        p.waiting_since = now
        events: list[Event] = []
        problems: list[str] = []
        for input_key, entry in requests.items():
            method = entry.get("method") if isinstance(entry, dict) else None
            kind = ask_kind(method) if isinstance(method, str) else None
            if kind is None:
                problems.append(f"{input_key!r}: unknown input request method {method!r}")
                continue
            if kind not in self.config.capabilities:
                events.append(
                    ProtocolViolation(
                        "undeclared-capability",
                        f"{p.method}: input request {input_key!r} is {method} though the "
                        f"client did not declare {kind}; shown anyway",
                    )
                )
            params = entry.get("params")
            ask = ServerAsk(
                ask_id=self._new_ask_id(),
                kind=kind,
                method=str(method),
                params=params if isinstance(params, dict) else {},
                era=Era.MODERN,
                input_key=str(input_key),
                request_key=p.key,
                request_method=p.method,
            )
            self._asks[ask.ask_id] = ask
            p.asks[ask.input_key or ""] = ask.ask_id
            events.append(ServerAskReceived(ask))
        if problems:
            events.extend(self._drop_asks_of(p, "request failed"))
            self._forget(p)
            events.append(
                RequestFailed(
                    p.key,
                    p.method,
                    "protocol",
                    f"{p.method}: cannot answer input requests: " + "; ".join(problems),
                    wire_id=p.wire_id,
                )
            )
        return events

    def _new_ask_id(self) -> int:
        ask_id = self._next_ask
        self._next_ask += 1
        return ask_id

    def answer_ask(self, ask_id: int, result: dict[str, Any], now: float) -> list[Event]:
        """Answer a server ask (a sampling result, an ElicitResult, a ListRootsResult)."""
        ask = self._asks.pop(ask_id, None)
        if ask is None:
            return []  # withdrawn or already answered: nothing to send
        if ask.era is Era.LEGACY:
            assert ask.wire_id is not None
            self._outbox.append(Response(ask.wire_id, result))
            self._legacy_asks_by_wire.pop(ask.wire_id, None)
            return []
        p = self._pending.get(ask.request_key or -1)
        if p is None:
            return []
        p.responses[ask.input_key or ""] = result
        p.asks.pop(ask.input_key or "", None)
        if not p.asks:
            if p.waiting_since is not None:
                # The user's time in a dialog does not count against the server's total.
                p.started += max(0.0, now - p.waiting_since)
                p.waiting_since = None
            p.wire_rounds += 1
            self._put_on_wire(p, now)
        return []

    def reject_ask(self, ask_id: int, message: str, now: float) -> list[Event]:
        """Refuse a server ask.

        Legacy: a JSON-RPC error -1 (spec 2025-06-18 sampling: "User rejected").
        Modern: MRTR has no error slot in inputResponses, so (as the SDKs do) the
        client abandons the paused request; it fails locally as "rejected".
        """
        ask = self._asks.pop(ask_id, None)
        if ask is None:
            return []
        if ask.era is Era.LEGACY:
            assert ask.wire_id is not None
            self._outbox.append(ErrorResponse(ask.wire_id, USER_REJECTED, message))
            self._legacy_asks_by_wire.pop(ask.wire_id, None)
            return []
        p = self._pending.get(ask.request_key or -1)
        if p is None:
            return []
        p.asks.pop(ask.input_key or "", None)
        events = self._drop_asks_of(p, "another input request was rejected")
        self._forget(p)
        events.append(
            RequestFailed(
                p.key,
                p.method,
                "rejected",
                f"{p.method}: {ask.kind} request {ask.input_key!r} rejected: {message}",
                wire_id=p.wire_id,
            )
        )
        return events

    # ------------------------------------------------------------- handshake
    def _on_initialize_answer(
        self, p: _Pending, msg: Response | ErrorResponse, now: float
    ) -> list[Event]:
        if isinstance(msg, ErrorResponse):
            events: list[Event] = [self._fail_error(p, msg)]
            return events + self._handshake_failed(f"initialize failed: {msg.code} {msg.message}")
        result = msg.result
        version = result.get("protocolVersion")
        offered = self.config.legacy_version
        if not isinstance(version, str) or version not in LEGACY_VERSIONS:
            shown = version if isinstance(version, str) else repr(version)
            why = (
                f"the server answered initialize with protocol version {shown}, which this "
                f"client does not support (we offered {offered}; we speak "
                f"{', '.join(LEGACY_VERSIONS)})"
            )
            self._forget(p)
            events = [RequestFailed(p.key, p.method, "protocol", why, wire_id=p.wire_id)]
            return events + self._handshake_failed(why)
        self.protocol_version = version
        self._record_server(result, result.get("serverInfo"))
        self.state = ConnectionState.READY
        self._outbox.append(Notification("notifications/initialized"))
        self.initialized_sent = True
        events = self._complete(p, result)
        events.append(self._ready_event(result))
        return events

    def _on_discover_answer(
        self, p: _Pending, msg: Response | ErrorResponse, now: float
    ) -> list[Event]:
        probing = self.state is ConnectionState.PROBING
        if isinstance(msg, ErrorResponse):
            supported = (
                _supported_list(msg.data) if msg.code == UNSUPPORTED_PROTOCOL_VERSION else []
            )
            better = self._retry_version(p, supported)
            if better is not None:
                old = self.protocol_version or ""
                self.protocol_version = better
                p.wire_rounds += 1
                self._put_on_wire(p, now)
                return [VersionRenegotiated(old, better, "server/discover answered -32022")]
            if probing:
                self._forget(p)
                why = f"server/discover failed ({msg.code} {msg.message})"
                return self._fall_back_to_legacy(now, why)
            if msg.code == METHOD_NOT_FOUND:
                # spec 2026-07-28: server/discover is optional; go on without server info.
                events: list[Event] = [self._fail_error(p, msg)]
                self.state = ConnectionState.READY
                events.append(
                    ProtocolViolation(
                        "discover", "the server does not implement server/discover (optional)"
                    )
                )
                events.append(self._ready_event(None))
                return events
            if msg.code == UNSUPPORTED_PROTOCOL_VERSION:
                listed = ", ".join(supported) or "no list given"
                why = (
                    f"the server does not support protocol version {self.protocol_version} "
                    f"(it supports: {listed}); pick the legacy or auto era to use an older one"
                )
                events = [self._fail_error(p, msg, why)]
                return events + self._handshake_failed(why)
            events = [self._fail_error(p, msg)]
            return events + self._handshake_failed(
                f"server/discover failed: {msg.code} {msg.message}"
            )
        result = msg.result
        supported = _supported_list(result.get("supportedVersions"))
        mutual = _best_mutual(supported, MODERN_VERSIONS)
        if mutual is None:
            if probing:
                self._forget(p)
                return self._fall_back_to_legacy(
                    now, f"server/discover lists no modern version we speak ({supported})"
                )
            listed = ", ".join(supported) or "none"
            why = f"server/discover lists versions {listed}; none is one we speak in modern mode"
            self._forget(p)
            events = [RequestFailed(p.key, p.method, "protocol", why, wire_id=p.wire_id)]
            return events + self._handshake_failed(why)
        if mutual != self.protocol_version:
            self.protocol_version = mutual
        meta = result.get("_meta")
        server_info = meta.get(_META_SERVER_INFO) if isinstance(meta, dict) else None
        self._record_server(result, server_info)
        self.state = ConnectionState.READY
        events = self._complete(p, result)
        events.append(self._ready_event(result))
        return events

    def _fall_back_to_legacy(self, now: float, why: str) -> list[Event]:
        old = self.protocol_version or LATEST_MODERN
        self._send_initialize(now)
        return [VersionRenegotiated(old, self.config.legacy_version, f"{why}; trying initialize")]

    def _record_server(self, result: dict[str, Any], server_info: Any) -> None:
        self.handshake_result = result
        self.server_info = server_info if isinstance(server_info, dict) else {}
        caps = result.get("capabilities")
        self.server_capabilities = caps if isinstance(caps, dict) else {}
        instructions = result.get("instructions")
        self.instructions = instructions if isinstance(instructions, str) else None

    def _ready_event(self, result: dict[str, Any] | None) -> SessionReady:
        return SessionReady(
            era=self.era,
            protocol_version=self.protocol_version or "",
            server_info=self.server_info,
            capabilities=self.server_capabilities or {},
            instructions=self.instructions,
            result=result,
        )

    def _handshake_failed(self, why: str) -> list[Event]:
        self.state = ConnectionState.FAILED
        self.failure = why
        events: list[Event] = []
        for p in list(self._pending.values()):
            self._forget(p)
            self._remember(self._given_up, p.wire_id, (p.method, why))
            events.append(RequestFailed(p.key, p.method, "closed", why, wire_id=p.wire_id))
        return events

    # -------------------------------------------------- server requests
    def _on_server_request(self, req: Request, now: float) -> list[Event]:
        events: list[Event] = []
        if self.era is Era.MODERN and self.state is not ConnectionState.PROBING:
            self._outbox.append(
                ErrorResponse(
                    req.id,
                    METHOD_NOT_FOUND,
                    f"{req.method}: servers do not send requests in protocol "
                    f"{self.protocol_version} (use input_required)",
                )
            )
            return [
                ProtocolViolation(
                    "modern-no-server-requests",
                    f"the server sent a {req.method} request, but in protocol "
                    f"{self.protocol_version} servers never send requests",
                    req,
                )
            ]
        if req.method != "ping" and not self.initialized_sent:
            events.append(
                ProtocolViolation(
                    "lifecycle",
                    f"the server sent {req.method} before the client sent "
                    "notifications/initialized (only ping is allowed then)",
                    req,
                )
            )
        if req.method == "ping":
            self._outbox.append(Response(req.id, {}))
            return events
        kind = ask_kind(req.method)
        if kind is None:
            self._outbox.append(
                ErrorResponse(req.id, METHOD_NOT_FOUND, f"Method not found: {req.method}")
            )
            events.append(
                ProtocolViolation(
                    "unknown-server-request",
                    f"the server sent an unknown request {req.method!r}; answered -32601",
                    req,
                )
            )
            return events
        if kind not in self.config.capabilities:
            self._outbox.append(
                ErrorResponse(
                    req.id,
                    METHOD_NOT_FOUND,
                    f"the client did not declare the {kind} capability",
                )
            )
            events.append(
                ProtocolViolation(
                    "undeclared-capability",
                    f"the server sent {req.method} though the client did not declare {kind}; "
                    "answered with an error",
                    req,
                )
            )
            return events
        version = self.protocol_version or self.config.legacy_version
        if req.method not in features(version).server_requests:
            events.append(
                ProtocolViolation(
                    "version",
                    f"{req.method} does not exist in protocol version {version}; shown anyway",
                    req,
                )
            )
        ask = ServerAsk(
            ask_id=self._new_ask_id(),
            kind=kind,
            method=req.method,
            params=req.params or {},
            era=Era.LEGACY,
            wire_id=req.id,
        )
        self._asks[ask.ask_id] = ask
        self._legacy_asks_by_wire[req.id] = ask.ask_id
        events.append(ServerAskReceived(ask))
        return events

    # -------------------------------------------------------- notifications
    def _on_notification(self, note: Notification, now: float) -> list[Event]:
        typed = type_notification(note)
        events: list[Event] = []
        if isinstance(typed, ProgressUpdate):
            key = self._by_token.get(typed.token) if isinstance(typed.token, str) else None
            if key is not None:
                p = self._pending[key]
                if self.config.reset_timeout_on_progress:
                    p.last_activity = now
            else:
                events.append(
                    ProtocolViolation(
                        "progress-token",
                        f"progress for token {typed.token!r}, which no active request holds",
                    )
                )
            typed = ProgressUpdate(typed.token, typed.progress, typed.total, typed.message, key)
        elif isinstance(typed, ServerCancelled):
            rid = typed.request_id
            if rid is not None and rid in self._legacy_asks_by_wire:
                ask_id = self._legacy_asks_by_wire.pop(rid)
                if self._asks.pop(ask_id, None) is not None:
                    events.append(AskCancelled(ask_id, typed.reason or "cancelled by the server"))
            elif rid is not None and rid in self._by_wire and self.era is Era.MODERN:
                # Legacy: ids are per direction, so a server cancel names its own request.
                events.extend(self._on_server_cancel(self._pending[self._by_wire[rid]], typed))
        elif isinstance(typed, SubscriptionAcknowledged):
            sid = typed.subscription_id
            key = self._by_wire.get(sid) if sid is not None else None
            typed = SubscriptionAcknowledged(sid, typed.notifications, key)
        if (
            self.era is Era.LEGACY
            and self.state is ConnectionState.INITIALIZING
            and (note.method not in ("notifications/message", "notifications/progress"))
        ):
            events.append(
                ProtocolViolation(
                    "lifecycle",
                    f"the server sent {note.method} before the initialize response",
                )
            )
        if self.protocol_version is not None and (
            note.method not in features(self.protocol_version).server_notifications
        ):
            events.append(
                ProtocolViolation(
                    "unknown-notification",
                    f"{note.method} is not a server notification in protocol "
                    f"{self.protocol_version}",
                )
            )
        events.insert(0, NotificationReceived(note, typed))
        return events

    def _on_server_cancel(self, p: _Pending, cancelled: ServerCancelled) -> list[Event]:
        # spec 2026-07-28 stdio: the server ends a subscriptions/listen stream this way,
        # and "MUST NOT use this notification to cancel any other request".
        if p.method != "subscriptions/listen":
            return [
                ProtocolViolation(
                    "server-cancel",
                    f"the server sent notifications/cancelled for our {p.method} request "
                    f"{p.wire_id!r}; servers may only end subscriptions/listen this way "
                    "(the request stays pending)",
                )
            ]
        self._forget(p)
        self._remember(self._answered, p.wire_id, p.method)
        reason = f" ({cancelled.reason})" if cancelled.reason else ""
        return [
            RequestFailed(
                p.key,
                p.method,
                "cancelled",
                f"{p.method}: ended by the server{reason}",
                wire_id=p.wire_id,
            )
        ]

    # ---------------------------------------------------------------- close
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


def _supported_list(value: Any) -> list[str]:
    if isinstance(value, dict):
        value = value.get("supported")
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, str)]


def _best_mutual(
    theirs: list[str], ours: tuple[str, ...], exclude: str | None = None
) -> str | None:
    mutual = [v for v in theirs if v in ours and v != exclude and is_supported(v)]
    return max(mutual) if mutual else None
