"""One `Transport` interface for every kind of connection.

A transport moves frames and reports transport facts. It never interprets MCP:
it does not know what a request is. Errors are mapped once, here at the
boundary, into `TransportError` subclasses with sentences a person understands.
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "DeliveryFailed",
    "FrameReceived",
    "FramesReceived",
    "HttpExchange",
    "LaunchError",
    "Outgoing",
    "SessionExpired",
    "StderrLine",
    "StreamLost",
    "Transport",
    "TransportClosed",
    "TransportClosedError",
    "TransportError",
    "TransportEvent",
]


# The largest single message a transport accepts (a stdio line, an HTTP body, an SSE event).
# Bigger ones are cut to their head and flagged, never buffered whole. Profiles and the
# CLI (--max-message-mb) can change it.
DEFAULT_MAX_MESSAGE_BYTES: Final = 64 * 1024 * 1024


class TransportError(Exception):
    """Base class of transport failures; the message is meant for the user."""


class LaunchError(TransportError):
    """The server could not be started (command not found, not executable, bad cwd...)."""


class TransportClosedError(TransportError):
    """Sending on a transport that has ended."""


@dataclass(frozen=True, slots=True)
class FrameReceived:
    """One frame from the server.

    `raw` is the text as received (bytes when it was not valid UTF-8). When the
    frame exceeded the size limit, `truncated` is set, `raw` holds its head and
    `size` the full byte count; the rest was discarded to protect memory.
    """

    raw: str | bytes
    size: int
    truncated: bool = False
    http: HttpExchange | None = None  # the HTTP exchange that carried it, if any
    sse_event_id: str | None = None
    size_unknown: bool = False  # truncated, and reading stopped there: `size` is a minimum


@dataclass(frozen=True, slots=True)
class FramesReceived:
    """Complete frames that arrived together (one read from a pipe), in arrival order.

    Only plain frames: none cut at the size limit, none carried by HTTP (those come as
    `FrameReceived`). `raws[i]` is as `FrameReceived.raw`, `sizes[i]` its byte count on
    the wire. One event per read, so the reader wakes once for all of them.
    """

    raws: list[str | bytes]
    sizes: list[int]

    def __len__(self) -> int:
        return len(self.raws)

    def frames(self) -> list[FrameReceived]:
        """One `FrameReceived` per frame (for consumers that take them one by one)."""
        return [FrameReceived(raw, size) for raw, size in zip(self.raws, self.sizes, strict=True)]


@dataclass(frozen=True, slots=True)
class StderrLine:
    text: str
    truncated: bool = False


@dataclass(frozen=True, slots=True)
class HttpExchange:
    """An HTTP request/response pair (headers already redacted)."""

    method: str
    url: str
    status: int | None
    request_headers: dict[str, str] = field(default_factory=dict)
    response_headers: dict[str, str] = field(default_factory=dict)
    content_type: str | None = None
    note: str | None = None
    body_excerpt: str | None = None
    # Did something go wrong? None: decided by the status (no answer, or 400 and up). A
    # note alone is not a problem: "SSE stream", "GET stream open" are normal traffic.
    problem: bool | None = None

    @property
    def is_problem(self) -> bool:
        if self.problem is not None:
            return self.problem
        return self.status is None or self.status >= 400


@dataclass(frozen=True, slots=True)
class TransportClosed:
    """The transport ended. `reason` is a sentence; `exit_code` for subprocesses."""

    reason: str
    exit_code: int | None = None
    stderr_tail: tuple[str, ...] = ()
    error: bool = False  # True when the end was not asked for by the client


@dataclass(frozen=True, slots=True)
class DeliveryFailed:
    """A request could not be delivered or answered at the HTTP level (connection refused,
    HTTP 500 with an HTML body, a wrong content type...). Only that request fails."""

    wire_id: str | int
    reason: str
    status: int | None = None
    error: dict[str, Any] | None = None  # a JSON-RPC error object found in the HTTP body


@dataclass(frozen=True, slots=True)
class StreamLost:
    """A modern request's response stream broke before its answer; re-send it under a new id
    (spec 2026-07-28: streams are not resumable)."""

    wire_id: str | int
    reason: str


@dataclass(frozen=True, slots=True)
class SessionExpired:
    """The server answered 404 to our Mcp-Session-Id: the legacy session is gone."""

    reason: str


TransportEvent: TypeAlias = (
    FrameReceived
    | FramesReceived
    | StderrLine
    | HttpExchange
    | DeliveryFailed
    | StreamLost
    | SessionExpired
    | TransportClosed
)


@dataclass(frozen=True, slots=True)
class Outgoing:
    """Facts about an outgoing message, computed by the session (which knows MCP)."""

    kind: Literal["request", "notification", "response", "error"]
    method: str | None = None
    wire_id: str | int | None = None
    era: Literal["legacy", "modern"] = "legacy"
    protocol_version: str | None = None
    headers: dict[str, str] = field(default_factory=dict)  # e.g. Mcp-Method, Mcp-Param-*
    cancels: str | int | None = None  # notifications/cancelled: the request it cancels


class Transport(abc.ABC):
    """Start it, send one message at a time, read events, close it."""

    kind: str = "transport"

    @property
    @abc.abstractmethod
    def description(self) -> str:
        """What this connects to, for the UI and recordings (no secrets)."""

    @abc.abstractmethod
    async def start(self) -> None:
        """Connect or launch. Raises `TransportError` with a readable message."""

    @abc.abstractmethod
    async def send(self, text: str, *, info: Outgoing | None = None) -> None:
        """Send one serialized JSON-RPC message.

        `info` tells an HTTP transport what it needs without parsing the body: the message
        kind and id, and the protocol headers the session computed. stdio ignores it.
        Requests return once handed over; their answers arrive as events.
        """

    @abc.abstractmethod
    def events(self) -> AsyncIterator[TransportEvent]:
        """Events in arrival order; ends after `TransportClosed`."""

    @abc.abstractmethod
    async def close(self) -> None:
        """End the connection gracefully, escalating as needed. Idempotent."""


async def until_closed(queue: asyncio.Queue[TransportEvent]) -> AsyncIterator[TransportEvent]:
    """A transport's events from its queue, in order, ending after `TransportClosed` (what
    every `Transport.events()` yields)."""
    while True:
        event = await queue.get()
        yield event
        if isinstance(event, TransportClosed):
            return
