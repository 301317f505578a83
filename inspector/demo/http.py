"""The demo server over streamable HTTP (opt-in: ``--http 127.0.0.1:PORT``), stdlib only.

One endpoint, ``/mcp``, on a loopback address. The JSON-RPC is the stdio server's own
dispatcher (``server.DemoServer``): its ``Output`` hands every message to a ``_Router``,
which gives each to the POST waiting for it.

- Legacy era: ``initialize`` opens a session (a ``DemoServer`` of its own) whose id comes back
  in ``Mcp-Session-Id`` (hex, visible ASCII); later POSTs without it get 400, with an unknown
  one 404; DELETE ends it.
- Modern era (2026-07-28): stateless, a fresh dispatcher per POST; ``Mcp-Method`` and
  ``Mcp-Name`` must match the body (else 400 with -32020, HeaderMismatchError).
- A request is answered with ``application/json``; ``tools/call`` and
  ``subscriptions/listen`` with ``text/event-stream`` when the client accepts it, so progress,
  log messages and (legacy) sampling/elicitation requests reach the client before the result.
  Notifications and responses from the client get 202; GET gets 405 (no standalone stream, so
  legacy list_changed/resource updates outside a call are dropped with a log line).
- A foreign ``Origin`` or ``Host`` gets 403 (DNS rebinding protection).
- ``GET /mcp/server-card``: the demo's Server Card (a draft, SEP-2127), which agrees with
  what the server reports; ``--server-card FILE`` serves another (or none: 404).
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import logging
import queue
import secrets
import select
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final
from urllib.parse import urlsplit

from inspector.demo.content import SERVER_INFO, JSONObject
from inspector.demo.output import Output
from inspector.demo.rpc import (
    INVALID_REQUEST,
    LEGACY_VERSIONS,
    META_VERSION,
    MODERN_VERSIONS,
    PARSE_ERROR,
)
from inspector.demo.rpc import request_key as _key
from inspector.demo.server import DemoServer
from inspector.protocol.wire import jsonrpc

__all__ = ["LOOPBACK_HOSTS", "DemoHttpServer", "parse_address"]

_log = logging.getLogger("inspector.demo")

PATH: Final = "/mcp"
CARD_PATH: Final = PATH + "/server-card"
LOOPBACK_HOSTS: Final = frozenset({"127.0.0.1", "localhost", "::1"})
MAX_BODY: Final = 4 * 1024 * 1024
MAX_SESSIONS: Final = 256  # legacy sessions kept; a new one past this ends the oldest
HEADER_MISMATCH: Final = -32020
STREAMED: Final = frozenset({"tools/call", "subscriptions/listen"})
_NAME_FIELD: Final = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
_POLL_S: Final = 0.25


class _Route:
    """One POST waiting for its answer (and, when streamed, for what comes before it)."""

    def __init__(self, key: str, streamed: bool) -> None:
        self.key = key
        self.streamed = streamed
        self.queue: queue.Queue[JSONObject] = queue.Queue()


class _Router:
    """Gives each message one dispatcher sends to the POST it belongs to: a response to the
    POST of its request, anything else to the newest open stream."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._routes: dict[str, _Route] = {}
        self._streams: list[_Route] = []

    def open(self, key: str, streamed: bool) -> _Route:
        route = _Route(key, streamed)
        with self._lock:
            self._routes[key] = route
            if streamed:
                self._streams.append(route)
        return route

    def close(self, route: _Route) -> None:
        with self._lock:
            if self._routes.get(route.key) is route:
                del self._routes[route.key]
            if route in self._streams:
                self._streams.remove(route)

    def sink(self, message: JSONObject) -> None:
        route = None
        with self._lock:
            if _is_response(message):
                route = self._routes.get(_key(message.get("id")))
            if route is None and self._streams:
                route = self._streams[-1]
        if route is None:
            _log.info("no open stream for %s; dropped", message.get("method", "a response"))
            return
        route.queue.put(message)


class _Session:
    def __init__(self) -> None:
        self.router = _Router()
        self.server = DemoServer(io.BytesIO(), io.BytesIO(), Output(sink=self.router.sink))


def _is_response(message: JSONObject) -> bool:
    return "method" not in message and ("result" in message or "error" in message)


def _is_request(message: JSONObject) -> bool:
    msg_id = message.get("id")
    return (
        message.get("jsonrpc") == "2.0"
        and isinstance(message.get("method"), str)
        and isinstance(msg_id, int | str)
        and not isinstance(msg_id, bool)
    )


def _error(msg_id: Any, code: int, message: str) -> JSONObject:
    return jsonrpc.ErrorResponse(msg_id, code, message).to_dict()


def _decode_header(value: str) -> str | None:
    """The spec's Value Encoding, read back: plain, or ``=?base64?...?=``."""
    if value.startswith("=?base64?") and value.endswith("?="):
        try:
            return base64.b64decode(value[9:-2], validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return None
    return value


def _header_mismatch(message: JSONObject, headers: Any) -> str | None:
    """Why the modern request metadata headers contradict the body, or None."""
    method = message.get("method")
    sent = headers.get("Mcp-Method")
    if sent is None:
        return (
            "Header mismatch: the Mcp-Method header is required" if _is_request(message) else None
        )
    if sent != method:
        return f"Header mismatch: Mcp-Method {sent!r} but the body's method is {method!r}"
    params = message.get("params")
    field = _NAME_FIELD.get(str(method))
    if field is not None and isinstance(params, dict):
        name = headers.get("Mcp-Name")
        if name is None:
            return f"Header mismatch: {method} needs the Mcp-Name header"
        if _decode_header(name) != params.get(field):
            return f"Header mismatch: Mcp-Name {name!r} but params.{field} is {params.get(field)!r}"
    version = headers.get("MCP-Protocol-Version")
    meta = params.get("_meta") if isinstance(params, dict) else None
    body_version = meta.get(META_VERSION) if isinstance(meta, dict) else None
    if version is not None and body_version is not None and version != body_version:
        return f"Header mismatch: MCP-Protocol-Version {version!r} but _meta says {body_version!r}"
    return None


def _is_modern(message: JSONObject, headers: Any) -> bool:
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if isinstance(meta, dict) and META_VERSION in meta:
        return meta[META_VERSION] not in LEGACY_VERSIONS  # unknown: the dispatcher says -32022
    return headers.get("MCP-Protocol-Version") in MODERN_VERSIONS


def _loopback(host: str | None) -> bool:
    return host is not None and host.strip("[]").lower() in LOOPBACK_HOSTS


class _Handler(BaseHTTPRequestHandler):
    server: DemoHttpServer
    server_version = "mcp-inspector-qt-demo"

    def log_message(self, format: str, *args: Any) -> None:
        _log.info("http %s", format % args)

    # ------------------------------------------------------------------ replies

    def _reply(self, status: int, body: JSONObject | None = None, **headers: str) -> None:
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _guard(self, path: str = PATH) -> bool:
        """The path, and the DNS rebinding protection: a loopback Host and Origin only."""
        if urlsplit(self.path).path != path:
            self._reply(404, _error(None, INVALID_REQUEST, f"Not found: the endpoint is {PATH}"))
            return False
        origin = self.headers.get("Origin")
        host = urlsplit(f"//{self.headers.get('Host', '')}").hostname
        if (origin is not None and not _loopback(urlsplit(origin).hostname)) or not _loopback(host):
            _log.warning("refused a request from Origin %r, Host %r", origin, host)
            self._reply(403, _error(None, INVALID_REQUEST, "Forbidden: foreign Origin or Host"))
            return False
        return True

    def _client_gone(self) -> bool:
        sock = self.connection
        try:
            readable, _, _ = select.select([sock], [], [], 0)
            return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    # ------------------------------------------------------------------ methods

    def do_GET(self) -> None:
        if urlsplit(self.path).path == CARD_PATH:
            self._card()
        elif self._guard():
            self._reply(405, None, Allow="POST, DELETE")

    def _card(self) -> None:
        if not self._guard(CARD_PATH):
            return
        card = self.server.card_bytes()
        if card is None:
            self._reply(404, _error(None, INVALID_REQUEST, "Not found: no Server Card"))
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/mcp-server-card+json")
        self.send_header("Cache-Control", "public, max-age=3600")
        self.send_header("Content-Length", str(len(card)))
        self.end_headers()
        self.wfile.write(card)

    def do_DELETE(self) -> None:
        if not self._guard():
            return
        sid = self.headers.get("Mcp-Session-Id")
        if sid is None:
            self._reply(400, _error(None, INVALID_REQUEST, "Bad Request: no Mcp-Session-Id"))
            return
        session = self.server.end_session(sid)
        if session is None:
            self._reply(404, _error(None, INVALID_REQUEST, "Session not found"))
            return
        threading.Thread(target=session.server.shutdown, daemon=True).start()
        self._reply(200)

    def do_POST(self) -> None:
        if not self._guard():
            return
        message = self._read_message()
        if message is None:
            return
        headers = self.headers
        if _is_modern(message, headers):
            problem = _header_mismatch(message, headers)
            if problem is not None:
                self._reply(400, _error(message.get("id"), HEADER_MISMATCH, problem))
                return
            session, sid = _Session(), None
            try:
                self._exchange(session, message, None)
            finally:
                session.server.shutdown()
            return
        sid = headers.get("Mcp-Session-Id")
        if sid is None and message.get("method") == "initialize":
            sid, session = self.server.new_session()
        elif sid is None:
            missing = "Bad Request: no Mcp-Session-Id (initialize first)"
            self._reply(400, _error(message.get("id"), INVALID_REQUEST, missing))
            return
        else:
            found = self.server.session(sid)
            if found is None:
                self._reply(404, _error(None, INVALID_REQUEST, "Session not found"))
                return
            session = found
        self._exchange(session, message, sid)

    def _read_message(self) -> JSONObject | None:
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._reply(411, _error(None, INVALID_REQUEST, "Content-Length is required"))
            return None
        if length < 0 or length > MAX_BODY:
            if 0 < length <= 16 * MAX_BODY:  # read it away so the client sees the 413
                while length > 0:
                    length -= len(self.rfile.read(min(length, 1 << 16)) or b"x" * length)
            self.close_connection = True
            self._reply(413, _error(None, INVALID_REQUEST, f"Body over {MAX_BODY} bytes"))
            return None
        raw = self.rfile.read(length)
        try:
            message = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            self._reply(400, _error(None, PARSE_ERROR, f"Parse error: {exc}"))
            return None
        if not isinstance(message, dict):
            what = "batches are not supported" if isinstance(message, list) else "not an object"
            self._reply(400, _error(None, INVALID_REQUEST, f"Invalid Request: {what}"))
            return None
        return message

    def _exchange(self, session: _Session, message: JSONObject, sid: str | None) -> None:
        extra = {"Mcp_Session_Id": sid} if sid is not None else {}
        notification = "id" not in message and isinstance(message.get("method"), str)
        if notification or _is_response(message):
            session.server.handle_message(message)  # a notification or a response
            self._reply(202, None, **extra)
            return
        msg_id = message.get("id") if _is_request(message) else None
        streamed = message.get("method") in STREAMED and "text/event-stream" in self.headers.get(
            "Accept", ""
        )
        router = session.router
        route = router.open(_key(msg_id), streamed)
        try:
            session.server.handle_message(message)
            if streamed:
                self._stream(session, route, msg_id, extra)
            else:
                answer = self._wait(session, route, msg_id)
                if answer is not None:
                    status = 200 if msg_id is not None else 400
                    self._reply(status, answer, **extra)
        finally:
            router.close(route)

    def _is_final(self, route: _Route, message: JSONObject) -> bool:
        return _is_response(message) and _key(message.get("id")) == route.key

    def _next(self, session: _Session, route: _Route, msg_id: Any) -> JSONObject | None:
        """The route's next message; None once the client went away (the request it was
        waiting for is then cancelled)."""
        while True:
            try:
                return route.queue.get(timeout=_POLL_S)
            except queue.Empty:
                if self._client_gone():
                    self._cancel(session, msg_id)
                    return None

    def _wait(self, session: _Session, route: _Route, msg_id: Any) -> JSONObject | None:
        while (message := self._next(session, route, msg_id)) is not None:
            if self._is_final(route, message):
                return message
        return None

    def _stream(self, session: _Session, route: _Route, msg_id: Any, extra: dict[str, str]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        for name, value in extra.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        while (message := self._next(session, route, msg_id)) is not None:
            try:
                self.wfile.write(f"event: message\ndata: {json.dumps(message)}\n\n".encode())
                self.wfile.flush()
            except OSError:
                self._cancel(session, msg_id)
                return
            if self._is_final(route, message):
                return

    def _cancel(self, session: _Session, msg_id: Any) -> None:
        if msg_id is None:
            return
        _log.info("the client of request %r went away; cancelling it", msg_id)
        params = {"requestId": msg_id, "reason": "HTTP connection closed"}
        session.server.handle_message(
            jsonrpc.Notification("notifications/cancelled", params).to_dict()
        )


class DemoHttpServer(ThreadingHTTPServer):
    """The listening socket and the legacy sessions."""

    daemon_threads = True

    def __init__(self, host: str, port: int) -> None:
        if not _loopback(host):
            raise ValueError(f"the demo server listens on loopback only, not {host!r}")
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.address_family = family
        super().__init__((host, port), _Handler)
        self._lock = threading.Lock()
        self._sessions: dict[str, _Session] = {}
        self.card: bytes | None = b""  # b"": the demo's own card; None: no card (404)

    @property
    def url(self) -> str:
        host, port = str(self.server_address[0]), self.server_address[1]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}{PATH}"

    def card_bytes(self) -> bytes | None:
        """The Server Card served at /mcp/server-card (None: 404)."""
        if self.card != b"":
            return self.card
        card = {
            "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
            "name": "io.github.mcp-inspector-qt/mcp-inspector-qt-demo",
            "version": SERVER_INFO["version"],
            "title": SERVER_INFO["title"],
            "description": "The demo server of MCP Inspector (Qt): tools, resources, prompts.",
            "remotes": [
                {
                    "type": "streamable-http",
                    "url": self.url,
                    "supportedProtocolVersions": [*MODERN_VERSIONS, *LEGACY_VERSIONS],
                }
            ],
        }
        return json.dumps(card, indent=2).encode()

    def new_session(self) -> tuple[str, _Session]:
        sid, session = secrets.token_hex(16), _Session()
        with self._lock:
            self._sessions[sid] = session
            oldest = next(iter(self._sessions)) if len(self._sessions) > MAX_SESSIONS else None
            evicted = self._sessions.pop(oldest) if oldest is not None else None
        if evicted is not None:
            _log.warning("over %d sessions: ended the oldest, %s", MAX_SESSIONS, oldest)
            threading.Thread(target=evicted.server.shutdown, daemon=True).start()
        return sid, session

    def session(self, sid: str) -> _Session | None:
        with self._lock:
            return self._sessions.get(sid)

    def end_session(self, sid: str) -> _Session | None:
        with self._lock:
            return self._sessions.pop(sid, None)

    def close_all(self) -> None:
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
        for session in sessions:
            session.server.shutdown()


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6; port 0 picks a free one)."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)
