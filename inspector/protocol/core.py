"""The state every part of the client connection shares, and the helpers they all use."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from inspector.protocol.asks import ServerAsk
from inspector.protocol.config import (
    MEMORY,
    META_CLIENT_CAPS,
    META_CLIENT_INFO,
    META_LOG_LEVEL,
    META_VERSION,
    ClientConfig,
    ConnectionState,
)
from inspector.protocol.events import (
    AskCancelled,
    Event,
    RequestCompleted,
    RequestFailed,
    SessionReady,
)
from inspector.protocol.jsonrpc import (
    ErrorResponse,
    Message,
    Notification,
    Request,
    RequestId,
)
from inspector.protocol.pending import Pending
from inspector.protocol.versions import (
    Era,
    EraSetting,
)


class ConnectionCore:
    """Fields and shared helpers; the handshake, MRTR and server-side parts extend it."""

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
        self._pending: dict[int, Pending] = {}
        self._by_wire: dict[RequestId, int] = {}
        self._by_token: dict[str, int] = {}
        self._asks: dict[int, ServerAsk] = {}
        self._legacy_asks_by_wire: dict[RequestId, int] = {}
        self._given_up: OrderedDict[RequestId, tuple[str, str]] = OrderedDict()
        self._answered: OrderedDict[RequestId, str] = OrderedDict()

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

    def fresh_id(self) -> int:
        """An id no in-flight request uses (for the raw composer)."""
        while self._next_id in self._by_wire:
            self._next_id += 1
        value = self._next_id
        self._next_id += 1
        return value

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
        pending = Pending(
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

    def _put_on_wire(self, p: Pending, now: float) -> None:
        wire_id = self.fresh_id()
        p.wire_id = wire_id
        p.on_wire = True
        p.last_activity = now
        p.retry_at = None
        self._by_wire[wire_id] = p.key
        self._outbox.append(Request(wire_id, p.method, self._wire_params(p)))

    def _wire_params(self, p: Pending) -> dict[str, Any] | None:
        params: dict[str, Any] = dict(p.params) if p.params else {}
        meta: dict[str, Any] = dict(params.get("_meta") or {})
        if self.era is Era.MODERN:
            meta[META_VERSION] = self.protocol_version or self.config.modern_version
            meta[META_CLIENT_INFO] = self.config.client_info
            # A request may add capabilities for itself (e.g. the tasks extension on one
            # tools/call: "Run as task"); the connection's own are always declared.
            extra = meta.get(META_CLIENT_CAPS)
            meta[META_CLIENT_CAPS] = (
                _merged(self.config.capabilities, extra)
                if isinstance(extra, dict)
                else self.config.capabilities
            )
            if self.config.log_level is not None:
                meta[META_LOG_LEVEL] = self.config.log_level
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

    def _forget(self, p: Pending) -> None:
        self._pending.pop(p.key, None)
        if self._by_wire.get(p.wire_id) == p.key:
            del self._by_wire[p.wire_id]
        if p.progress_token is not None:
            self._by_token.pop(p.progress_token, None)

    def _drop_asks_of(self, p: Pending, reason: str) -> list[Event]:
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
        while len(store) > MEMORY:
            store.popitem(last=False)

    def _complete(self, p: Pending, result: dict[str, Any]) -> list[Event]:
        self._forget(p)
        return [RequestCompleted(p.key, p.method, result, p.wire_id, p.wire_rounds)]

    def _fail_error(self, p: Pending, err: ErrorResponse, message: str | None = None) -> Event:
        self._forget(p)
        return RequestFailed(
            p.key,
            p.method,
            "error",
            message or f"{p.method} failed: {err.code} {err.message}",
            error=err,
            wire_id=p.wire_id,
        )

    def _new_ask_id(self) -> int:
        ask_id = self._next_ask
        self._next_ask += 1
        return ask_id

    def _ready_event(self, result: dict[str, Any] | None) -> SessionReady:
        return SessionReady(
            era=self.era,
            protocol_version=self.protocol_version or "",
            server_info=self.server_info,
            capabilities=self.server_capabilities or {},
            instructions=self.instructions,
            result=result,
        )

    def _record_server(self, result: dict[str, Any], server_info: Any) -> None:
        self.handshake_result = result
        self.server_info = server_info if isinstance(server_info, dict) else {}
        caps = result.get("capabilities")
        self.server_capabilities = caps if isinstance(caps, dict) else {}
        instructions = result.get("instructions")
        self.instructions = instructions if isinstance(instructions, str) else None


def _merged(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """`base` with `extra` laid over it, objects merged key by key."""
    out = dict(base)
    for key, value in extra.items():
        old = out.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            out[key] = _merged(old, value)
        else:
            out[key] = value
    return out
