"""A scripted MCP server behind `httpx.MockTransport`, for transport tests without a socket.

`FakeHttp` answers like a well-behaved legacy (or modern) streamable HTTP server by default;
a test replaces one method's answer with `on(method, handler)`. Handlers may return a JSON
body, an `httpx.Response`, or a streamed SSE `httpx.Response` built with `sse(...)`, whose
parts are bytes, pauses (seconds), awaitables, and exceptions (to cut the stream).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.wire.versions import EraSetting
from inspector.session import Session
from inspector.transports.base import HttpExchange
from inspector.transports.factory import HttpKind, http_transport
from tests.helpers.fake_server import discover_result, initialize_result

URL = "http://mcp.test/mcp"
SECRET = "Bearer s3cret-t0ken-value"
SESSION_ID = "session-0123456789abcdef"


@dataclass
class Seen:
    """One HTTP request the fake received."""

    method: str
    url: str
    headers: httpx.Headers
    body: Any
    at: float = field(default_factory=time.monotonic)

    @property
    def rpc_method(self) -> str | None:
        return self.body.get("method") if isinstance(self.body, dict) else None

    @property
    def rpc_id(self) -> Any:
        return self.body.get("id") if isinstance(self.body, dict) else None


Handler = Callable[[Seen], Any]


def sse_event(message: dict[str, Any] | str, event_id: str | None = None) -> bytes:
    data = message if isinstance(message, str) else json.dumps(message)
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: message\ndata: {data}\n\n".encode()


def sse(*parts: Any, status: int = 200, headers: dict[str, str] | None = None) -> httpx.Response:
    """A streamed text/event-stream response. Parts: bytes/str to send, a number to pause,
    an awaitable to wait for, an exception to raise (a cut)."""
    closed = asyncio.Event()

    async def body() -> AsyncIterator[bytes]:
        try:
            for part in parts:
                if isinstance(part, bytes | str):
                    yield part.encode() if isinstance(part, str) else part
                elif isinstance(part, int | float):
                    await asyncio.sleep(part)
                elif isinstance(part, BaseException):
                    raise part
                elif inspect.isawaitable(part):
                    await part
                elif callable(part):
                    await part()
        finally:
            closed.set()

    response = httpx.Response(
        status,
        headers={"content-type": "text/event-stream", **(headers or {})},
        content=body(),
    )
    response.extensions["closed"] = closed  # the test can await the client's hang-up
    return response


def result(seen: Seen, value: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": seen.rpc_id, "result": value}


def rpc_error(seen: Seen | None, code: int, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": seen.rpc_id if seen else None, "error": error}


TOOLS = [
    {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}
]


class FakeHttp:
    """The server. `era` picks the default answers (legacy: sessions; modern: none)."""

    def __init__(self, era: str = "legacy", *, session_id: str | None = SESSION_ID) -> None:
        self.era = era
        self.session_id = session_id
        self.sessions_made = 0
        self.seen: list[Seen] = []
        self.handlers: dict[str, Handler] = {}
        self.get_handler: Handler = lambda _seen: httpx.Response(405)
        self.delete_status = 200
        self.notification_status = 202
        self.notification_handler: Handler | None = None  # notifications and responses
        self.arrived = asyncio.Condition()

    # ---------------------------------------------------------------- script
    def on(self, method: str, handler: Handler) -> None:
        self.handlers[method] = handler

    def posts(self, rpc_method: str | None = None) -> list[Seen]:
        return [
            s
            for s in self.seen
            if s.method == "POST" and (rpc_method is None or s.rpc_method == rpc_method)
        ]

    def requests_of(self, http_method: str) -> list[Seen]:
        return [s for s in self.seen if s.method == http_method]

    async def wait_for(self, predicate: Callable[[Seen], bool], timeout: float = 5.0) -> Seen:
        async def find() -> Seen:
            async with self.arrived:
                while True:
                    for s in self.seen:
                        if predicate(s):
                            return s
                    await self.arrived.wait()

        return await asyncio.wait_for(find(), timeout)

    # ------------------------------------------------------------- serving
    async def __call__(self, request: httpx.Request) -> httpx.Response:
        raw = await request.aread()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        seen = Seen(request.method, str(request.url), request.headers, body)
        async with self.arrived:
            self.seen.append(seen)
            self.arrived.notify_all()
        if request.method == "GET":
            return await _resolve(self.get_handler(seen))
        if request.method == "DELETE":
            return httpx.Response(self.delete_status)
        method = seen.rpc_method
        if method is None or seen.rpc_id is None:  # a notification or a response
            if self.notification_handler is not None:
                return await _resolve(self.notification_handler(seen))
            return httpx.Response(self.notification_status)
        handler = self.handlers.get(method)
        if handler is not None:
            return await _resolve(handler(seen), self._session_headers(seen))
        return await _resolve(self.default(seen), self._session_headers(seen))

    def _session_headers(self, seen: Seen) -> dict[str, str]:
        if self.era == "legacy" and seen.rpc_method == "initialize" and self.session_id:
            self.sessions_made += 1
            suffix = "" if self.sessions_made == 1 else f"-{self.sessions_made}"
            return {"mcp-session-id": self.session_id + suffix}
        return {}

    def current_session(self) -> str | None:
        if self.session_id is None:
            return None
        return self.session_id + ("" if self.sessions_made <= 1 else f"-{self.sessions_made}")

    def default(self, seen: Seen) -> Any:
        method = seen.rpc_method
        if method == "initialize":
            return result(seen, initialize_result())
        if method == "server/discover":
            return result(seen, discover_result())
        if method == "tools/list":
            return result(seen, {"tools": TOOLS})
        if method == "tools/call":
            text = json.dumps(seen.body["params"].get("arguments"))
            return result(seen, {"content": [{"type": "text", "text": text}]})
        if method == "resources/read":
            uri = seen.body["params"]["uri"]
            return result(seen, {"contents": [{"uri": uri, "text": "hello"}]})
        if method == "ping":
            return result(seen, {})
        return rpc_error(seen, -32601, "Method not found")


async def _resolve(value: Any, extra_headers: dict[str, str] | None = None) -> httpx.Response:
    if isinstance(value, Awaitable):
        value = await value
    if isinstance(value, httpx.Response):
        for name, item in (extra_headers or {}).items():
            value.headers[name] = item
        return value
    return httpx.Response(200, json=value, headers=extra_headers or {})


class Responder:
    """Answers every ask like a person would, and records them."""

    def __init__(self) -> None:
        self.asks: list[ServerAsk] = []

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        self.asks.append(ask)
        if ask.kind == "sampling":
            return {
                "role": "assistant",
                "content": {"type": "text", "text": "typed by hand"},
                "model": "human",
                "stopReason": "endTurn",
            }
        if ask.kind == "elicitation":
            return {"action": "accept", "content": {"name": "Ada"}}
        return {"roots": []}


@dataclass
class Opened:
    session: Session
    fake: FakeHttp
    client: httpx.AsyncClient
    events: list[Any]
    records: list[Any]
    responder: Responder

    def exchanges(self) -> list[HttpExchange]:
        return [e for e in self.events if isinstance(e, HttpExchange)]

    def notes(self) -> list[str]:
        return [e.note for e in self.exchanges() if e.note] + [
            str(r.raw) for r in self.records if r.kind == "note"
        ]


async def open_session(
    fake: FakeHttp,
    *,
    era: EraSetting = EraSetting.LEGACY,
    kind: HttpKind = "streamable-http",
    url: str = URL,
    connect: bool = True,
    **config: Any,
) -> Opened:
    client = httpx.AsyncClient(transport=httpx.MockTransport(fake))
    transport = http_transport(url, kind=kind, headers={"Authorization": SECRET}, client=client)
    responder = Responder()
    session = Session(transport, ClientConfig(era=era, **config), responder)
    events: list[Any] = []
    records: list[Any] = []
    session.add_listener(events.append)
    session.add_traffic_observer(records.append)
    opened = Opened(session, fake, client, events, records, responder)
    if connect:
        await session.connect(timeout=5)
    return opened
