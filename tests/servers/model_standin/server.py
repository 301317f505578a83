"""The stand-in's HTTP server, on a thread: reads a request, picks the script's rule,
applies the rule's fault, answers whole or as a chunked SSE stream, and records it."""

from __future__ import annotations

import contextlib
import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.servers.model_standin.script import Format, Script, choose, read_request
from tests.servers.model_standin.wire import error_body, stream, whole

MAX_REQUEST = 8 * 1024 * 1024


@dataclass(frozen=True)
class Received:
    path: str
    format: Format
    headers: dict[str, str]
    body: Any
    rule: str  # the name of the rule that answered ("" for the default)


class StandIn:
    """The server; `base_url` serves both formats (`…/v1/chat/completions`, `…/v1/messages`
    and also `…/v1/v1/messages`, as an Anthropic client would address it)."""

    def __init__(self, script: Script | dict[str, Any] | str | Path, port: int = 0) -> None:
        self.script = script if isinstance(script, Script) else Script.load(script)
        self.received: list[Received] = []
        self._lock = threading.Lock()
        self.closing = threading.Event()
        self._server = ThreadingHTTPServer(
            ("127.0.0.1", port), _handler(self), bind_and_activate=False
        )
        self._server.daemon_threads = True
        # Concurrent eval runs connect at once: a backlog of 5 would leave some waiting
        # a second for the kernel's SYN retry.
        self._server.request_queue_size = 128
        try:
            self._server.server_bind()
            self._server.server_activate()
        except OSError:
            self._server.server_close()
            raise
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> StandIn:
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._server.serve_forever()

    def close(self) -> None:
        self.closing.set()
        self._server.shutdown()
        self._server.server_close()

    def record(self, received: Received) -> None:
        with self._lock:
            self.received.append(received)

    def bodies(self, fmt: Format | None = None) -> list[Any]:
        with self._lock:
            return [r.body for r in self.received if fmt is None or r.format == fmt]


def _format(path: str) -> Format | None:
    path = path.split("?", 1)[0]
    if path.endswith("/chat/completions"):
        return "openai"
    if path.endswith("/messages"):
        return "anthropic"
    return None


def _handler(standin: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def handle(self) -> None:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                super().handle()  # the client may go away between requests

        def do_POST(self) -> None:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self._answer()  # the client may give up (a timeout test)

        def _answer(self) -> None:
            fmt = _format(self.path)
            length = int(self.headers.get("content-length") or 0)
            if fmt is None or length > MAX_REQUEST:
                self._send(404, json.dumps({"error": {"message": f"no {self.path}"}}).encode())
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                body = json.loads(self.rfile.read(length))
                seen = read_request(fmt, body)
            except (ValueError, AttributeError, TypeError):
                self._send(400, json.dumps(error_body(fmt, 400, "body is not JSON")).encode())
                return
            rule = choose(standin.script, seen)
            standin.record(Received(self.path, fmt, headers, body, rule.name))
            fault = rule.fault
            if fault.get("delay") and standin.closing.wait(float(fault["delay"])):
                return
            status = int(fault.get("status", 200))
            if status != 200:
                extra = {}
                if "retryAfter" in fault:
                    extra["retry-after"] = str(fault["retryAfter"])
                said = str(fault.get("message", f"stand-in error {status}"))
                self._send(status, json.dumps(error_body(fmt, status, said)).encode(), extra)
                return
            if not body.get("stream") or fault.get("ignoreStream"):
                data = json.dumps(whole(fmt, rule, seen, body)).encode()
                if fault.get("malformedJson") or fault.get("brokenStream"):
                    data = data[: len(data) // 2]  # JSON that stops half-way
                if fault.get("cutStream"):
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data[: len(data) // 2])
                    self.close_connection = True
                    return  # fewer bytes than promised: the body is cut off
                self._send(200, data)
                return
            events = stream(fmt, rule, seen, body)
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            middle = len(events) // 2
            for i, event in enumerate(events):
                if i == middle and (fault.get("brokenStream") or fault.get("malformedJson")):
                    event = b"data: {this is not json\n\n"
                if i == middle and fault.get("errorEvent"):
                    error = error_body(fmt, 529, str(fault["errorEvent"]))
                    if fmt == "anthropic":
                        error["error"]["type"] = "overloaded_error"
                    event = b"event: error\ndata: %s\n\n" % json.dumps(error).encode()
                if i == middle and fault.get("cutStream"):
                    self.wfile.flush()
                    self.close_connection = True
                    return  # no last chunk: the client sees the body cut off
                self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler
