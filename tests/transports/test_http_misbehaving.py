"""The Session and the CLI against HTTP servers that misbehave on purpose
(tests/servers/misbehaving/http_server.py): cut streams, expired sessions, HTML 500s, wrong content
types, slow drips, endless and oversized events, answers on the wrong stream. Each must give
a clear message, fail only the request it affects, and leave the session usable.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
import tracemalloc
from typing import Any

import pytest

from inspector.protocol.machine.events import NotificationReceived
from inspector.session import (
    ConnectionClosed,
    RequestTimeout,
    ServerError,
    TransportFailure,
)
from inspector.transports.base import HttpExchange, SessionExpired
from inspector.transports.sse import SseDecoder
from tests.helpers.http_servers import Served, free_port
from tests.helpers.peers import PY, REPO

pytestmark = pytest.mark.timeout(30)

SERVER = str(REPO / "tests" / "servers" / "misbehaving" / "http_server.py")


async def test_a_stream_cut_mid_event_is_resumed_with_last_event_id(connect_scenario: Any) -> None:
    conn = await connect_scenario("cut")
    tools = await conn.session.client.list_tools()
    assert [t["name"] for t in tools] == ["echo"]
    resume = next(e for e in conn.exchanges() if e.method == "GET" and e.status == 200)
    assert resume.request_headers["last-event-id"] == "2"  # the last *complete* event
    assert resume.note == "resuming after event 2 (attempt 1)"
    # The log notification before the cut came once; the half event was never shown.
    logs = [
        e
        for e in conn.events
        if isinstance(e, NotificationReceived) and e.notification.method == "notifications/message"
    ]
    assert len(logs) == 1
    assert not [r for r in conn.records if r.kind == "invalid"]
    await conn.still_works()


async def test_a_cut_stream_without_event_ids_fails_only_its_request(connect_scenario: Any) -> None:
    conn = await connect_scenario("cut-noid")
    with pytest.raises(TransportFailure) as caught:
        await conn.session.client.list_tools()
    message = str(caught.value)
    assert "the server broke the HTTP connection" in message
    assert "cannot be resumed (the server sent no event ids)" in message
    await conn.still_works()


async def test_a_404_on_the_session_then_reinitialize(connect_scenario: Any) -> None:
    conn = await connect_scenario("expire")
    with pytest.raises(ConnectionClosed, match=r"session expired: .*HTTP 404"):
        await conn.session.client.list_tools()
    assert [type(e) for e in conn.events if isinstance(e, SessionExpired)] == [SessionExpired]
    old_id = conn.session.transport.session_id  # type: ignore[attr-defined]
    assert old_id is None  # forgotten: it must not be sent again
    await conn.session.reinitialize(timeout=5)
    assert conn.session.transport.session_id  # type: ignore[attr-defined]
    await conn.still_works()


async def test_a_404_on_the_session_with_auto_reinitialize(connect_scenario: Any) -> None:
    """This server drops the session at every tools/list: the list is sent again in one
    new session (with a new id), meets a 404 again, and fails; no third session."""
    conn = await connect_scenario("expire")
    first = conn.session.transport.session_id  # type: ignore[attr-defined]
    conn.session.auto_reinitialize = True
    with pytest.raises(ConnectionClosed, match="session expired"):
        await conn.session.client.list_tools()
    ids = {
        e.request_headers.get("mcp-session-id")
        for e in conn.events
        if isinstance(e, HttpExchange) and e.request_headers.get("mcp-session-id")
    }
    assert f"{first[:8]}…" in ids and len(ids) == 2, ids  # the first, then one new one (redacted)
    notes = conn.notes()
    assert any("sent tools/list again" in n for n in notes), notes
    assert any("not re-initializing again" in n for n in notes), notes


async def test_500_with_an_html_body(connect_scenario: Any) -> None:
    conn = await connect_scenario("html500")
    with pytest.raises(TransportFailure) as caught:
        await conn.session.client.list_tools()
    message = str(caught.value)
    assert message.startswith("HTTP 500 Internal Server Error: ")
    assert "<h1>Internal Server Error</h1>" in message
    exchange = next(e for e in conn.exchanges() if e.status == 500)
    assert exchange.content_type == "text/html; charset=utf-8"
    assert exchange.body_excerpt and "upstream database timeout" in exchange.body_excerpt
    await conn.still_works()


async def test_500_with_a_json_rpc_error_keeps_the_error(connect_scenario: Any) -> None:
    conn = await connect_scenario("jsonerr")
    with pytest.raises(ServerError) as caught:
        await conn.session.client.list_tools()
    assert caught.value.code == -32603
    assert "database is down" in str(caught.value)
    await conn.still_works()


async def test_a_wrong_content_type(connect_scenario: Any) -> None:
    conn = await connect_scenario("ctype")
    with pytest.raises(TransportFailure, match=r"unexpected content type text/plain") as caught:
        await conn.session.client.list_tools()
    assert '"tools"' in str(caught.value)  # the body excerpt is shown
    await conn.still_works()


async def test_a_slow_drip(connect_scenario: Any) -> None:
    conn = await connect_scenario("drip")
    started = time.monotonic()
    tools = await conn.session.client.list_tools()
    assert [t["name"] for t in tools] == ["echo"]
    assert time.monotonic() - started < 10
    incoming = [r for r in conn.records if r.direction == "in" and r.http is not None]
    assert [r.kind for r in incoming[-2:]] == ["notification", "response"]
    await conn.still_works()


async def test_an_endless_event_keeps_memory_bounded_and_times_out(
    connect_scenario: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fed = [0]
    feed = SseDecoder.feed

    def counting_feed(self: SseDecoder, chunk: bytes) -> Any:
        fed[0] += len(chunk)
        return feed(self, chunk)

    monkeypatch.setattr(SseDecoder, "feed", counting_feed)
    cap = 256 * 1024
    conn = await connect_scenario("endless", max_event_bytes=cap, request_timeout=2.0)
    tracemalloc.start()
    try:
        # A loaded machine (a parallel run) reads less in 2 s: ask again until it has read
        # far more than the cap, each request ending in its timeout.
        for _ in range(10):
            with pytest.raises(RequestTimeout, match="no answer within 2 s"):
                await conn.session.client.list_tools()
            if fed[0] > 40 * cap:
                break
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert fed[0] > 40 * cap  # it really read far more than it kept
    assert peak < 8 * 1024 * 1024, f"peak traced memory {peak:,} bytes"
    await conn.still_works()


async def test_an_oversized_event_is_cut_and_flagged_and_the_stream_goes_on(
    connect_scenario: Any,
) -> None:
    cap = 512 * 1024
    conn = await connect_scenario("bigevent", query="?mb=3", max_event_bytes=cap)
    tools = await conn.session.client.list_tools()
    assert [t["name"] for t in tools] == ["echo"]
    big = next(r for r in conn.records if r.truncated)
    assert big.size >= 3 * 1024 * 1024 and len(big.raw) <= cap
    assert big.note and "exceeds the size limit" in big.note
    await conn.still_works()


async def test_an_answer_on_the_wrong_stream_is_paired_and_flagged(connect_scenario: Any) -> None:
    conn = await connect_scenario("wrongstream")
    tools = await conn.session.client.list_tools()
    assert [t["name"] for t in tools] == ["echo"]
    answer = next(
        r
        for r in conn.records
        if r.direction == "in"
        and r.kind == "response"
        and r.http is not None
        and r.http.method == "GET"
    )
    assert answer.http is not None
    for _ in range(100):
        if any("arrived on the standalone GET stream" in n for n in conn.notes()):
            break
        await asyncio.sleep(0.01)
    else:
        pytest.fail(f"the wrong stream was not flagged: {conn.notes()}")
    # The POST stream ends without the answer: nothing more fails.
    await asyncio.sleep(0.4)  # not a wait: outlasts the POST stream, to show nothing fails
    await conn.still_works()


# ----------------------------------------------------------------------------------- CLI
def run_cli(*args: str, timeout: float = 30) -> tuple[int, str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [PY, "-m", "inspector", "cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=REPO,
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize(
    ("scenario", "code", "says"),
    [
        ("ok", 0, ""),
        ("cut", 0, ""),
        ("drip", 0, ""),
        ("wrongstream", 0, ""),
        ("bigevent?mb=20", 0, "exceeds the size limit"),
        ("cut-noid", 3, "cannot be resumed"),
        ("expire", 3, "session expired"),
        ("html500", 3, "HTTP 500 Internal Server Error"),
        ("ctype", 3, "unexpected content type text/plain"),
        ("jsonerr", 4, "database is down"),
        ("endless", 5, "no answer within 2 s"),
    ],
)
def test_cli_tools_list(misbehaving_http_48mb: Served, scenario: str, code: int, says: str) -> None:
    name, _, query = scenario.partition("?")
    url = f"{misbehaving_http_48mb.base}/{name}/mcp" + (f"?{query}" if query else "")
    # --max-message-mb 16: the 20 MB event is over this limit (the default is 64 MiB).
    got, out, err = run_cli(
        "--url", url, "--method", "tools/list", "--timeout", "2", "--max-message-mb", "16"
    )  # fmt: skip
    assert got == code, err
    assert says in err
    if code == 0:
        assert '"echo"' in out
    else:
        assert "Traceback" not in err


def test_cli_connection_refused() -> None:
    got, _, err = run_cli("--url", f"http://127.0.0.1:{free_port()}/mcp", "--method", "tools/list")
    assert got == 3
    assert "cannot connect" in err


def test_cli_sends_custom_headers_and_never_prints_them(misbehaving_http_48mb: Served) -> None:
    url = f"{misbehaving_http_48mb.base}/ok/mcp"
    secret = "Bearer t0p-s3cret-for-cli"
    got, out, err = run_cli(
        "--url", url, "--method", "tools/list", "-v", "--header", f"Authorization: {secret}",
        "--header", "X-Tenant: acme",
    )  # fmt: skip
    assert got == 0, err
    assert f"authorization={secret!r}" in misbehaving_http_48mb.log()
    assert "t0p-s3cret" not in out + err


@pytest.mark.parametrize(
    ("args", "code", "says"),
    [
        (["--header", "no colon here"], 2, "--header expects 'Name: value'"),
        (["--transport", "stdio"], 2, "--transport stdio needs a command"),
        (["--transport", "sse"], 3, "not an event stream"),
    ],
)
def test_cli_url_options(
    misbehaving_http_48mb: Served, args: list[str], code: int, says: str
) -> None:
    got, _, err = run_cli(
        "--url", f"{misbehaving_http_48mb.base}/ok/mcp", "--method", "tools/list", *args
    )
    assert got == code, err
    assert says in err
