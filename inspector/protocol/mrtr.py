"""Multi round-trip requests (spec 2026-07-28 MRTR) and answering the server's asks."""

from __future__ import annotations

from typing import Any

from inspector.protocol.asks import ServerAsk, ask_kind
from inspector.protocol.config import (
    MRTR_METHODS,
    STATE_ONLY_BACKOFF,
)
from inspector.protocol.core import ConnectionCore
from inspector.protocol.events import (
    Event,
    ProtocolViolation,
    RequestFailed,
    ServerAskReceived,
)
from inspector.protocol.jsonrpc import (
    USER_REJECTED,
    ErrorResponse,
    Response,
)
from inspector.protocol.pending import Pending
from inspector.protocol.versions import (
    Era,
)


class MrtrMixin(ConnectionCore):
    def _on_input_required(self, p: Pending, result: dict[str, Any], now: float) -> list[Event]:
        violations: list[Event] = []
        if p.method not in MRTR_METHODS:
            # spec 2026-07-28 MRTR: servers MUST NOT answer other requests with input_required.
            violations.append(
                ProtocolViolation(
                    "mrtr-method",
                    f"{p.method} was answered with input_required, which the spec allows only "
                    f"for {', '.join(sorted(MRTR_METHODS))}; handled anyway",
                )
            )
        return violations + self._handle_input_required(p, result, now)

    def _handle_input_required(self, p: Pending, result: dict[str, Any], now: float) -> list[Event]:
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
            delay = STATE_ONLY_BACKOFF[min(p.state_only_streak, len(STATE_ONLY_BACKOFF) - 1)]
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
