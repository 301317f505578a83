"""A streamable HTTP MCP server (legacy era) that misbehaves on purpose (stdlib only).

    python tests/servers/misbehaving/http_server.py --port P

Every scenario lives at its own path, `http://127.0.0.1:P/<scenario>/mcp`, and behaves like
a well-behaved stateful server (initialize with an Mcp-Session-Id, 202 for notifications and
responses, tools/call "echo", ping, DELETE; GET is 405) except for `tools/list`:

  ok           a plain JSON answer
  cut          an SSE answer cut mid-event (the connection drops inside a chunk); the rest
               is replayed to a GET with Last-Event-ID (retry: 100 ms)
  cut-noid     an SSE answer cut mid-event with no event ids: it cannot be resumed
  expire       the server forgets the session and answers 404
  html500      HTTP 500 with an HTML body
  jsonerr      HTTP 500 with a JSON-RPC error body for the request
  ctype        HTTP 200 with text/plain (a JSON body under the wrong content type)
  drip         the SSE answer, one byte per chunk, 2 ms apart
  endless      one SSE event that never ends: `data: xxxx...` (--endless-mb, then silence)
  bigevent     an SSE event of ?mb=N MiB before the real answer
  wrongstream  the answer is sent on the GET stream; the POST stream ends without it
  badsid       initialize answers with an Mcp-Session-Id holding a space and a "ü"
               (outside visible ASCII, which the spec forbids)
  restart      the server "restarts" once per URL (add ?run=<token>): the first tools/list
               gets 404 and every session is forgotten; after that it works
  gone         every session is forgotten at its first tools/list (404 every time)
  gzipbomb     tools/list answers a gzip-encoded JSON body that inflates to ?mb=N MiB
  sloppy       a well-listed server whose HTTP is sloppy: a session id with spaces, 200
               (not 202) for notifications, GET answered with text/plain, DELETE with 500
  sloppyhttp   as sloppy, with a valid session id (so a client that refuses the bad one
               gets a session and sees the rest)

It speaks HTTP/1.1 with `Connection: close`, and chunked bodies for SSE, so a cut is a
real protocol error on the client side. Each request is logged to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import uuid
import zlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
REASONS = {
    200: "OK",
    202: "Accepted",
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    500: "Internal Server Error",
}
TOOLS = [
    {
        "name": "echo",
        "description": "Echo the text back",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    }
]
HTML = (
    "<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head>"
    "<body><h1>Internal Server Error</h1><p>The server encountered an internal error "
    "(upstream database timeout).</p></body></html>"
)


@dataclass
class McpSession:
    scenario: str
    replay: dict[str, list[bytes]] = field(default_factory=dict)  # last id -> events after
    get_queue: asyncio.Queue[bytes] | None = None
    get_open: asyncio.Event = field(default_factory=asyncio.Event)


class Exchange:
    """One HTTP request and its response writer."""

    def __init__(
        self,
        method: str,
        path: str,
        query: dict[str, list[str]],
        headers: dict[str, str],
        body: bytes,
        writer: asyncio.StreamWriter,
        reader: asyncio.StreamReader,
    ) -> None:
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.writer = writer
        self.reader = reader
        self.target = path + (
            "?" + "&".join(f"{k}={v[0]}" for k, v in query.items()) if query else ""
        )

    def _head(self, status: int, headers: dict[str, str]) -> bytes:
        lines = [f"HTTP/1.1 {status} {REASONS.get(status, 'Status')}"]
        lines += [f"{k}: {v}" for k, v in {"Connection": "close", **headers}.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def send(
        self, status: int, body: bytes = b"", ctype: str | None = None, **headers: str
    ) -> None:
        extra = {k.replace("_", "-"): v for k, v in headers.items()}
        if ctype:
            extra["Content-Type"] = ctype
        extra["Content-Length"] = str(len(body))
        self.writer.write(self._head(status, extra) + body)
        await self.writer.drain()

    async def json(self, value: Any, status: int = 200, **headers: str) -> None:
        await self.send(status, json.dumps(value).encode(), "application/json", **headers)

    async def start_sse(self, **headers: str) -> None:
        extra = {k.replace("_", "-"): v for k, v in headers.items()}
        extra.update(
            {
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "Transfer-Encoding": "chunked",
            }
        )
        self.writer.write(self._head(200, extra))
        await self.writer.drain()

    async def chunk(self, data: bytes) -> None:
        if data:
            self.writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            await self.writer.drain()

    async def end(self) -> None:
        self.writer.write(b"0\r\n\r\n")
        await self.writer.drain()

    async def cut(self, data: bytes) -> None:
        """Announce a chunk bigger than what is sent, then drop the connection."""
        self.writer.write(f"{len(data) + 100:x}\r\n".encode() + data)
        await self.writer.drain()
        self.writer.transport.abort()


def event(message: dict[str, Any] | str, event_id: str | None = None) -> bytes:
    data = message if isinstance(message, str) else json.dumps(message)
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: message\ndata: {data}\n\n".encode()


class Server:
    def __init__(self, endless_mb: int) -> None:
        self.restarted: set[str] = set()  # "restart": the URLs (with ?run=) that restarted
        self.sessions: dict[str, McpSession] = {}
        self.endless_mb = endless_mb

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, target, _version = lines[0].split(" ", 2)
            headers: dict[str, str] = {}
            for line in lines[1:]:
                if ":" in line:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0") or 0)
            body = await reader.readexactly(length) if length else b""
            path, _, query = target.partition("?")
            ex = Exchange(method, path, parse_qs(query), headers, body, writer, reader)
            log(
                f"{method} {target} session={headers.get('mcp-session-id')} "
                f"authorization={headers.get('authorization')!r} "
                f"last-event-id={headers.get('last-event-id')} body={body[:120]!r}"
            )
            await self.route(ex)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError) as exc:
            log(f"connection ended: {type(exc).__name__}: {exc}")
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def route(self, ex: Exchange) -> None:
        parts = ex.path.strip("/").split("/")
        if len(parts) != 2 or parts[1] != "mcp":
            await ex.send(404, b"no such endpoint", "text/plain")
            return
        scenario = parts[0]
        if ex.method == "POST":
            await self.post(ex, scenario)
        elif ex.method == "GET" and scenario in ("sloppy", "sloppyhttp"):
            await ex.send(200, b"hello", "text/plain")
        elif ex.method == "GET":
            await self.get(ex, scenario)
        elif ex.method == "DELETE" and scenario in ("sloppy", "sloppyhttp"):
            await ex.send(500, b"oops", "text/plain")
        elif ex.method == "DELETE":
            self.sessions.pop(ex.headers.get("mcp-session-id", ""), None)
            await ex.send(200)
        else:
            await ex.send(405, allow="GET, POST, DELETE")

    async def post(self, ex: Exchange, scenario: str) -> None:
        try:
            message = json.loads(ex.body)
        except ValueError:
            await ex.json(
                {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}},
                400,
            )
            return
        method = message.get("method")
        rid = message.get("id")
        if method == "initialize":
            sid = uuid.uuid4().hex if scenario != "sloppy" else f"sess {uuid.uuid4().hex[:6]}"
            self.sessions[sid] = McpSession(scenario)
            asked = message.get("params", {}).get("protocolVersion")
            version = asked if asked in KNOWN_VERSIONS else KNOWN_VERSIONS[-1]
            result = {
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": f"misbehaving-{scenario}", "version": "0.0.1"},
            }
            if scenario == "badsid":
                sid = "abc def\u00fc"
                self.sessions[sid] = McpSession(scenario)
            await ex.json({"jsonrpc": "2.0", "id": rid, "result": result}, mcp_session_id=sid)
            return
        sid = ex.headers.get("mcp-session-id")
        if sid is None:
            await ex.json(
                {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "No session"}},
                400,
            )
            return
        session = self.sessions.get(sid)
        if session is None:
            await ex.send(404, b"Session not found", "text/plain")
            return
        if method is None or rid is None:
            await ex.send(200 if scenario in ("sloppy", "sloppyhttp") else 202)
            return
        if method == "tools/list":
            await self.tools_list(ex, scenario, session, sid, rid)
        elif method == "tools/call":
            text = json.dumps(message.get("params", {}).get("arguments"))
            result = {"content": [{"type": "text", "text": text}]}
            await ex.json({"jsonrpc": "2.0", "id": rid, "result": result})
        elif method == "ping":
            await ex.json({"jsonrpc": "2.0", "id": rid, "result": {}})
        else:
            error = {"code": -32601, "message": "Method not found", "data": method}
            await ex.json({"jsonrpc": "2.0", "id": rid, "error": error})

    async def tools_list(
        self, ex: Exchange, scenario: str, session: McpSession, sid: str, rid: Any
    ) -> None:
        answer = {"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}}
        note = {
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": {"level": "info", "data": "listing tools"},
        }
        if scenario == "ok" or (scenario == "restart" and ex.target in self.restarted):
            await ex.json(answer)
        elif scenario == "cut":
            whole = event(answer, "3")
            session.replay["2"] = [whole]
            await ex.start_sse()
            await ex.chunk(b"retry: 100\nid: 1\ndata: \n\n")  # priming event
            await ex.chunk(event(note, "2"))
            await ex.cut(whole[: len(whole) // 2])
        elif scenario == "cut-noid":
            whole = event(answer)
            await ex.start_sse()
            await ex.chunk(event(note))
            await ex.cut(whole[: len(whole) // 2])
        elif scenario in ("expire", "gone") or (
            scenario == "restart" and ex.target not in self.restarted
        ):
            self.restarted.add(ex.target)
            if scenario == "expire":
                self.sessions.pop(sid, None)
            else:
                self.sessions.clear()
            await ex.send(404, b"Session not found", "text/plain")
        elif scenario == "gzipbomb":
            size = int(float(ex.query.get("mb", ["64"])[0]) * 1024 * 1024)
            squeeze = zlib.compressobj(9, zlib.DEFLATED, 31)
            head = b'{"jsonrpc":"2.0","id":' + json.dumps(rid).encode() + b',"result":{"x":"'
            parts = [squeeze.compress(head)]
            block = b"z" * (1024 * 1024)
            for _ in range(size // len(block)):
                parts.append(squeeze.compress(block))
            parts.append(squeeze.compress(b'"}}') + squeeze.flush())
            await ex.send(200, b"".join(parts), "application/json", content_encoding="gzip")
        elif scenario == "html500":
            await ex.send(500, HTML.encode(), "text/html; charset=utf-8")
        elif scenario == "jsonerr":
            error = {"code": -32603, "message": "Internal error: database is down"}
            await ex.json({"jsonrpc": "2.0", "id": rid, "error": error}, 500)
        elif scenario == "ctype":
            await ex.send(200, json.dumps(answer).encode(), "text/plain")
        elif scenario == "drip":
            await ex.start_sse()
            for byte in event(note) + event(answer):
                await ex.chunk(bytes([byte]))
                await asyncio.sleep(0.002)
            await ex.end()
        elif scenario == "endless":
            await ex.start_sse()
            await ex.chunk(event(note) + b"data: ")
            block = b"x" * 65536
            for _ in range(self.endless_mb * 16):
                await ex.chunk(block)
            await asyncio.sleep(3600)  # the event never ends; the client must give up
        elif scenario == "bigevent":
            size = int(float(ex.query.get("mb", ["1"])[0]) * 1024 * 1024)
            await ex.start_sse()
            await ex.chunk(b'data: {"jsonrpc":"2.0","method":"notifications/message","params":')
            block = b"y" * 65536
            sent = 0
            while sent < size:
                await ex.chunk(block)
                sent += len(block)
            await ex.chunk(b"\n\n" + event(answer))
            await ex.end()
        elif scenario == "wrongstream":
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(session.get_open.wait(), 3)
            await ex.start_sse()
            await ex.chunk(b": the answer will come on the GET stream\n\n")
            if session.get_queue is not None:
                await session.get_queue.put(event(answer))
            await asyncio.sleep(0.3)
            await ex.end()
        else:
            await ex.send(404, b"no such scenario", "text/plain")

    async def get(self, ex: Exchange, scenario: str) -> None:
        session = self.sessions.get(ex.headers.get("mcp-session-id", ""))
        if session is None:
            await ex.send(404 if "mcp-session-id" in ex.headers else 400, b"no session")
            return
        last = ex.headers.get("last-event-id")
        if last is not None:
            events = session.replay.pop(last, None)
            if events is None:
                await ex.send(404, b"nothing to replay", "text/plain")
                return
            await ex.start_sse()
            for item in events:
                await ex.chunk(item)
            await ex.end()
            return
        if scenario != "wrongstream":
            await ex.send(405, allow="POST, DELETE")
            return
        session.get_queue = asyncio.Queue()
        await ex.start_sse()
        session.get_open.set()
        eof = asyncio.ensure_future(ex.reader.read(1))
        try:
            while not eof.done():
                getter = asyncio.ensure_future(session.get_queue.get())
                done, _ = await asyncio.wait(
                    {getter, eof}, timeout=1.0, return_when=asyncio.FIRST_COMPLETED
                )
                if getter in done:
                    await ex.chunk(getter.result())
                else:
                    getter.cancel()
                    if not done:
                        await ex.chunk(b": keep-alive\n\n")
        finally:
            eof.cancel()


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


async def main_async(port: int, endless_mb: int) -> None:
    server = Server(endless_mb)
    listener = await asyncio.start_server(server.handle, "127.0.0.1", port)
    log(f"listening on 127.0.0.1:{port}")
    async with listener:
        await listener.serve_forever()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="a misbehaving streamable HTTP MCP server")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--endless-mb", type=int, default=64)
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main_async(args.port, args.endless_mb))


if __name__ == "__main__":
    main()
