"""Events the `ClientConnection` emits. Small frozen classes, as in h11's _events.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.wire.jsonrpc import ErrorResponse, Invalid, Notification, Request, RequestId
from inspector.protocol.wire.versions import Era

__all__ = [
    "AskCancelled",
    "Event",
    "FailureKind",
    "InvalidFrame",
    "LateResponse",
    "ListChanged",
    "LogMessage",
    "NotificationReceived",
    "ProgressUpdate",
    "ProtocolViolation",
    "RequestCompleted",
    "RequestFailed",
    "ResourceUpdated",
    "ServerAskReceived",
    "ServerCancelled",
    "SessionReady",
    "SubscriptionAcknowledged",
    "UnmatchedResponse",
    "VersionRenegotiated",
]

FailureKind: TypeAlias = Literal[
    "error",  # the server answered with a JSON-RPC error
    "timeout",
    "cancelled",  # cancelled by the user
    "closed",  # the connection ended
    "rejected",  # the user rejected an input request (modern MRTR)
    "protocol",  # the answer broke the protocol (bad version, too many MRTR rounds, ...)
    "transport",  # the request could not be delivered or answered (HTTP 500, refused, ...)
]


@dataclass(frozen=True, slots=True)
class SessionReady:
    """The handshake (legacy initialize, or modern discover) is done; requests may flow."""

    era: Era
    protocol_version: str
    server_info: dict[str, Any]
    capabilities: dict[str, Any]
    instructions: str | None
    result: dict[str, Any] | None  # raw initialize / discover result, None if discover skipped


@dataclass(frozen=True, slots=True)
class VersionRenegotiated:
    """A -32022 (or an auto-era fallback) made us switch version or era."""

    old: str
    new: str
    reason: str


@dataclass(frozen=True, slots=True)
class RequestCompleted:
    key: int
    method: str
    result: dict[str, Any]
    wire_id: RequestId
    rounds: int = 1  # how many requests went on the wire (MRTR retries, version retries)


@dataclass(frozen=True, slots=True)
class RequestFailed:
    key: int
    method: str
    kind: FailureKind
    message: str
    error: ErrorResponse | None = None
    wire_id: RequestId | None = None


@dataclass(frozen=True, slots=True)
class ServerAskReceived:
    """The server asks for sampling, elicitation or roots. Answer via `answer_ask`/`reject_ask`."""

    ask: ServerAsk


@dataclass(frozen=True, slots=True)
class AskCancelled:
    """The server withdrew an ask (legacy notifications/cancelled), or its request ended."""

    ask_id: int
    reason: str


class NotificationReceived:
    """Any notification from the server, with its typed view (if known).

    When the connection did not need the view itself, it passes the function that builds
    it (`typer`), and the view is built on first use: a flood of log lines is mostly
    never looked at as typed objects.
    """

    __slots__ = ("_typed", "_typer", "notification")

    def __init__(
        self,
        notification: Notification,
        typed: TypedNotification | None = None,
        typer: Callable[[Notification], TypedNotification | None] | None = None,
    ) -> None:
        self.notification = notification
        self._typed = typed
        self._typer = typer

    @property
    def typed(self) -> TypedNotification | None:
        typer = self._typer
        if typer is not None:
            self._typer = None
            self._typed = typer(self.notification)
        return self._typed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NotificationReceived):
            return NotImplemented
        return self.notification == other.notification and self.typed == other.typed

    __hash__ = None  # type: ignore[assignment]  # mutable cache; params are dicts anyway

    def __repr__(self) -> str:
        return f"NotificationReceived(notification={self.notification!r}, typed={self.typed!r})"


@dataclass(frozen=True, slots=True)
class ListChanged:
    list_name: Literal["tools", "resources", "prompts"]


@dataclass(frozen=True, slots=True)
class ResourceUpdated:
    uri: str


@dataclass(frozen=True, slots=True)
class LogMessage:
    level: str
    logger: str | None
    data: Any
    request_key: int | None = None  # modern: the request whose _meta asked for logs


@dataclass(frozen=True, slots=True)
class ProgressUpdate:
    token: str | int
    progress: float
    total: float | None
    message: str | None
    request_key: int | None  # None: a token we never issued


@dataclass(frozen=True, slots=True)
class ServerCancelled:
    """The server says it cancelled something (a request id of ours or of its own)."""

    request_id: RequestId | None
    reason: str | None


@dataclass(frozen=True, slots=True)
class SubscriptionAcknowledged:
    subscription_id: RequestId | None
    notifications: dict[str, Any] = field(default_factory=dict)
    request_key: int | None = None


TypedNotification: TypeAlias = (
    ListChanged
    | ResourceUpdated
    | LogMessage
    | ProgressUpdate
    | ServerCancelled
    | SubscriptionAcknowledged
)


@dataclass(frozen=True, slots=True)
class UnmatchedResponse:
    """A response whose id we never sent, or already got an answer for."""

    wire_id: RequestId | None
    reason: Literal["unknown id", "duplicate", "null id"]
    message: str


@dataclass(frozen=True, slots=True)
class LateResponse:
    """A response for a request we had already given up on (timeout or cancel)."""

    wire_id: RequestId
    method: str
    why_given_up: str


@dataclass(frozen=True, slots=True)
class InvalidFrame:
    invalid: Invalid


@dataclass(frozen=True, slots=True)
class ProtocolViolation:
    """The server broke a rule, but the session goes on. Shown to the user, never hidden."""

    rule: str
    message: str
    request: Request | None = None


Event: TypeAlias = (
    SessionReady
    | VersionRenegotiated
    | RequestCompleted
    | RequestFailed
    | ServerAskReceived
    | AskCancelled
    | NotificationReceived
    | UnmatchedResponse
    | LateResponse
    | InvalidFrame
    | ProtocolViolation
)
