"""What a headless run reports on stderr while it talks to the server: invalid frames,
protocol violations, unmatched and late answers always; stderr, notifications, progress and
HTTP exchanges with `-v`. A debugger never hides bad input, even without a window."""

from __future__ import annotations

import json

from inspector.cli.errors import diag
from inspector.protocol.machine.events import (
    InvalidFrame,
    LateResponse,
    NotificationReceived,
    ProgressUpdate,
    ProtocolViolation,
    UnmatchedResponse,
    VersionRenegotiated,
)
from inspector.transports.base import HttpExchange, StderrLine, TransportClosed

__all__ = ["SessionDiagnostics"]


class SessionDiagnostics:
    """Session listener that reports what a debugger must never hide, on stderr."""

    def __init__(self, verbose: bool, transport_kind: str = "stdio") -> None:
        self.verbose = verbose
        self.transport_kind = transport_kind
        self.invalid: list[str] = []
        self.closed: TransportClosed | None = None

    def __call__(self, item: object) -> None:
        if type(item) is NotificationReceived and not self.verbose:
            return  # the common item (a flood of notifications): nothing to say
        if isinstance(item, StderrLine):
            if self.verbose:
                diag(f"[server] {item.text}")
        elif isinstance(item, InvalidFrame):
            raw = item.invalid.raw
            shown = raw if isinstance(raw, str) else repr(raw)
            self.invalid.append(f"{item.invalid.reason}: {shown[:120]!r}")
            diag(f"warning: invalid frame from the server ({item.invalid.reason}): {shown[:200]}")
        elif isinstance(item, ProtocolViolation):
            diag(f"warning: protocol violation ({item.rule}): {item.message}")
        elif isinstance(item, UnmatchedResponse | LateResponse):
            text = (
                item.message
                if isinstance(item, UnmatchedResponse)
                else f"late response to {item.method} (given up: {item.why_given_up})"
            )
            diag(f"warning: {text}")
        elif isinstance(item, VersionRenegotiated):
            diag(f"note: protocol {item.old} → {item.new}: {item.reason}")
        elif isinstance(item, NotificationReceived) and self.verbose:
            typed = item.typed
            if isinstance(typed, ProgressUpdate):
                total = f"/{typed.total:g}" if typed.total is not None else ""
                diag(f"progress {typed.progress:g}{total} {typed.message or ''}".rstrip())
            else:
                params = json.dumps(item.notification.params or {}, ensure_ascii=False)
                diag(f"notification {item.notification.method} {params[:300]}")
        elif isinstance(item, HttpExchange):
            if self.verbose:
                status = item.status if item.status is not None else "no response"
                note = f" ({item.note})" if item.note else ""
                diag(f"http {item.method} {item.url} → {status}{note}")
        elif isinstance(item, TransportClosed):
            self.closed = item

    def connect_failure(self, message: str) -> str:
        parts = [message]
        if self.invalid:
            where = (
                "invalid line(s) to stdout"
                if self.transport_kind == "stdio"
                else "invalid message(s) in its HTTP responses or events"
            )
            parts.append(f"the server wrote {len(self.invalid)} {where}, first: {self.invalid[0]}")
        if self.closed and self.closed.stderr_tail and self.closed.stderr_tail[-1] not in message:
            parts.append("last stderr: " + " | ".join(self.closed.stderr_tail[-3:]))
        return "; ".join(parts)
