"""A scripted fake MCP server for driving `ClientConnection` without any IO.

The server takes what the client queued (`conn.data_to_send()`), checks that every
message survives the wire (encode, then parse_frame), and answers with scripted
replies. Time never passes by itself: tests move `server.now` by hand and fire
the connection's timer with `advance()` or `run_to_deadline()`.

    conn = ClientConnection(ClientConfig())
    server = FakeServer(conn)
    server.on("initialize", initialize_result("2025-06-18"))
    events = server.start()  # queues initialize, answers it
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from inspector.protocol.machine.connection import ClientConfig, ClientConnection, ConnectionState
from inspector.protocol.machine.events import Event
from inspector.protocol.wire.jsonrpc import (
    ErrorResponse,
    Message,
    Notification,
    Request,
    RequestId,
    Response,
    encode,
    parse_frame,
)
from inspector.protocol.wire.versions import EraSetting

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
META = "io.modelcontextprotocol/"

Reply = dict[str, Any] | ErrorResponse | None
Handler = Callable[[Request], Reply]
E = TypeVar("E")


def of_type(events: Iterable[object], cls: type[E]) -> list[E]:
    """The events of one class, in order."""
    return [e for e in events if isinstance(e, cls)]


def one(events: Iterable[object], cls: type[E]) -> E:
    """The single event of `cls`; fails loudly when there are none or several."""
    found = of_type(events, cls)
    assert len(found) == 1, f"expected one {cls.__name__}, got {found!r}"
    return found[0]


def error(code: int, message: str, data: Any = None) -> ErrorResponse:
    """An error reply for a script (its id is filled in when it is sent)."""
    return ErrorResponse(None, code, message, data)


def initialize_result(
    version: str = LEGACY,
    capabilities: dict[str, Any] | None = None,
    *,
    name: str = "fake-server",
    instructions: str | None = None,
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "protocolVersion": version,
        "capabilities": capabilities if capabilities is not None else all_capabilities(),
        "serverInfo": {"name": name, "version": "1.0.0"},
    }
    if instructions is not None:
        result["instructions"] = instructions
    return result


def discover_result(
    versions: list[str] | None = None,
    capabilities: dict[str, Any] | None = None,
    *,
    name: str = "fake-modern-server",
) -> dict[str, Any]:
    return {
        "resultType": "complete",
        "supportedVersions": versions if versions is not None else [MODERN],
        "capabilities": capabilities if capabilities is not None else all_capabilities(),
        "_meta": {META + "serverInfo": {"name": name, "version": "2.0.0"}},
        "ttlMs": 0,
        "cacheScope": "public",
    }


def all_capabilities() -> dict[str, Any]:
    return {
        "tools": {"listChanged": True},
        "resources": {"subscribe": True, "listChanged": True},
        "prompts": {"listChanged": True},
        "logging": {},
        "completions": {},
    }


class ReplyScript:
    """What a scripted server answers, method by method (shared by `FakeServer`, which
    drives a `ClientConnection` directly, and `tests/helpers/scripted_peer.py`, which
    answers a `Session` over a `MemoryTransport`)."""

    def __init__(self) -> None:
        self._scripts: dict[str, deque[Reply | Handler]] = {}
        self._sticky: dict[str, Reply | Handler] = {}

    def on(self, method: str, *replies: Reply | Handler, always: bool = False) -> None:
        """Answer the next requests of `method` with `replies`, in order.

        A reply is a result dict, an `error(...)`, a callable taking the request, or
        None (stay silent). With `always=True` the single reply answers every request.
        """
        if always:
            assert len(replies) == 1
            self._sticky[method] = replies[0]
        else:
            self._scripts.setdefault(method, deque()).extend(replies)

    def reply_for(self, req: Request) -> Response | ErrorResponse | None:
        script = self._scripts.get(req.method)
        if script:
            item = script.popleft()
        elif req.method in self._sticky:
            item = self._sticky[req.method]
        else:
            return None
        reply = item(req) if callable(item) else item
        if reply is None:
            return None
        if isinstance(reply, ErrorResponse):
            return ErrorResponse(req.id, reply.code, reply.message, reply.data)
        return Response(req.id, reply)


class FakeServer:
    """The server side of one conversation, scripted by the test."""

    def __init__(self, conn: ClientConnection, now: float = 0.0) -> None:
        self.conn = conn
        self.now = now
        self.received: list[Message] = []  # everything the client ever put on the wire
        self.script = ReplyScript()
        self._next_server_id = 1000

    # ------------------------------------------------------------- scripting
    def on(self, method: str, *replies: Reply | Handler, always: bool = False) -> None:
        """Answer the next requests of `method` with `replies` (see `ReplyScript.on`)."""
        self.script.on(method, *replies, always=always)

    # ------------------------------------------------------------- the wire
    def take(self) -> list[Message]:
        """Drain what the client queued; each message must survive encode → parse_frame."""
        out = self.conn.data_to_send()
        for msg in out:
            again = parse_frame(encode(msg))
            assert again == msg, f"{msg!r} did not survive the wire: {again!r}"
        self.received.extend(out)
        return out

    def requests(self, method: str | None = None) -> list[Request]:
        """Every request the client sent so far (drains the outbox first)."""
        self.take()
        return [
            m
            for m in self.received
            if isinstance(m, Request) and (method is None or m.method == method)
        ]

    def last_request(self, method: str | None = None) -> Request:
        found = self.requests(method)
        assert found, f"the client sent no {method or 'request'}; wire: {self.received!r}"
        return found[-1]

    def notifications(self, method: str | None = None) -> list[Notification]:
        self.take()
        return [
            m
            for m in self.received
            if isinstance(m, Notification) and (method is None or m.method == method)
        ]

    def responses(self) -> list[Response | ErrorResponse]:
        """The client's answers to the server's own requests."""
        self.take()
        return [m for m in self.received if isinstance(m, Response | ErrorResponse)]

    def step(self) -> list[Event]:
        """Answer every queued client request that has a script; repeat until quiet."""
        events: list[Event] = []
        while True:
            answered = False
            for msg in self.take():
                if not isinstance(msg, Request):
                    continue
                reply = self.script.reply_for(msg)
                if reply is None:
                    continue
                answered = True
                events.extend(self.conn.receive(reply, self.now))
            if not answered:
                return events

    # ------------------------------------------------------ server → client
    def reply(self, req: Request | RequestId, result: dict[str, Any]) -> list[Event]:
        rid = req.id if isinstance(req, Request) else req
        return self.conn.receive(Response(rid, result), self.now)

    def fail(
        self, req: Request | RequestId | None, code: int, message: str, data: Any = None
    ) -> list[Event]:
        rid = req.id if isinstance(req, Request) else req
        return self.conn.receive(ErrorResponse(rid, code, message, data), self.now)

    def notify(self, method: str, params: dict[str, Any] | None = None) -> list[Event]:
        return self.conn.receive(Notification(method, params), self.now)

    def ask(
        self, method: str, params: dict[str, Any] | None = None, rid: RequestId | None = None
    ) -> tuple[RequestId, list[Event]]:
        """The server sends a request of its own (legacy sampling, roots, ping...)."""
        if rid is None:
            rid = self._next_server_id
            self._next_server_id += 1
        return rid, self.conn.receive(Request(rid, method, params), self.now)

    def feed(self, raw: str | bytes) -> list[Event]:
        """Raw bytes from the server, through the real parser."""
        return self.conn.receive(parse_frame(raw), self.now)

    # ------------------------------------------------------------------ time
    def advance(self, seconds: float) -> list[Event]:
        """Let `seconds` pass, then fire the connection's timer."""
        self.now += seconds
        return self.conn.handle_timer(self.now)

    def run_to_deadline(self) -> list[Event]:
        """Jump to the connection's next deadline and fire it."""
        deadline = self.conn.next_deadline()
        assert deadline is not None, "the connection has no deadline"
        self.now = max(self.now, deadline)
        return self.conn.handle_timer(self.now)

    # -------------------------------------------------------------- handshakes
    def start(self) -> list[Event]:
        """`conn.start(now)` then answer whatever the script covers."""
        self.conn.start(self.now)
        return self.step()


def legacy_session(
    version: str = LEGACY,
    server_capabilities: dict[str, Any] | None = None,
    **config: Any,
) -> tuple[ClientConnection, FakeServer]:
    """A READY legacy connection (initialize answered, initialized sent).

    `server_capabilities` is what the server declares; `config` goes to ClientConfig.
    """
    conn = ClientConnection(ClientConfig(era=EraSetting.LEGACY, **config))
    server = FakeServer(conn)
    server.on("initialize", initialize_result(version, server_capabilities))
    server.start()
    assert conn.state is ConnectionState.READY, conn.failure
    server.take()
    return conn, server


def modern_session(
    server_capabilities: dict[str, Any] | None = None, **config: Any
) -> tuple[ClientConnection, FakeServer]:
    """A READY modern connection (server/discover answered)."""
    conn = ClientConnection(ClientConfig(era=EraSetting.MODERN, **config))
    server = FakeServer(conn)
    server.on("server/discover", discover_result(capabilities=server_capabilities))
    server.start()
    assert conn.state is ConnectionState.READY, conn.failure
    server.take()
    return conn, server
