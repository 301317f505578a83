"""A loopback OTLP/HTTP trace receiver of our own: a tiny http.server thread that takes
`POST /v1/traces` (protobuf ExportTraceServiceRequest), decodes it with opentelemetry-proto
and keeps the spans, or answers a chosen HTTP status to test the exporter's failures."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

__all__ = ["OtlpReceiver", "otlp_receiver"]


@dataclass
class OtlpReceiver:
    """What the receiver got; `status` is the HTTP status it answers (200: accepted)."""

    port: int = 0
    status: int = 200
    paths: list[str] = field(default_factory=list)
    requests: list[ExportTraceServiceRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def spans(self) -> list[Any]:
        """Every span received, in arrival order (opentelemetry.proto Span messages)."""
        with self.lock:
            return [
                span
                for request in self.requests
                for resource in request.resource_spans
                for scope in resource.scope_spans
                for span in scope.spans
            ]

    def resources(self) -> list[dict[str, str]]:
        with self.lock:
            return [
                {a.key: a.value.string_value for a in resource.resource.attributes}
                for request in self.requests
                for resource in request.resource_spans
            ]


def _handler(receiver: OtlpReceiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with receiver.lock:
                receiver.paths.append(self.path)
            if receiver.status != 200 or self.path != "/v1/traces":
                status = receiver.status if self.path == "/v1/traces" else 404
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            with receiver.lock:
                receiver.requests.append(request)
            answer = ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    return Handler


@contextmanager
def otlp_receiver(status: int = 200) -> Iterator[OtlpReceiver]:
    """A receiver listening on a free loopback port while the block runs."""
    receiver = OtlpReceiver(status=status)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(receiver))
    receiver.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, name="otlp-receiver", daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
