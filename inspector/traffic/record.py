"""What the session reports to traffic observers for every frame, valid or not, and the
kinds and directions of the log's rows; a note row (`note_record`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from inspector.protocol.wire.jsonrpc import (
    ErrorResponse,
    Notification,
    ParsedFrame,
    Request,
    Response,
)
from inspector.transports.base import HttpExchange

__all__ = [
    "DIRECTIONS",
    "KINDS",
    "OPPOSITE",
    "Direction",
    "EntryKind",
    "TrafficBatchObserver",
    "TrafficObserver",
    "TrafficRecord",
    "kind_of",
    "note_record",
]

# "out"/"in": to/from the server. "from-app"/"to-app": an MCP App's postMessage JSON-RPC with
# the host (the app view's messages, never sent to the server; features/mcp_apps).
Direction: TypeAlias = Literal["out", "in", "", "from-app", "to-app"]
DIRECTIONS: Final[tuple[Direction, ...]] = ("", "out", "in", "from-app", "to-app")
# A response travels the other way from its request.
OPPOSITE: Final[dict[str, Direction]] = {
    "out": "in",
    "in": "out",
    "from-app": "to-app",
    "to-app": "from-app",
    "": "",
}
EntryKind: TypeAlias = Literal[
    "request", "response", "error", "notification", "invalid", "stderr", "http", "note", "model"
]

KINDS: Final[tuple[EntryKind, ...]] = (
    "request",
    "response",
    "error",
    "notification",
    "invalid",
    "stderr",
    "http",
    "note",
    "model",  # an exchange with a model provider (sampling answered by a model), not MCP
)


_KIND_OF: Final[dict[type, EntryKind]] = {
    Request: "request",
    Notification: "notification",
    Response: "response",
    ErrorResponse: "error",
}


def kind_of(frame: ParsedFrame) -> EntryKind:
    return _KIND_OF.get(type(frame), "invalid")


@dataclass(slots=True)
class TrafficRecord:
    """What the session reports to traffic observers for every frame, valid or not."""

    direction: Direction
    kind: EntryKind
    raw: str | bytes
    mono: float
    wall: float
    transport: str
    frame: ParsedFrame | None = None
    size: int = 0
    truncated: bool = False
    note: str | None = None  # e.g. "stdout pollution", the invalid reason
    http: HttpExchange | None = None
    sse_event_id: str | None = None


def note_record(
    text: str, transport: str, note: str | None = None, mono: float | None = None
) -> TrafficRecord:
    """A `note` row saying `text`: no frame and no direction, stamped now (`mono`, when
    given, is the monotonic time of a session's own clock)."""
    return TrafficRecord(
        direction="",
        kind="note",
        raw=text,
        mono=time.monotonic() if mono is None else mono,
        wall=time.time(),
        transport=transport,
        note=note,
    )


# Observers may return something (TrafficLog.observe returns the new entry); it is ignored.
TrafficObserver: TypeAlias = Callable[[TrafficRecord], object]
# The batch form of an observer: records that arrived together, in order, in one call.
TrafficBatchObserver: TypeAlias = Callable[[Sequence[TrafficRecord]], object]
