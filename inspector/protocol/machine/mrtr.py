"""`MrtrRounds`: multi round-trip requests (spec 2026-07-28 MRTR).

A modern server does not send requests of its own; it answers one of ours with
`resultType: "input_required"`, listing what it needs (sampling, elicitation, roots).
The request pauses off the wire, each input request becomes a `ServerAsk` for the user,
and once all are answered the same request goes out again under a new id, carrying the
answers in `inputResponses` and the server's `requestState`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.protocol.machine.asks import ServerAsk, ask_kind
from inspector.protocol.machine.config import MRTR_METHODS, STATE_ONLY_BACKOFF
from inspector.protocol.machine.events import (
    Event,
    ProtocolViolation,
    RequestFailed,
    ServerAskReceived,
)
from inspector.protocol.machine.parts import ConnectionParts
from inspector.protocol.machine.pending import Pending
from inspector.protocol.wire.versions import Era

__all__ = ["MrtrRounds"]


@dataclass(slots=True, eq=False)
class MrtrRounds:
    """Turns input_required answers into asks, and the user's answers into the next round."""

    _parts: ConnectionParts

    def on_input_required(self, p: Pending, result: dict[str, Any], now: float) -> list[Event]:
        """The server answered `p` with input_required."""
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
        return violations + self._pause(p, result, now)

    def _pause(self, p: Pending, result: dict[str, Any], now: float) -> list[Event]:
        p.mrtr_rounds += 1
        if p.mrtr_rounds > self._parts.config.max_mrtr_rounds:
            return [
                self._fail(
                    p,
                    f"{p.method}: the server asked for input more than "
                    f"{self._parts.config.max_mrtr_rounds} rounds; giving up",
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
            return [self._fail(p, f"{p.method}: inputRequests is not an object")]
        if not requests:
            if p.request_state is None:
                return [
                    self._fail(
                        p,
                        f"{p.method}: input_required with neither inputRequests nor requestState",
                    )
                ]
            # Nothing to ask: retry with the state alone, after a growing pause.
            delay = STATE_ONLY_BACKOFF[min(p.state_only_streak, len(STATE_ONLY_BACKOFF) - 1)]
            p.state_only_streak += 1
            p.retry_at = now + delay
            return []
        p.state_only_streak = 0
        p.waiting_since = now
        return self._open_asks(p, requests)

    def _open_asks(self, p: Pending, requests: dict[Any, Any]) -> list[Event]:
        events: list[Event] = []
        problems: list[str] = []
        for input_key, entry in requests.items():
            method = entry.get("method") if isinstance(entry, dict) else None
            kind = ask_kind(method) if isinstance(method, str) else None
            if kind is None:
                problems.append(f"{input_key!r}: unknown input request method {method!r}")
                continue
            if kind not in self._parts.config.capabilities:
                events.append(
                    ProtocolViolation(
                        "undeclared-capability",
                        f"{p.method}: input request {input_key!r} is {method} though the "
                        f"client did not declare {kind}; shown anyway",
                    )
                )
            params = entry.get("params")
            ask = ServerAsk(
                ask_id=self._parts.asks.new_id(),
                kind=kind,
                method=str(method),
                params=params if isinstance(params, dict) else {},
                era=Era.MODERN,
                input_key=str(input_key),
                request_key=p.key,
                request_method=p.method,
            )
            self._parts.asks.open(ask)
            p.asks[ask.input_key or ""] = ask.ask_id
            events.append(ServerAskReceived(ask))
        if problems:
            events.extend(self._parts.asks.withdraw_for(p, "request failed"))
            events.append(
                self._fail(p, f"{p.method}: cannot answer input requests: " + "; ".join(problems))
            )
        return events

    def answer(self, ask: ServerAsk, result: dict[str, Any], now: float) -> list[Event]:
        """The user answered `ask` (already closed); the last answer sends the next round."""
        p = self._parts.pending.get(ask.request_key or -1)
        if p is None:
            return []
        p.responses[ask.input_key or ""] = result
        p.asks.pop(ask.input_key or "", None)
        if not p.asks:
            if p.waiting_since is not None:
                # The user's time in a dialog does not count against the server's total.
                p.started += max(0.0, now - p.waiting_since)
                p.waiting_since = None
            self._parts.wire.again(p, now)
        return []

    def reject(self, ask: ServerAsk, message: str) -> list[Event]:
        """The user refused `ask` (already closed). MRTR has no error slot in
        inputResponses, so (as the SDKs do) the paused request is abandoned: it fails
        locally as "rejected"."""
        p = self._parts.pending.get(ask.request_key or -1)
        if p is None:
            return []
        p.asks.pop(ask.input_key or "", None)
        events = self._parts.asks.withdraw_for(p, "another input request was rejected")
        self._parts.pending.forget(p)
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

    def _fail(self, p: Pending, message: str) -> RequestFailed:
        self._parts.pending.forget(p)
        return RequestFailed(p.key, p.method, "protocol", message, wire_id=p.wire_id)
