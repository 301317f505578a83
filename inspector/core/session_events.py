"""Where a session's events go: into the stores of its connection.

Log notifications become rows of the Notifications store, stderr lines go to the server
console, protocol trouble (invalid frames, violations, unmatched and late responses,
failed requests, version changes) to the Errors store; violations are lint findings too.
Two events need the connection's judgement (is this still the current session?) and are
handed back to it: a list change and the transport closing.
"""

from __future__ import annotations

from collections.abc import Callable

from inspector.protocol.machine.events import (
    InvalidFrame,
    LateResponse,
    ListChanged,
    NotificationReceived,
    ProtocolViolation,
    RequestFailed,
    UnmatchedResponse,
    VersionRenegotiated,
)
from inspector.session import Session
from inspector.traffic.error_store import ErrorStore
from inspector.traffic.log import TrafficLog
from inspector.traffic.log_messages import LogMessageStore
from inspector.transports.base import StderrLine, TransportClosed

__all__ = ["ROUTED_NOTIFICATIONS", "SessionEventRouter"]

_LIST_CHANGED = frozenset(
    {
        "notifications/tools/list_changed",
        "notifications/resources/list_changed",
        "notifications/prompts/list_changed",
    }
)
# The notifications route() acts on (the session calls it for these only).
ROUTED_NOTIFICATIONS = _LIST_CHANGED
_QUIET_FAILURES = ("initialize", "server/discover")  # the connect path reports these


class SessionEventRouter:
    def __init__(
        self,
        traffic: TrafficLog,
        messages: LogMessageStore,
        errors: ErrorStore,
        console: Callable[[str], None],
        list_changed: Callable[[Session, str], None],
        closed: Callable[[Session, TransportClosed], None],
        violated: Callable[[str, str, int | None], None],
    ) -> None:
        """`violated(rule, message, row)`: a protocol violation, for the lint's list."""
        self.traffic = traffic
        self.messages = messages
        self.errors = errors
        self._console = console
        self._list_changed = list_changed
        self._closed = closed
        self._violated = violated

    def route(self, session: Session, item: object) -> None:
        # The hot path (a flood of log notifications): test the common case first.
        if type(item) is NotificationReceived:
            # (Log lines reach the Notifications store as traffic: LogMessageStore.observe.)
            typed = item.typed
            if isinstance(typed, ListChanged):
                self._list_changed(session, typed.list_name)
            return
        if isinstance(item, StderrLine):
            self._console(item.text)
        elif isinstance(item, InvalidFrame):
            raw = item.invalid.raw
            shown = raw if isinstance(raw, str) else repr(raw)
            self.errors.add(
                "invalid frame",
                f"{item.invalid.reason}: {shown[:300]}",
                self._last_index(),
            )
        elif isinstance(item, ProtocolViolation):
            index = self._last_index()
            self.errors.add("protocol violation", f"{item.rule}: {item.message}", index)
            self._violated(item.rule, item.message, index)
        elif isinstance(item, UnmatchedResponse):
            self.errors.add("unmatched response", item.message, self._last_index())
        elif isinstance(item, LateResponse):
            self.errors.add(
                "late response",
                f"late response to {item.method} (given up: {item.why_given_up})",
                self._last_index(),
            )
        elif isinstance(item, RequestFailed):
            if item.kind != "cancelled" and item.method not in _QUIET_FAILURES:
                message = item.message
                if not message.startswith(item.method):
                    message = f"{item.method}: {message}"
                self.errors.add("request failed", message)
        elif isinstance(item, VersionRenegotiated):
            self.errors.add("version", f"protocol {item.old} → {item.new}: {item.reason}")
        elif isinstance(item, TransportClosed):
            self._closed(session, item)

    def _last_index(self) -> int | None:
        return len(self.traffic.entries) - 1 if self.traffic.entries else None
