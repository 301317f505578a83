"""`ServerSide`: what the server sends on its own: requests (legacy), notifications, cancels.

A legacy server asks for sampling, elicitation or roots with JSON-RPC requests; each
becomes a `ServerAsk` the user answers with a response (or a -1 error). Notifications are
typed and checked against the agreed version; progress resets the timeout of the request
it names, and a server's notifications/cancelled withdraws an ask or ends a stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.protocol.machine.asks import ServerAsk, ask_kind
from inspector.protocol.machine.events import (
    Event,
    NotificationReceived,
    ProgressUpdate,
    ProtocolViolation,
    RequestFailed,
    ServerAskReceived,
    ServerCancelled,
    SubscriptionAcknowledged,
)
from inspector.protocol.machine.notifications import type_notification
from inspector.protocol.machine.parts import ConnectionParts
from inspector.protocol.machine.pending import Pending
from inspector.protocol.machine.state import ConnectionState
from inspector.protocol.wire.json_text import has_lone_surrogate
from inspector.protocol.wire.jsonrpc import (
    METHOD_NOT_FOUND,
    USER_REJECTED,
    ErrorResponse,
    Notification,
    Request,
    Response,
)
from inspector.protocol.wire.versions import Era, features

__all__ = ["ServerSide"]

# Notifications the connection itself acts on (the others it only passes on).
_APPLIED = frozenset(
    {
        "notifications/progress",
        "notifications/cancelled",
        "notifications/subscriptions/acknowledged",
    }
)


def _unicode_violations(req: Request) -> list[Event]:
    """A server id or method holding a lone surrogate (sent as an escape like "\\ud800")
    is not Unicode text; it is echoed back as the same escape (encode() keeps what we send
    valid UTF-8), and flagged."""
    bad = [
        what
        for what, text in (("id", req.id), ("method", req.method))
        if isinstance(text, str) and has_lone_surrogate(text)
    ]
    if not bad:
        return []
    return [
        ProtocolViolation(
            "invalid-unicode",
            f"a lone surrogate in the {' and the '.join(bad)} of a server request (not "
            "Unicode text, RFC 8259 section 8.2); echoed back as the same escape",
            req,
        )
    ]


@dataclass(slots=True, eq=False)
class ServerSide:
    """Reads the server's requests and notifications; answers legacy asks."""

    _parts: ConnectionParts
    # The server notifications the negotiated version knows, looked up once per version
    # (`on_notification`'s common case runs for every line of a flood).
    _plain_version: str | None = None
    _plain: frozenset[str] = frozenset()

    # ------------------------------------------------------------- requests
    def on_request(self, req: Request) -> list[Event]:
        """The server sent a request: answer it, or open an ask for the user."""
        era = self._parts.negotiated.era
        version = self._parts.negotiated.protocol_version
        events: list[Event] = _unicode_violations(req)
        if era is Era.MODERN and self._parts.lifecycle.state is not ConnectionState.PROBING:
            self._parts.outbox.put(
                ErrorResponse(
                    req.id,
                    METHOD_NOT_FOUND,
                    f"{req.method}: servers do not send requests in protocol "
                    f"{version} (use input_required)",
                )
            )
            return [
                *events,
                ProtocolViolation(
                    "modern-no-server-requests",
                    f"the server sent a {req.method} request, but in protocol "
                    f"{version} servers never send requests",
                    req,
                ),
            ]
        if req.method != "ping" and not self._parts.negotiated.initialized_sent:
            events.append(
                ProtocolViolation(
                    "lifecycle",
                    f"the server sent {req.method} before the client sent "
                    "notifications/initialized (only ping is allowed then)",
                    req,
                )
            )
        if req.method == "ping":
            self._parts.outbox.put(Response(req.id, {}))
            return events
        kind = ask_kind(req.method)
        if kind is None:
            self._parts.outbox.put(
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
        if kind not in self._parts.config.capabilities:
            self._parts.outbox.put(
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
        version = version or self._parts.config.legacy_version
        if req.method not in features(version).server_requests:
            events.append(
                ProtocolViolation(
                    "version",
                    f"{req.method} does not exist in protocol version {version}; shown anyway",
                    req,
                )
            )
        ask = ServerAsk(
            ask_id=self._parts.asks.new_id(),
            kind=kind,
            method=req.method,
            params=req.params or {},
            era=Era.LEGACY,
            wire_id=req.id,
        )
        self._parts.asks.open(ask)
        events.append(ServerAskReceived(ask))
        return events

    def answer(self, ask: ServerAsk, result: dict[str, Any]) -> None:
        """The user answered the legacy `ask` (already closed): the server gets a response."""
        assert ask.wire_id is not None
        self._parts.outbox.put(Response(ask.wire_id, result))

    def reject(self, ask: ServerAsk, message: str) -> None:
        """The user refused the legacy `ask` (already closed): a JSON-RPC error -1
        (spec 2025-06-18 sampling: "User rejected")."""
        assert ask.wire_id is not None
        self._parts.outbox.put(ErrorResponse(ask.wire_id, USER_REJECTED, message))

    # ------------------------------------------------------------- notifications
    def on_notification(self, note: Notification, now: float) -> list[Event]:
        """Type the notification, apply what it means, and flag what breaks the protocol."""
        method = note.method
        if method not in _APPLIED:
            # The common case (log lines, list changes): nothing to apply here, so the
            # typed view is left to whoever asks for it.
            received = NotificationReceived(note, None, type_notification)
            parts = self._parts
            version = parts.negotiated.protocol_version
            if version is not self._plain_version:  # once per version, not per frame
                self._plain_version = version
                self._plain = features(version).server_notifications if version else frozenset()
            if method in self._plain and parts.lifecycle.state is not ConnectionState.INITIALIZING:
                return [received]  # no rule broken (what _lifecycle_violations tests first)
            violations = self._lifecycle_violations(note)
            if violations:
                violations.insert(0, received)
                return violations
            return [received]
        parts = self._parts
        typed = type_notification(note)
        events: list[Event] = []
        if isinstance(typed, ProgressUpdate):
            p = parts.pending.by_token(typed.token) if isinstance(typed.token, str) else None
            if p is not None:
                if parts.config.reset_timeout_on_progress:
                    p.last_activity = now
            else:
                events.append(
                    ProtocolViolation(
                        "progress-token",
                        f"progress for token {typed.token!r}, which no active request holds",
                    )
                )
            key = p.key if p is not None else None
            typed = ProgressUpdate(typed.token, typed.progress, typed.total, typed.message, key)
        elif isinstance(typed, ServerCancelled):
            rid = typed.request_id
            ours = parts.pending.on_wire(rid) if rid is not None else None
            if rid is not None and parts.asks.is_open_by_server(rid):
                reason = typed.reason or "cancelled by the server"
                events.extend(parts.asks.cancel_by_server(rid, reason))
            elif ours is not None and parts.negotiated.era is Era.MODERN:
                # Legacy: ids are per direction, so a server cancel names its own request.
                events.extend(self._on_server_cancel(ours, typed))
        elif typed is None and note.method == "notifications/progress":
            events.append(
                ProtocolViolation(
                    "progress",
                    "notifications/progress without a usable progressToken, progress or total "
                    "(a string or integer token; numbers a double can hold); kept as sent",
                )
            )
        elif isinstance(typed, SubscriptionAcknowledged):
            sid = typed.subscription_id
            key = parts.pending.key_of_wire_id(sid) if sid is not None else None
            typed = SubscriptionAcknowledged(sid, typed.notifications, key)
        events.extend(self._lifecycle_violations(note))
        events.insert(0, NotificationReceived(note, typed))
        return events

    def _lifecycle_violations(self, note: Notification) -> list[Event]:
        parts = self._parts
        version = parts.negotiated.protocol_version
        if (
            version is not None
            and note.method in features(version).server_notifications
            and parts.lifecycle.state is not ConnectionState.INITIALIZING
        ):
            return []  # the common case, tested first
        events: list[Event] = []
        if (
            note.method not in ("notifications/message", "notifications/progress")
            and parts.negotiated.era is Era.LEGACY
            and parts.lifecycle.state is ConnectionState.INITIALIZING
        ):
            events.append(
                ProtocolViolation(
                    "lifecycle",
                    f"the server sent {note.method} before the initialize response",
                )
            )
        if version is not None and note.method not in features(version).server_notifications:
            events.append(
                ProtocolViolation(
                    "unknown-notification",
                    f"{note.method} is not a server notification in protocol {version}",
                )
            )
        return events

    def _on_server_cancel(self, p: Pending, cancelled: ServerCancelled) -> list[Event]:
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
        self._parts.pending.forget(p)
        self._parts.answered.remember(p.wire_id, p.method)
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
