"""What the server sends on its own: requests (legacy), notifications, cancellations."""

from __future__ import annotations

from inspector.protocol.asks import ServerAsk, ask_kind
from inspector.protocol.config import (
    ConnectionState,
)
from inspector.protocol.core import ConnectionCore
from inspector.protocol.events import (
    AskCancelled,
    Event,
    NotificationReceived,
    ProgressUpdate,
    ProtocolViolation,
    RequestFailed,
    ServerAskReceived,
    ServerCancelled,
    SubscriptionAcknowledged,
)
from inspector.protocol.jsonrpc import (
    METHOD_NOT_FOUND,
    ErrorResponse,
    Notification,
    Request,
    Response,
)
from inspector.protocol.notifications import type_notification
from inspector.protocol.pending import Pending
from inspector.protocol.versions import (
    Era,
    features,
)


class ServerSideMixin(ConnectionCore):
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
