"""The demo server's HTTP mode when the client of a POST goes away before the answer: the
request it waited for is cancelled (notifications/cancelled to the server), whether the
answer was to come as JSON or as an event stream, and the session goes on."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from inspector.demo.http import DemoHttpServer
from tests.helpers.demo_http import INIT
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def served() -> Iterator[DemoHttpServer]:
    server = DemoHttpServer("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.close_all()
        server.server_close()
        thread.join(5)


def _post_and_leave(served: DemoHttpServer, sid: str, accept: str, msg_id: int) -> None:
    """POST a slow tools/call on a raw socket, wait for the first event when streamed (or
    for the server to hold the request open), then close the connection without reading
    the answer."""
    parts = urlsplit(served.url)
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": msg_id,
            "method": "tools/call",
            "params": {"name": "slow_count", "arguments": {"steps": 50, "delay_ms": 200}},
        }
    ).encode()
    head = (
        f"POST {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        f"Content-Type: application/json\r\nAccept: {accept}\r\n"
        f"Mcp-Session-Id: {sid}\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(head + body)
        if "text/event-stream" in accept:
            assert b"200" in sock.recv(4096)  # the stream began
        else:
            session = served.session(sid)
            assert session is not None
            # the server holds the request's route open while it waits for the answer
            wait_until(lambda: bool(session.router._routes), "the request to be held", 10)


@pytest.mark.parametrize(
    "accept", ["application/json", "application/json, text/event-stream"], ids=["json", "sse"]
)
def test_a_client_that_goes_away_has_its_request_cancelled(
    served: DemoHttpServer, accept: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="inspector.demo")
    url = served.url
    with httpx.Client(timeout=10, headers={"Accept": "application/json, text/event-stream"}) as c:
        sid = c.post(url, json=INIT).headers["mcp-session-id"]
        _post_and_leave(served, sid, accept, msg_id=42)
        deadline = time.monotonic() + 10
        while "request 42 went away; cancelling it" not in caplog.text:
            assert time.monotonic() < deadline, caplog.text
            time.sleep(0.02)
        # the session goes on: another request is answered
        ping = {"jsonrpc": "2.0", "id": 43, "method": "ping"}
        answer = c.post(
            url, json=ping, headers={"Mcp-Session-Id": sid, "Accept": "application/json"}
        )
    assert answer.status_code == 200 and answer.json() == {"jsonrpc": "2.0", "id": 43, "result": {}}
