"""The HTTP transports through the Session, against a scripted server on httpx.MockTransport:
headers and redaction, 202s, JSON and SSE answers, HTTP errors, sessions and their expiry,
the GET stream, resumption, the modern era's headers, cancellation and re-sends, auto-detect.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from inspector.protocol.machine.events import NotificationReceived
from inspector.protocol.wire.versions import Era, EraSetting
from inspector.session import (
    ConnectError,
    ConnectionClosed,
    RequestCancelled,
    ServerError,
    SessionError,
    TransportFailure,
)
from inspector.transports.base import HttpExchange, SessionExpired
from inspector.transports.http_common import REDACTED, redact_url
from tests.helpers.fake_server import discover_result, initialize_result
from tests.helpers.http_fakes import (
    SECRET,
    SESSION_ID,
    TOOLS,
    URL,
    FakeHttp,
    Opened,
    Seen,
    open_session,
    result,
    rpc_error,
    sse,
    sse_event,
)

pytestmark = pytest.mark.timeout(20)

MODERN = "2026-07-28"


async def start(opened: list[Opened], fake: FakeHttp | None = None, **kwargs: Any) -> Opened:
    item = await open_session(fake or FakeHttp(), **kwargs)
    opened.append(item)
    return item


async def until(predicate: Any, timeout: float = 5.0) -> None:
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), timeout)


# ------------------------------------------------------------------ headers and redaction
async def test_custom_headers_are_sent_and_secrets_never_reported(opened: list[Opened]) -> None:
    fake = FakeHttp()
    fake.on(
        "tools/list",
        lambda seen: httpx.Response(
            200, json=result(seen, {"tools": TOOLS}), headers={"set-cookie": "sid=c00kie-v4lue"}
        ),
    )
    item = await start(opened, fake, url="http://mcp.test/mcp?token=qu3ry-t0ken&x=1")
    await item.session.client.list_tools()
    await item.session.close()
    # The server did get the credentials...
    assert all(s.headers.get("authorization") == SECRET for s in fake.seen)
    # ...but no exchange, note or traffic record shows them.
    shown = repr(item.events) + repr(item.records)
    for secret in ("s3cret-t0ken-value", "c00kie-v4lue", "qu3ry-t0ken"):
        assert secret not in shown
    exchanges = item.exchanges()
    assert exchanges and all(e.request_headers["authorization"] == REDACTED for e in exchanges)
    cookie = next(e for e in exchanges if "set-cookie" in e.response_headers)
    assert cookie.response_headers["set-cookie"] == REDACTED
    assert all("x=1" in e.url and REDACTED in e.url for e in exchanges)
    # The session id is shortened: enough to tell sessions apart, not to take one over.
    later = [e for e in exchanges if "mcp-session-id" in e.request_headers]
    assert later and all(SESSION_ID not in e.request_headers["mcp-session-id"] for e in later)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://u:pw@h/mcp", f"http://u:{REDACTED}@h/mcp"),
        ("http://u@h/mcp", "http://u@h/mcp"),
        (
            "http://h/mcp?api_key=k&access_token=t&x=1",
            f"http://h/mcp?api_key={REDACTED}&access_token={REDACTED}&x=1",
        ),
        ("http://h/messages?sessionId=abc", "http://h/messages?sessionId=abc"),
        ("http://h/mcp", "http://h/mcp"),
    ],
)
def test_redact_url(url: str, shown: str) -> None:
    assert redact_url(url) == shown


async def test_legacy_session_headers(opened: list[Opened]) -> None:
    fake = FakeHttp()
    item = await start(opened, fake)
    await item.session.client.list_tools()
    await item.session.close()
    init, initialized, *_ = fake.posts()
    assert init.rpc_method == "initialize"
    assert "mcp-session-id" not in init.headers and "mcp-protocol-version" not in init.headers
    assert init.headers["accept"] == "application/json, text/event-stream"
    assert init.headers["content-type"] == "application/json"
    for later in fake.seen[1:]:
        assert later.headers["mcp-session-id"] == SESSION_ID
        assert later.headers["mcp-protocol-version"] == "2025-11-25"
    assert initialized.rpc_method == "notifications/initialized"
    # A legacy client never sends the modern per-request headers.
    assert not any("mcp-method" in s.headers for s in fake.seen)


# ----------------------------------------------------------------------------- 202 rules
async def test_notifications_and_responses_expect_202(opened: list[Opened]) -> None:
    fake = FakeHttp()
    fake.notification_status = 200
    item = await start(opened, fake)
    await until(lambda: any(e.note and "202" in e.note for e in item.exchanges()))
    note = next(e.note for e in item.exchanges() if e.note and "202" in e.note)
    assert note == "expected 202 Accepted for a notification, got 200"
    assert item.session.is_ready  # only noted: nothing fails


async def test_an_sse_stream_opened_for_a_notification_does_not_block_sending(
    opened: list[Opened],
) -> None:
    fake = FakeHttp()
    log = {"jsonrpc": "2.0", "method": "notifications/message"}
    fake.notification_handler = lambda _seen: sse(
        sse_event({**log, "params": {"level": "info", "data": "hello"}}), 3600
    )
    item = await start(opened, fake)
    assert [t["name"] for t in await asyncio.wait_for(item.session.client.list_tools(), 3)] == [
        "echo"
    ]
    await until(lambda: any(isinstance(e, NotificationReceived) for e in item.events))
    assert any(
        e.note == "expected 202 Accepted for a notification, got 200; reading the SSE stream it "
        "opened"
        for e in item.exchanges()
    )


async def test_a_request_answered_202_fails_with_a_clear_message(opened: list[Opened]) -> None:
    fake = FakeHttp()
    fake.on("tools/list", lambda _seen: httpx.Response(202))
    item = await start(opened, fake)
    with pytest.raises(TransportFailure, match="202 Accepted to a request"):
        await item.session.client.list_tools()
    assert (await item.session.client.call_tool("echo", {"text": "still here"}))["content"]


# ----------------------------------------------------------------- JSON and SSE answers
async def test_json_and_sse_answers(opened: list[Opened]) -> None:
    fake = FakeHttp()
    fake.on(
        "tools/call",
        lambda seen: sse(
            ": keep-alive\n\n",
            sse_event(result(seen, {"content": [{"type": "text", "text": "via SSE"}]}), "ev-1"),
        ),
    )
    item = await start(opened, fake)
    assert [t["name"] for t in await item.session.client.list_tools()] == ["echo"]
    called = await item.session.client.call_tool("echo", {"text": "x"})
    assert called["content"][0]["text"] == "via SSE"
    incoming = [r for r in item.records if r.direction == "in"]
    json_answer, sse_answer = incoming[-2:]
    assert json_answer.http.content_type == "application/json" and json_answer.sse_event_id is None
    assert sse_answer.http.content_type == "text/event-stream"
    assert sse_answer.sse_event_id == "ev-1"


async def test_sse_carries_a_server_request_and_notifications_before_the_response(
    opened: list[Opened],
) -> None:
    fake = FakeHttp()
    answered = asyncio.Event()

    async def wait_for_answer() -> None:
        await fake.wait_for(lambda s: s.rpc_id == "srv-1" and "result" in s.body)
        answered.set()

    def call(seen: Seen) -> httpx.Response:
        token = seen.body["params"]["_meta"]["progressToken"]
        return sse(
            sse_event(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/progress",
                    "params": {"progressToken": token, "progress": 1, "total": 2},
                }
            ),
            sse_event(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/message",
                    "params": {"level": "info", "data": "thinking"},
                }
            ),
            sse_event(
                {
                    "jsonrpc": "2.0",
                    "id": "srv-1",
                    "method": "sampling/createMessage",
                    "params": {
                        "messages": [{"role": "user", "content": {"type": "text", "text": "?"}}],
                        "maxTokens": 10,
                    },
                }
            ),
            wait_for_answer,
            sse_event(result(seen, {"content": [{"type": "text", "text": "done"}]})),
        )

    fake.on("tools/call", call)
    item = await start(opened, fake)
    progress: list[Any] = []
    out = await item.session.client.call_tool("echo", {}, on_progress=progress.append)
    assert out["content"][0]["text"] == "done"
    assert answered.is_set()
    assert [a.kind for a in item.responder.asks] == ["sampling"]
    assert [p.progress for p in progress] == [1]
    methods = [e.notification.method for e in item.events if isinstance(e, NotificationReceived)]
    assert methods == ["notifications/progress", "notifications/message"]
    # Our answer went out as its own POST and was accepted with 202.
    answer = next(s for s in fake.posts() if s.rpc_id == "srv-1")
    assert answer.body["result"]["content"]["text"] == "typed by hand"
    assert answer.headers["mcp-session-id"] == SESSION_ID


# ------------------------------------------------------------------------- HTTP errors
@pytest.mark.parametrize("same_id", [True, False], ids=["own-id", "null-id"])
async def test_http_error_with_a_json_rpc_error_body_is_kept(
    opened: list[Opened], same_id: bool
) -> None:
    fake = FakeHttp()
    fake.on(
        "tools/list",
        lambda seen: httpx.Response(
            503, json=rpc_error(seen if same_id else None, -32603, "database is down", {"retry": 5})
        ),
    )
    item = await start(opened, fake)
    with pytest.raises(ServerError) as caught:
        await item.session.client.list_tools()
    assert caught.value.code == -32603
    assert "database is down" in str(caught.value)
    assert caught.value.data == {"retry": 5}
    exchange = next(e for e in item.exchanges() if e.status == 503)
    assert exchange.note == "HTTP 503 Service Unavailable"
    assert exchange.body_excerpt and "database is down" in exchange.body_excerpt
    assert item.session.is_ready


HTML = "<html><head><title>500</title></head><body><h1>Internal Server Error</h1></body></html>"


async def test_500_with_an_html_body_fails_only_that_request(opened: list[Opened]) -> None:
    fake = FakeHttp()
    fake.on(
        "tools/list",
        lambda _seen: httpx.Response(500, text=HTML, headers={"content-type": "text/html"}),
    )
    item = await start(opened, fake)
    slow = item.session.start_request("tools/call", {"name": "echo", "arguments": {}})
    with pytest.raises(TransportFailure) as caught:
        await item.session.client.list_tools()
    message = str(caught.value)
    assert "HTTP 500 Internal Server Error" in message and "<h1>Internal Server Error" in message
    assert (await slow.result())["content"]  # the other request was not touched
    assert item.session.is_ready
    assert (await item.session.client.call_tool("echo", {"text": "after"}))["content"]
    assert any(e.status == 500 and e.body_excerpt == HTML for e in item.exchanges())


async def test_a_wrong_content_type_fails_only_that_request(opened: list[Opened]) -> None:
    fake = FakeHttp()
    fake.on(
        "tools/list",
        lambda seen: httpx.Response(
            200,
            content=json.dumps(result(seen, {"tools": []})),
            headers={"content-type": "text/plain"},
        ),
    )
    item = await start(opened, fake)
    with pytest.raises(TransportFailure, match=r"unexpected content type text/plain"):
        await item.session.client.list_tools()
    assert item.session.is_ready
    assert (await item.session.client.call_tool("echo", {}))["content"]


async def test_a_json_body_that_answers_another_id_fails_at_once(opened: list[Opened]) -> None:
    fake = FakeHttp()
    fake.on("tools/list", lambda _seen: {"jsonrpc": "2.0", "id": 999, "result": {"tools": []}})
    item = await start(opened, fake, request_timeout=10)
    with pytest.raises(TransportFailure, match="not a response to request"):
        await asyncio.wait_for(item.session.client.list_tools(), 2)


async def test_invalid_utf8_in_an_sse_answer_is_flagged_and_fails_the_request(
    opened: list[Opened],
) -> None:
    fake = FakeHttp()
    fake.on(
        "tools/list",
        lambda seen: sse(
            b'data: {"jsonrpc":"2.0","id":' + str(seen.rpc_id).encode() + b',"result":"\xff"}\n\n'
        ),
    )
    item = await start(opened, fake, request_timeout=10)
    with pytest.raises(SessionError, match="UTF-8"):
        await asyncio.wait_for(item.session.client.list_tools(), 2)
    bad = next(r for r in item.records if r.direction == "in" and isinstance(r.raw, bytes))
    assert b"\xff" in bad.raw and "UTF-8" in (bad.note or "")


async def test_connection_refused_is_a_transport_failure(opened: list[Opened]) -> None:
    fake = FakeHttp()

    def refuse(seen: Seen) -> httpx.Response:
        raise httpx.ConnectError("connection refused")

    fake.on("tools/list", refuse)
    item = await start(opened, fake)
    with pytest.raises(TransportFailure, match="cannot connect"):
        await item.session.client.list_tools()
    assert item.session.is_ready


# ---------------------------------------------------------------------- session expiry
async def test_404_on_the_session_expires_it_and_reinitialize_starts_a_new_one(
    opened: list[Opened],
) -> None:
    fake = FakeHttp()
    expired = {"done": False}

    def tools_list(seen: Seen) -> Any:
        if not expired["done"]:
            expired["done"] = True
            return httpx.Response(404, text="unknown session")
        return result(seen, {"tools": TOOLS})

    fake.on("tools/list", tools_list)
    item = await start(opened, fake)
    with pytest.raises(ConnectionClosed, match="session expired"):
        await item.session.client.list_tools()
    assert any(isinstance(e, SessionExpired) for e in item.events)
    assert item.session.session_expired and "404" in item.session.session_expired
    assert not item.session.is_ready
    with pytest.raises(SessionError):
        await item.session.client.list_tools()  # nothing is sent on an expired session
    ready = await item.session.reinitialize(timeout=5)
    assert ready.protocol_version == "2025-11-25"
    assert item.session.is_ready and item.session.session_expired is None
    assert [t["name"] for t in await item.session.client.list_tools()] == ["echo"]
    inits = fake.posts("initialize")
    assert len(inits) == 2 and "mcp-session-id" not in inits[1].headers
    assert fake.seen[-1].headers["mcp-session-id"] == SESSION_ID + "-2"


async def test_a_call_from_the_expired_session_cannot_cancel_a_new_request(
    opened: list[Opened],
) -> None:
    fake = FakeHttp()
    release = asyncio.Event()

    async def tools_call(seen: Seen) -> Any:
        if seen.headers.get("mcp-session-id") == SESSION_ID:
            return httpx.Response(404)
        await release.wait()
        return result(seen, {"content": []})

    fake.on("tools/call", tools_call)
    item = await start(opened, fake)
    old = item.session.start_request("tools/call", {"name": "a", "arguments": {}})
    with pytest.raises(ConnectionClosed):
        await old.result()
    await item.session.reinitialize(timeout=5)
    new = item.session.start_request("tools/call", {"name": "b", "arguments": {}})
    old.cancel("a stale button")  # must not touch the new request, whatever its key
    release.set()
    assert await asyncio.wait_for(new.result(), 5) == {"content": []}


async def test_auto_reinitialize_after_a_404(opened: list[Opened]) -> None:
    fake = FakeHttp()
    fake.get_handler = lambda seen: (
        httpx.Response(404)
        if seen.headers.get("mcp-session-id") == SESSION_ID
        else httpx.Response(405)
    )
    item = await start(opened, fake)
    item.session.auto_reinitialize = True
    # The GET stream (opened after initialized) is the one to learn of the expiry.
    await until(lambda: len(fake.posts("initialize")) == 2 and item.session.is_ready)
    assert sum(isinstance(e, SessionExpired) for e in item.events) == 1
    assert (await item.session.client.call_tool("echo", {}))["content"]
    assert fake.seen[-1].headers["mcp-session-id"] == SESSION_ID + "-2"


async def test_a_late_404_from_the_old_session_leaves_the_new_one_alone(
    opened: list[Opened],
) -> None:
    fake = FakeHttp()
    release = asyncio.Event()

    async def tools_call(seen: Seen) -> Any:
        if seen.headers.get("mcp-session-id") == SESSION_ID:
            if seen.body["params"]["name"] == "slow":
                await release.wait()
            return httpx.Response(404)
        return result(seen, {"content": []})

    fake.on("tools/call", tools_call)
    item = await start(opened, fake)
    item.session.auto_reinitialize = True
    slow = item.session.start_request("tools/call", {"name": "slow", "arguments": {}})
    with pytest.raises(ConnectionClosed):
        await item.session.client.call_tool("fast", {})
    with pytest.raises(ConnectionClosed):
        await slow.result()
    await until(lambda: item.session.is_ready)
    release.set()  # the old session's 404 arrives only now
    await fake.wait_for(
        lambda s: s.rpc_method == "tools/call" and s.body["params"]["name"] == "slow"
    )
    # The late 404 reaches the client (its exchange is logged) and changes nothing.
    await until(lambda: sum(e.status == 404 for e in item.exchanges()) == 2)
    assert sum(isinstance(e, SessionExpired) for e in item.events) == 1
    assert item.session.is_ready
    assert (await item.session.client.call_tool("echo", {})) == {"content": []}


# ------------------------------------------------------------------ DELETE, GET stream
@pytest.mark.parametrize(("status", "note"), [(200, "session ended"), (405, "(405): fine")])
async def test_delete_on_close(opened: list[Opened], status: int, note: str) -> None:
    fake = FakeHttp()
    fake.delete_status = status
    item = await start(opened, fake)
    await item.session.close()
    (delete,) = fake.requests_of("DELETE")
    assert delete.headers["mcp-session-id"] == SESSION_ID
    assert delete.headers["mcp-protocol-version"] == "2025-11-25"
    exchange = next(e for e in item.exchanges() if e.method == "DELETE")
    assert exchange.status == status and exchange.note and note in exchange.note


async def test_no_delete_without_a_session_id(opened: list[Opened]) -> None:
    fake = FakeHttp(session_id=None)
    item = await start(opened, fake)
    await item.session.client.list_tools()
    await item.session.close()
    assert not fake.requests_of("DELETE")
    assert not any("mcp-session-id" in s.headers for s in fake.seen)


async def test_get_stream_405_means_not_offered(opened: list[Opened]) -> None:
    fake = FakeHttp()
    item = await start(opened, fake)
    await fake.wait_for(lambda s: s.method == "GET")
    await until(lambda: any(e.method == "GET" for e in item.exchanges()))
    exchange = next(e for e in item.exchanges() if e.method == "GET")
    assert exchange.status == 405 and exchange.note == "the server offers no GET stream (405)"
    (get,) = fake.requests_of("GET")
    assert get.headers["accept"] == "text/event-stream"
    assert get.headers["mcp-session-id"] == SESSION_ID
    assert item.session.is_ready
    await asyncio.sleep(0.05)  # not a wait: a retry of the GET would have gone out by now
    assert len(fake.requests_of("GET")) == 1  # not retried


async def test_the_get_stream_delivers_server_messages(opened: list[Opened]) -> None:
    fake = FakeHttp()
    answered = asyncio.Event()

    async def roots_answered() -> None:
        await fake.wait_for(lambda s: s.rpc_id == "r1" and "result" in s.body)
        answered.set()

    fake.get_handler = lambda _seen: sse(
        sse_event({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}, "g1"),
        sse_event({"jsonrpc": "2.0", "id": "r1", "method": "roots/list"}, "g2"),
        roots_answered,
        30,
    )
    item = await start(opened, fake)
    await asyncio.wait_for(answered.wait(), 5)
    changed = next(
        e
        for e in item.events
        if isinstance(e, NotificationReceived)
        and e.notification.method == "notifications/tools/list_changed"
    )
    assert changed
    record = next(r for r in item.records if r.direction == "in" and r.sse_event_id == "g1")
    assert record.http.method == "GET"
    assert [a.kind for a in item.responder.asks] == ["roots"]


async def test_a_response_on_the_get_stream_is_paired_but_flagged(opened: list[Opened]) -> None:
    fake = FakeHttp()
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    fake.get_handler = lambda _seen: relay(queue)

    def tools_list(seen: Seen) -> httpx.Response:
        queue.put_nowait(sse_event(result(seen, {"tools": TOOLS})))
        return sse(0.3)  # the POST stream ends without the answer

    fake.on("tools/list", tools_list)
    item = await start(opened, fake)
    await fake.wait_for(lambda s: s.method == "GET")
    tools = await item.session.client.list_tools()
    assert [t["name"] for t in tools] == ["echo"]
    await until(lambda: any("standalone GET stream" in n for n in item.notes()))
    await asyncio.sleep(0.4)  # not a wait: outlasts the POST stream (0.3 s), which fails nothing
    assert item.session.is_ready


def relay(queue: asyncio.Queue[bytes]) -> httpx.Response:
    """An endless SSE stream of whatever the test puts on `queue`."""

    async def body() -> AsyncIterator[bytes]:
        while True:
            yield await queue.get()

    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body())


# ------------------------------------------------------------------------- resumption
async def test_legacy_resumption_with_last_event_id_honours_retry(opened: list[Opened]) -> None:
    fake = FakeHttp()
    cut_at: list[float] = []
    answers: dict[str, str] = {}

    async def cut_now() -> None:
        cut_at.append(time.monotonic())
        raise httpx.ReadError("connection reset by peer")

    def tools_call(seen: Seen) -> httpx.Response:
        answer = json.dumps(result(seen, {"content": [{"type": "text", "text": "resumed"}]}))
        answers["e2"] = answer
        log = {"jsonrpc": "2.0", "method": "notifications/message"}
        return sse(
            "retry: 200\nid: e0\ndata: \n\n",  # a priming event: an id and empty data
            sse_event({**log, "params": {"level": "info", "data": "1"}}, "e1"),
            f"id: e2\ndata: {answer[:25]}",  # cut mid-event
            cut_now,
        )

    def get(seen: Seen) -> httpx.Response:
        if seen.headers.get("last-event-id") == "e1":
            return sse(f"id: e2\ndata: {answers['e2']}\n\n")
        return httpx.Response(405)

    fake.on("tools/call", tools_call)
    fake.get_handler = get
    item = await start(opened, fake)
    out = await item.session.client.call_tool("echo", {})
    assert out["content"][0]["text"] == "resumed"
    resume = next(s for s in fake.requests_of("GET") if "last-event-id" in s.headers)
    assert resume.headers["last-event-id"] == "e1"
    assert resume.headers["accept"] == "text/event-stream"
    assert resume.headers["mcp-session-id"] == SESSION_ID
    assert resume.headers["mcp-protocol-version"] == "2025-11-25"
    assert resume.at - cut_at[0] >= 0.19  # retry: 200 was honoured
    assert any(e.note and "resuming after event e1" in e.note for e in item.exchanges())
    # The half event was dropped, not glued to the resumed stream.
    assert not any(r.direction == "in" and r.kind == "invalid" for r in item.records)
    answer = next(r for r in item.records if r.direction == "in" and r.sse_event_id == "e2")
    assert answer.http.method == "GET"


async def test_legacy_stream_broken_without_event_ids_fails_only_that_request(
    opened: list[Opened],
) -> None:
    fake = FakeHttp()

    def tools_call(seen: Seen) -> httpx.Response:
        return sse(b'data: {"jsonrpc":"2.0","id":', httpx.RemoteProtocolError("peer closed"))

    fake.on("tools/call", tools_call)
    item = await start(opened, fake)
    with pytest.raises(TransportFailure, match="cannot be resumed"):
        await item.session.client.call_tool("echo", {})
    assert item.session.is_ready
    assert [t["name"] for t in await item.session.client.list_tools()] == ["echo"]


async def test_resumption_refused_fails_the_request(opened: list[Opened]) -> None:
    fake = FakeHttp()
    fake.on(
        "tools/call",
        lambda _seen: sse("retry: 10\nid: a1\ndata: \n\n", httpx.ReadError("reset")),
    )
    fake.get_handler = lambda _seen: httpx.Response(400, text="no such stream")
    item = await start(opened, fake)
    with pytest.raises(TransportFailure, match=r"resuming was refused \(HTTP 400\)"):
        await item.session.client.call_tool("echo", {})
    assert item.session.is_ready


# --------------------------------------------------------------------------- modern era
HEADER_TOOL = {
    "name": "execute_sql",
    "inputSchema": {
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "query": {"type": "string"},
        },
    },
}
BAD_TOOL = {
    "name": "bad_header",
    "inputSchema": {
        "type": "object",
        "properties": {"n": {"type": "number", "x-mcp-header": "N"}},
    },
}


def modern_fake() -> FakeHttp:
    fake = FakeHttp("modern")
    fake.on(
        "server/discover",
        lambda seen: httpx.Response(
            200, json=result(seen, discover_result()), headers={"mcp-session-id": "ignored"}
        ),
    )
    fake.on("tools/list", lambda seen: result(seen, {"tools": [HEADER_TOOL, BAD_TOOL, *TOOLS]}))
    return fake


async def test_modern_requests_carry_metadata_headers_and_no_session(opened: list[Opened]) -> None:
    fake = modern_fake()
    item = await start(opened, fake, era=EraSetting.MODERN)
    assert item.session.era is Era.MODERN
    tools = await item.session.client.list_tools()
    assert [t["name"] for t in tools] == ["execute_sql", "echo"]
    await item.session.client.call_tool("execute_sql", {"region": "Zürich", "query": "SELECT 1"})
    await item.session.client.read_resource("file:///a b.txt")
    await item.session.close()
    assert not fake.requests_of("GET") and not fake.requests_of("DELETE")
    for seen in fake.seen:
        assert seen.method == "POST"
        assert "mcp-session-id" not in seen.headers
        assert seen.headers["mcp-protocol-version"] == MODERN
        assert seen.headers["mcp-method"] == seen.rpc_method
        assert seen.body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == MODERN
    call = fake.posts("tools/call")[0]
    assert call.headers["mcp-name"] == "execute_sql"
    assert call.headers["mcp-param-region"] == "=?base64?WsO8cmljaA==?="
    read = fake.posts("resources/read")[0]
    assert read.headers["mcp-name"] == "file:///a b.txt"
    assert "mcp-name" not in fake.posts("tools/list")[0].headers


async def test_modern_tools_with_an_invalid_x_mcp_header_are_excluded_with_the_reason(
    opened: list[Opened],
) -> None:
    item = await start(opened, modern_fake(), era=EraSetting.MODERN)
    names = [t["name"] for t in await item.session.client.list_tools()]
    assert "bad_header" not in names
    assert (
        "n: x-mcp-header on a property of type 'number'"
        in item.session.client.excluded_tools["bad_header"]
    )


async def test_legacy_http_ignores_x_mcp_header(opened: list[Opened]) -> None:
    fake = FakeHttp()
    fake.on("tools/list", lambda seen: result(seen, {"tools": [HEADER_TOOL, BAD_TOOL]}))
    item = await start(opened, fake)
    assert len(await item.session.client.list_tools()) == 2
    await item.session.client.call_tool("execute_sql", {"region": "eu"})
    assert not any(k.startswith("mcp-param") for k in fake.posts("tools/call")[0].headers)


async def test_modern_cancel_closes_the_stream_and_posts_no_cancellation(
    opened: list[Opened],
) -> None:
    fake = modern_fake()
    streams: list[httpx.Response] = []

    def slow(seen: Seen) -> httpx.Response:
        response = sse(
            sse_event(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/progress",
                    "params": {
                        "progressToken": seen.body["params"]["_meta"]["progressToken"],
                        "progress": 1,
                    },
                }
            ),
            60,
        )
        streams.append(response)
        return response

    fake.on("tools/call", slow)
    item = await start(opened, fake, era=EraSetting.MODERN)
    progressed = asyncio.Event()
    call = item.session.start_request(
        "tools/call", {"name": "slow", "arguments": {}}, on_progress=lambda _p: progressed.set()
    )
    await asyncio.wait_for(progressed.wait(), 5)
    call.cancel("changed my mind")
    with pytest.raises(RequestCancelled):
        await call.result()
    await asyncio.wait_for(streams[0].extensions["closed"].wait(), 5)
    await asyncio.sleep(0.05)  # not a wait: a cancellation POST would have gone out by now
    assert not fake.posts("notifications/cancelled")
    assert [s.rpc_method for s in fake.posts()] == ["server/discover", "tools/call"]
    # The log shows what happened, not a notification that never went out.
    assert not [r for r in item.records if r.direction == "out" and r.kind == "notification"]
    assert any("cancelled by closing its response stream" in n for n in item.notes())


async def test_legacy_cancel_posts_notifications_cancelled(opened: list[Opened]) -> None:
    fake = FakeHttp()
    streams: list[httpx.Response] = []

    def slow(_seen: Seen) -> httpx.Response:
        response = sse(": working\n\n", 60)
        streams.append(response)
        return response

    fake.on("tools/call", slow)
    item = await start(opened, fake)
    streamed = sum(e.note == "SSE stream" for e in item.exchanges())
    call = item.session.start_request("tools/call", {"name": "slow", "arguments": {}})
    await fake.wait_for(lambda s: s.rpc_method == "tools/call")
    # The call's response stream is open on the client's side before it is cancelled.
    await until(lambda: sum(e.note == "SSE stream" for e in item.exchanges()) > streamed)
    call.cancel("no longer needed")
    with pytest.raises(RequestCancelled):
        await call.result()
    cancelled = await fake.wait_for(lambda s: s.rpc_method == "notifications/cancelled")
    assert cancelled.body["params"]["requestId"] == fake.posts("tools/call")[0].rpc_id
    await asyncio.wait_for(streams[0].extensions["closed"].wait(), 5)


async def test_a_broken_modern_stream_is_resent_under_a_new_id(opened: list[Opened]) -> None:
    fake = modern_fake()
    calls: list[Seen] = []

    def tools_call(seen: Seen) -> Any:
        calls.append(seen)
        if len(calls) == 1:
            return sse(
                sse_event(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/message",
                        "params": {"level": "info", "data": "x"},
                    }
                ),
                httpx.ReadError("reset"),
            )
        return result(
            seen,
            {"content": [{"type": "text", "text": "second time lucky"}], "resultType": "complete"},
        )

    fake.on("tools/call", tools_call)
    item = await start(opened, fake, era=EraSetting.MODERN)
    out = await item.session.client.call_tool("echo", {"text": "hi"})
    assert out["content"][0]["text"] == "second time lucky"
    first, second = calls
    assert first.rpc_id != second.rpc_id
    assert first.body["params"]["arguments"] == second.body["params"]["arguments"] == {"text": "hi"}
    assert second.headers["mcp-name"] == "echo"
    assert any("re-sent request" in n for n in item.notes())


async def test_a_modern_stream_that_always_breaks_gives_up(opened: list[Opened]) -> None:
    fake = modern_fake()
    fake.on("tools/call", lambda _seen: sse(httpx.ReadError("reset")))
    item = await start(opened, fake, era=EraSetting.MODERN)
    with pytest.raises(TransportFailure, match="gave up after re-sending it 3 times"):
        await asyncio.wait_for(item.session.client.call_tool("echo", {}), 5)
    assert len(fake.posts("tools/call")) == 4
    assert item.session.is_ready


@pytest.mark.parametrize(
    ("code", "status"),
    [(-32020, 400), (-32021, 400), (-32602, 400)],
)
async def test_modern_http_errors_keep_their_codes(
    opened: list[Opened], code: int, status: int
) -> None:
    fake = modern_fake()
    fake.on(
        "tools/call",
        lambda seen: httpx.Response(status, json=rpc_error(seen, code, f"error {code}")),
    )
    item = await start(opened, fake, era=EraSetting.MODERN)
    with pytest.raises(ServerError) as caught:
        await item.session.client.call_tool("echo", {})
    assert caught.value.code == code


# ------------------------------------------------------------------------- auto-detect
class OldSseServer(FakeHttp):
    """A 2024-11-05 HTTP+SSE server on the same URL: POST is refused, GET opens the event
    stream whose first event names the endpoint for POSTs."""

    def __init__(self, refusal: httpx.Response) -> None:
        super().__init__(session_id=None)
        self.refusal = refusal
        self.outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.get_handler = self._stream

    def _stream(self, _seen: Seen) -> httpx.Response:
        async def relay() -> AsyncIterator[bytes]:
            yield b"event: endpoint\ndata: /messages?session_id=abc\n\n"
            while True:
                yield await self.outbox.get()

        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=relay())

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path == "/mcp":
            await request.aread()
            self.seen.append(
                Seen("POST", str(request.url), request.headers, json.loads(request.content))
            )
            return self.refusal
        if request.method == "POST":
            response = await super().__call__(request)
            if response.status_code == 200:
                await self.outbox.put(b"event: message\ndata: " + response.content + b"\n\n")
                return httpx.Response(202, text="Accepted")
            return response
        return await super().__call__(request)


@pytest.mark.parametrize(
    "refusal",
    [
        httpx.Response(404, text="Cannot POST /mcp"),
        httpx.Response(405, headers={"allow": "GET"}),
        httpx.Response(400, text="<html>Bad Request</html>"),
        httpx.Response(
            400,
            json={
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": -32000, "message": "Bad Request: Server not initialized"},
            },
        ),
    ],
    ids=["404", "405", "400-html", "400-non-modern-json"],
)
async def test_auto_detect_falls_back_to_http_sse(
    opened: list[Opened], refusal: httpx.Response
) -> None:
    fake = OldSseServer(refusal)
    item = await start(opened, fake, kind="auto")
    assert item.session.transport.kind == "sse"
    assert [t["name"] for t in await item.session.client.list_tools()] == ["echo"]
    posts = [s for s in fake.seen if s.method == "POST"]
    assert posts[0].url == URL and posts[1].url.startswith(
        "http://mcp.test/messages?session_id=abc"
    )
    assert posts[1].rpc_method == "initialize"  # the refused request, sent again
    assert any(e.note and "using the HTTP+SSE transport" in e.note for e in item.exchanges())


@pytest.mark.parametrize(
    ("code", "status"),
    [(-32022, 400), (-32020, 400), (-32021, 400), (-32601, 404)],
)
async def test_auto_detect_does_not_fall_back_on_a_modern_error(
    opened: list[Opened], code: int, status: int
) -> None:
    fake = FakeHttp()
    fake.on(
        "initialize",
        lambda seen: httpx.Response(
            status, json=rpc_error(seen, code, "modern refusal", {"supported": [MODERN]})
        ),
    )
    with pytest.raises(ConnectError):
        await start(opened, fake, kind="auto")
    await asyncio.sleep(0.05)  # not a wait: an HTTP+SSE probe would have gone out by now
    assert not fake.requests_of("GET")  # no HTTP+SSE probe


@pytest.mark.parametrize("kind", ["streamable-http", "auto"])
@pytest.mark.parametrize(
    "refusal",
    [
        lambda _seen: httpx.Response(400, text="Bad Request"),
        lambda _seen: httpx.Response(400),
        lambda _seen: httpx.Response(
            400,
            json={
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": -32000, "message": "Server not initialized"},
            },
        ),
    ],
    ids=["text", "empty", "json-32000"],
)
async def test_era_auto_falls_back_to_initialize_on_a_non_modern_400(
    opened: list[Opened], kind: str, refusal: Any
) -> None:
    fake = FakeHttp()
    fake.on("server/discover", refusal)
    fake.get_handler = lambda _seen: httpx.Response(400, text="no session")
    item = await start(opened, fake, era=EraSetting.AUTO, kind=kind)  # type: ignore[arg-type]
    assert item.session.era is Era.LEGACY
    assert [t["name"] for t in await item.session.client.list_tools()] == ["echo"]
    discover, init = fake.posts()[:2]
    assert discover.headers["mcp-method"] == "server/discover"
    assert init.rpc_method == "initialize" and "mcp-method" not in init.headers


async def test_era_auto_stays_modern_on_a_modern_server(opened: list[Opened]) -> None:
    item = await start(opened, modern_fake(), era=EraSetting.AUTO, kind="auto")
    assert item.session.era is Era.MODERN
    assert not item.fake.posts("initialize")


async def test_http_exchange_reports_are_plain_data(opened: list[Opened]) -> None:
    item = await start(opened)
    first = item.exchanges()[0]
    assert isinstance(first, HttpExchange)
    assert (first.method, first.url, first.status) == ("POST", URL, 200)
    assert first.content_type == "application/json"
    assert initialize_result()["serverInfo"]["name"] == item.session.server_info["name"]
