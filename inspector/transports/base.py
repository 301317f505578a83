"""One `Transport` interface for every kind of connection.

A transport moves frames and reports transport facts. It never interprets MCP:
it does not know what a request is. Errors are mapped once, here at the
boundary, into `TransportError` subclasses with sentences a person understands.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, TypeAlias

__all__ = [
    "FrameReceived",
    "HttpExchange",
    "LaunchError",
    "StderrLine",
    "Transport",
    "TransportClosed",
    "TransportClosedError",
    "TransportError",
    "TransportEvent",
]


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


@dataclass(frozen=True, slots=True)
class TransportClosed:
    """The transport ended. `reason` is a sentence; `exit_code` for subprocesses."""

    reason: str
    exit_code: int | None = None
    stderr_tail: tuple[str, ...] = ()
    error: bool = False  # True when the end was not asked for by the client


TransportEvent: TypeAlias = FrameReceived | StderrLine | HttpExchange | TransportClosed


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
    async def send(self, text: str, *, meta: dict[str, Any] | None = None) -> None:
        """Send one serialized JSON-RPC message. `meta` carries hints (e.g. HTTP headers)."""

    @abc.abstractmethod
    def events(self) -> AsyncIterator[TransportEvent]:
        """Events in arrival order; ends after `TransportClosed`."""

    @abc.abstractmethod
    async def close(self) -> None:
        """End the connection gracefully, escalating as needed. Idempotent."""
