"""`RequestWire`: puts our requests on the wire, round after round.

Every round of a request goes out under a fresh wire id, with what the era asks of it:
in the modern era each request carries the protocol version, client info and
capabilities in `_meta`, plus the MRTR answers (`inputResponses`, `requestState`) of the
round before. The caller's params are kept as given, so any round can be rebuilt.
"""

from __future__ import annotations

from typing import Any

from inspector.protocol.machine.config import (
    META_CLIENT_CAPS,
    META_CLIENT_INFO,
    META_LOG_LEVEL,
    META_VERSION,
    ClientConfig,
)
from inspector.protocol.machine.negotiated import Negotiated
from inspector.protocol.machine.outbox import Outbox
from inspector.protocol.machine.pending import Pending
from inspector.protocol.machine.pending_table import PendingTable
from inspector.protocol.wire.jsonrpc import Request
from inspector.protocol.wire.versions import Era

__all__ = ["RequestWire"]


class RequestWire:
    """Queues new requests and sends further rounds of pending ones."""

    __slots__ = ("_config", "_negotiated", "_outbox", "_pending")

    def __init__(
        self,
        config: ClientConfig,
        negotiated: Negotiated,
        pending: PendingTable,
        outbox: Outbox,
    ) -> None:
        self._config = config
        self._negotiated = negotiated
        self._pending = pending
        self._outbox = outbox

    def queue(
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
        """Track a new request and queue its first round; returns its key."""
        key = self._pending.new_key()
        if internal is not None and timeout is None:
            timeout = self._config.request_timeout
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
        self._pending.add(pending)
        self.put_on_wire(pending, now)
        return key

    def put_on_wire(self, p: Pending, now: float) -> None:
        """Queue `p` under a fresh wire id."""
        p.wire_id = self._pending.fresh_id()
        p.on_wire = True
        p.last_activity = now
        p.retry_at = None
        self._pending.bind_wire(p)
        self._outbox.put(Request(p.wire_id, p.method, self._wire_params(p)))

    def again(self, p: Pending, now: float) -> None:
        """Another round of the same request (MRTR, a -32022 retry, a re-send)."""
        p.wire_rounds += 1
        self.put_on_wire(p, now)

    def _wire_params(self, p: Pending) -> dict[str, Any] | None:
        config = self._config
        era = self._negotiated.era
        params: dict[str, Any] = dict(p.params) if p.params else {}
        meta: dict[str, Any] = dict(params.get("_meta") or {})
        if era is Era.MODERN:
            meta[META_VERSION] = self._negotiated.protocol_version or config.modern_version
            meta[META_CLIENT_INFO] = config.client_info
            # A request may add capabilities for itself (e.g. the tasks extension on one
            # tools/call: "Run as task"); the connection's own are always declared.
            extra = meta.get(META_CLIENT_CAPS)
            meta[META_CLIENT_CAPS] = (
                _merged(config.capabilities, extra)
                if isinstance(extra, dict)
                else config.capabilities
            )
            if config.log_level is not None:
                meta[META_LOG_LEVEL] = config.log_level
            if p.responses:
                params["inputResponses"] = dict(p.responses)
            if p.request_state is not None:
                params["requestState"] = p.request_state
        if p.progress_token is not None:
            meta["progressToken"] = p.progress_token
        if meta:
            params["_meta"] = meta
        if not params and era is Era.LEGACY and p.params is None:
            return None
        return params


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
