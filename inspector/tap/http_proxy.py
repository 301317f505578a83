"""The HTTP tap: a loopback reverse proxy for a host that talks to a remote MCP server.

    mcp-inspector-qt tap --listen 127.0.0.1:PORT --upstream URL

The host is pointed at `http://127.0.0.1:PORT/...` instead of the server. Each request is
checked (Host and Origin must be this machine, `http_checks`), sent on to the upstream
with the same method, path, query, headers and body, and the answer streams back as it
arrives: an SSE stream is passed through chunk by chunk, unchanged. Every exchange goes to
the same kind of live session file as the stdio tap (`http` lines, the frames each one
carried, SSE event ids), with Authorization values and bearer tokens redacted.

This is the only listening socket the project opens besides the OAuth redirect listener,
and it is opened only by this explicit command.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Final
from urllib.parse import urlsplit

import h11
import httpx

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.recording.format import Redactor
from inspector.recording.writer import SessionRecorder
from inspector.tap.http_checks import host_allowed, origin_allowed
from inspector.traffic.record import TrafficRecord, kind_of
from inspector.transports.base import HttpExchange
from inspector.transports.http_common import redact_headers, redact_url
from inspector.transports.sse import SseDecoder

__all__ = ["HttpTap"]

_HOP: Final = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
    }
)
_MAX_BODY: Final = 64 * 1024 * 1024
_MAX_RECORDED_BODY: Final = 16 * 1024 * 1024


class HttpTap:
    def __init__(
        self,
        upstream: str,
        port: int,
        recorder: SessionRecorder | None,
        client: httpx.AsyncClient | None = None,
        say: Callable[[str], None] = lambda _t: None,
    ) -> None:
        self.upstream = upstream
        parts = urlsplit(upstream)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.upstream_path = parts.path or "/"
        self.port = port
        self.recorder = recorder
        self.redactor = recorder.redactor if recorder is not None else Redactor()
        self.client = client or httpx.AsyncClient(timeout=httpx.Timeout(30.0, read=None))
        self.say = say
        self.refused = 0

    def target(self, path: str) -> str:
        """The upstream URL of a request path: `/` is the upstream URL itself, any other
        path is taken on the upstream's host (an SSE endpoint's message URL, say)."""
        base, _, query = path.partition("?")
        url = self.upstream if base in ("/", "") else self.origin + base
        return f"{url}?{query}" if query else url

    # -- recording -------------------------------------------------------------
    def _record(self, record: TrafficRecord) -> None:
        if self.recorder is not None:
            self.recorder.observe(record)

    def _frame(
        self, direction: str, raw: str | bytes, exchange: HttpExchange, sse: str | None
    ) -> None:
        frame = parse_frame(raw)
        self._record(
            TrafficRecord(
                "out" if direction == "out" else "in",
                kind_of(frame),
                raw,
                time.monotonic(),
                time.time(),
                "http",
                frame=frame,
                size=len(raw),
                http=exchange,
                sse_event_id=sse,
            )
        )

    def _secrets_of(self, headers: list[tuple[bytes, bytes]]) -> None:
        for name, value in headers:
            low = name.decode("latin-1").lower()
            if low in ("authorization", "proxy-authorization", "cookie") or any(
                h in low for h in ("token", "secret", "key", "auth")
            ):
                text = value.decode("latin-1")
                self.redactor.add(text)
                scheme, _, token = text.partition(" ")
                if token and scheme.lower() in ("bearer", "dpop", "basic"):
                    self.redactor.add(token)

    # -- serving ---------------------------------------------------------------
    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = h11.Connection(h11.SERVER)
        try:
            while True:
                request, body = await self._read_request(conn, reader)
                if request is None:
                    return
                await self._answer(conn, writer, request, body)
                if conn.our_state is h11.MUST_CLOSE or conn.their_state is h11.MUST_CLOSE:
                    return
                try:
                    conn.start_next_cycle()
                except h11.LocalProtocolError:
                    return
        except (h11.ProtocolError, ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def _read_request(
        self, conn: h11.Connection, reader: asyncio.StreamReader
    ) -> tuple[h11.Request | None, bytes]:
        request: h11.Request | None = None
        body = bytearray()
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                data = await reader.read(65536)
                conn.receive_data(data)
                if not data and request is None:
                    return None, b""
                continue
            if isinstance(event, h11.Request):
                request = event
            elif isinstance(event, h11.Data):
                body += event.data
                if len(body) > _MAX_BODY:
                    raise h11.RemoteProtocolError("request body too large")
            elif isinstance(event, h11.EndOfMessage):
                return request, bytes(body)
            elif isinstance(event, h11.ConnectionClosed):
                return None, b""

    async def _refuse(
        self, conn: h11.Connection, writer: asyncio.StreamWriter, status: int, why: str
    ) -> None:
        self.refused += 1
        self.say(why)
        self._record(_note(why))
        body = (why + "\n").encode()
        headers = [
            ("content-type", "text/plain; charset=utf-8"),
            ("content-length", str(len(body))),
        ]
        writer.write(conn.send(h11.Response(status_code=status, headers=headers)) or b"")
        writer.write(conn.send(h11.Data(data=body)) or b"")
        writer.write(conn.send(h11.EndOfMessage()) or b"")
        await writer.drain()

    async def _answer(
        self, conn: h11.Connection, writer: asyncio.StreamWriter, request: h11.Request, body: bytes
    ) -> None:
        headers = dict(
            (k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in request.headers
        )
        if not host_allowed(headers.get("host"), self.port):
            await self._refuse(
                conn, writer, 421, f"refused: Host {headers.get('host')!r} is not this machine"
            )
            return
        if not origin_allowed(headers.get("origin")):
            await self._refuse(
                conn, writer, 403, f"refused: Origin {headers.get('origin')!r} is not this machine"
            )
            return
        method = request.method.decode("ascii", "replace")
        url = self.target(request.target.decode("latin-1"))
        forwarded = [
            (k.decode("latin-1"), v.decode("latin-1"))
            for k, v in request.headers
            if k.decode("latin-1").lower() not in _HOP
            and k.decode("latin-1").lower() not in ("origin", "accept-encoding")
        ]
        self._secrets_of(list(request.headers))
        upstream_request = self.client.build_request(method, url, headers=forwarded, content=body)
        exchange = HttpExchange(method, redact_url(url), None, redact_headers(dict(forwarded)))
        if body:
            self._frame("out", _text(body), exchange, None)
        try:
            response = await self.client.send(upstream_request, stream=True)
        except httpx.HTTPError as exc:
            why = f"the upstream {redact_url(url)} did not answer: {type(exc).__name__}: {exc}"
            self._record(_note(why))
            await self._refuse(conn, writer, 502, why)
            return
        try:
            await self._relay_response(conn, writer, response, exchange)
        finally:
            await response.aclose()

    async def _relay_response(
        self,
        conn: h11.Connection,
        writer: asyncio.StreamWriter,
        response: httpx.Response,
        exchange: HttpExchange,
    ) -> None:
        out_headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in _HOP]
        length = response.headers.get("content-length")
        if length is not None and response.headers.get("content-encoding") is None:
            out_headers.append(("content-length", length))
        else:
            out_headers.append(("transfer-encoding", "chunked"))
        content_type = response.headers.get("content-type", "")
        done = HttpExchange(
            exchange.method,
            exchange.url,
            response.status_code,
            exchange.request_headers,
            redact_headers(dict(response.headers)),
            content_type or None,
        )
        self._record(
            TrafficRecord(
                "",
                "http",
                f"{done.method} {done.url} → {done.status}",
                time.monotonic(),
                time.time(),
                "http",
                http=done,
            )
        )
        writer.write(
            conn.send(h11.Response(status_code=response.status_code, headers=out_headers)) or b""
        )
        await writer.drain()
        sse = SseDecoder() if content_type.startswith("text/event-stream") else None
        kept = bytearray()
        async for chunk in response.aiter_raw():
            writer.write(conn.send(h11.Data(data=chunk)) or b"")
            await writer.drain()
            if sse is not None:
                for event in sse.feed(chunk):
                    if event.data:
                        self._frame("in", event.data, done, event.id)
            elif len(kept) < _MAX_RECORDED_BODY:
                kept += chunk
        writer.write(conn.send(h11.EndOfMessage()) or b"")
        await writer.drain()
        if sse is None and kept and "json" in content_type:
            self._frame("in", _text(bytes(kept)), done, None)
        elif sse is None and kept:
            excerpt = bytes(kept[:2000]).decode("utf-8", "replace")
            self._record(_note(f"a body that is not MCP ({content_type}): {excerpt}"))


def _text(data: bytes) -> str | bytes:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


def _note(text: str) -> TrafficRecord:
    return TrafficRecord("", "note", text, time.monotonic(), time.time(), "http")
