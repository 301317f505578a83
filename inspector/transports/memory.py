"""`MemoryTransport`: a transport whose peer is Python code in the same process.

httpx's `MockTransport` is the model: a session runs against a scripted peer with no
process, no pipe and no socket, so tests of the session and of the features above it need
a real server only where the real server is the point. The peer sees every message the
session sends, as the text that would have gone on the wire, and answers by pushing
frames (or stderr lines, or the end of the connection) back.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from inspector.transports.base import (
    FrameReceived,
    FramesReceived,
    Outgoing,
    StderrLine,
    Transport,
    TransportClosed,
    TransportClosedError,
    TransportEvent,
    until_closed,
)

__all__ = ["MemoryTransport", "Peer"]

# The peer: called with each message the session sends and the transport to answer on.
Peer = Callable[[str, "MemoryTransport"], None]


class MemoryTransport(Transport):
    def __init__(self, peer: Peer, *, kind: str = "stdio", name: str = "in-memory peer"):
        self.kind = kind  # what the session treats it as (stdio or http semantics)
        self._peer = peer
        self._name = name
        self._events: asyncio.Queue[TransportEvent] = asyncio.Queue()
        self._started = False
        self._closed: TransportClosed | None = None
        self.sent: list[str] = []  # every message the session sent, in order

    @property
    def description(self) -> str:
        return self._name

    async def start(self) -> None:
        self._started = True

    async def send(self, text: str, *, info: Outgoing | None = None) -> None:
        if self._closed is not None:
            raise TransportClosedError(f"cannot send: {self._closed.reason}")
        self.sent.append(text)
        self._peer(text, self)

    # ----------------------------------------------------------- the peer's side
    def push(self, raw: str | bytes) -> None:
        """A frame from the peer, exactly as given (invalid JSON and bytes included)."""
        if self._closed is None:
            size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
            self._events.put_nowait(FrameReceived(raw, size=size))

    def push_batch(self, raws: list[str | bytes]) -> None:
        """Frames that arrive together, as one read of a pipe brings them (`FramesReceived`)."""
        if self._closed is None:
            sizes = [len(r.encode("utf-8") if isinstance(r, str) else r) for r in raws]
            self._events.put_nowait(FramesReceived(list(raws), sizes))

    def push_stderr(self, text: str) -> None:
        if self._closed is None:
            self._events.put_nowait(StderrLine(text))

    def hang_up(self, reason: str = "the peer closed the connection", exit_code: int = 1) -> None:
        """The peer goes away on its own (a crash, an exit)."""
        self._end(TransportClosed(reason, exit_code=exit_code, error=True))

    # ----------------------------------------------------------- the session's side
    def events(self) -> AsyncIterator[TransportEvent]:
        return until_closed(self._events)

    async def close(self) -> None:
        self._end(TransportClosed("closed by the client"))

    def _end(self, event: TransportClosed) -> None:
        if self._closed is None:
            self._closed = event
            self._events.put_nowait(event)
