"""A scripted MCP server on the wire, for a real `Session` over a `MemoryTransport`.

Where `FakeServer` drives the sans-IO `ClientConnection` by hand, this peer answers the
whole driver (its tasks, timers, traffic observers and responder) with no process:

    peer = ScriptedPeer()
    peer.on("initialize", initialize_result())
    session = Session(peer.transport(), ClientConfig())
    await session.connect()
"""

from __future__ import annotations

from typing import Any

from inspector.protocol.wire.jsonrpc import (
    ErrorResponse,
    Invalid,
    Message,
    Notification,
    Request,
    RequestId,
    Response,
    encode,
    parse_frame,
)
from inspector.transports.memory import MemoryTransport
from tests.helpers.fake_server import Handler, Reply, ReplyScript

__all__ = ["ScriptedPeer"]


class ScriptedPeer:
    def __init__(self) -> None:
        self.script = ReplyScript()
        self.received: list[Message] = []  # every valid message the session sent
        self.link: MemoryTransport | None = None
        self._next_id = 5000

    def transport(self, kind: str = "stdio") -> MemoryTransport:
        self.link = MemoryTransport(self._on_message, kind=kind, name="scripted peer")
        return self.link

    def on(self, method: str, *replies: Reply | Handler, always: bool = False) -> None:
        self.script.on(method, *replies, always=always)

    # ------------------------------------------------------------ what it heard
    def requests(self, method: str | None = None) -> list[Request]:
        return [
            m
            for m in self.received
            if isinstance(m, Request) and (method is None or m.method == method)
        ]

    def notifications(self, method: str | None = None) -> list[Notification]:
        return [
            m
            for m in self.received
            if isinstance(m, Notification) and (method is None or m.method == method)
        ]

    def answers(self) -> list[Response | ErrorResponse]:
        """The session's answers to the peer's own requests."""
        return [m for m in self.received if isinstance(m, Response | ErrorResponse)]

    # ------------------------------------------------------------ what it says
    def send(self, message: Message) -> None:
        assert self.link is not None, "make the transport first"
        self.link.push(encode(message))

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        self.send(Notification(method, params))

    def ask(self, method: str, params: dict[str, Any] | None = None) -> RequestId:
        """A request of the peer's own (legacy sampling, roots/list, ping...)."""
        self._next_id += 1
        self.send(Request(self._next_id, method, params))
        return self._next_id

    def reply(self, request: Request, result: dict[str, Any]) -> None:
        self.send(Response(request.id, result))

    def _on_message(self, text: str, link: MemoryTransport) -> None:
        message = parse_frame(text)
        assert not isinstance(message, Invalid), f"the session sent an invalid frame: {text!r}"
        self.received.append(message)
        if isinstance(message, Request):
            reply = self.script.reply_for(message)
            if reply is not None:
                link.push(encode(reply))
