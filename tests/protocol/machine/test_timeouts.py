"""Timeouts and cancellation, with the clock moved by hand (next_deadline / handle_timer)."""

from __future__ import annotations

import pytest

from inspector.protocol.machine.connection import ClientConfig, ClientConnection, ConnectionState
from inspector.protocol.machine.events import (
    LateResponse,
    NotificationReceived,
    RequestCompleted,
    RequestFailed,
    ServerAskReceived,
)
from inspector.protocol.wire.jsonrpc import Notification
from inspector.protocol.wire.versions import EraSetting
from tests.helpers.fake_server import (
    FakeServer,
    initialize_result,
    legacy_session,
    modern_session,
    of_type,
    one,
)


def progress(server: FakeServer, token: str | int, value: float) -> None:
    events = server.notify("notifications/progress", {"progressToken": token, "progress": value})
    assert one(events, NotificationReceived)


def token_of(server: FakeServer) -> str | int:
    req = server.last_request()
    assert req.params is not None
    token = req.params["_meta"]["progressToken"]
    assert isinstance(token, str | int)
    return token


def test_request_times_out_and_the_server_is_told() -> None:
    conn, server = legacy_session(request_timeout=10.0)
    key = conn.send_request("tools/call", {"name": "hang"}, now=server.now)
    req = server.last_request("tools/call")
    assert conn.next_deadline() == pytest.approx(10.0)
    assert server.advance(9.999) == []
    events = server.advance(0.001)
    failed = one(events, RequestFailed)
    assert (failed.key, failed.kind, failed.wire_id) == (key, "timeout", req.id)
    assert failed.message == "tools/call: no answer within 10 s"
    assert server.notifications("notifications/cancelled") == [
        Notification("notifications/cancelled", {"requestId": req.id, "reason": "timed out"})
    ]
    assert conn.pending_count == 0
    assert conn.next_deadline() is None


def test_per_request_timeout_overrides_the_default() -> None:
    conn, server = legacy_session(request_timeout=60.0)
    conn.send_request("tools/call", {"name": "x"}, now=0.0, timeout=2.0)
    assert conn.next_deadline() == pytest.approx(2.0)
    assert one(server.advance(2.0), RequestFailed).message == "tools/call: no answer within 2 s"


def test_no_timeout_at_all() -> None:
    conn, server = legacy_session()
    conn.send_request("tools/call", {"name": "x"}, now=0.0, timeout=None, max_total=None)
    assert conn.next_deadline() is None
    assert server.advance(1e9) == []
    assert conn.pending_count == 1


def test_the_earliest_deadline_wins() -> None:
    conn, server = legacy_session(request_timeout=30.0)
    conn.send_request("tools/list", now=0.0)
    server.now = 5.0
    conn.send_request("prompts/list", now=5.0, timeout=3.0)
    assert conn.next_deadline() == pytest.approx(8.0)
    assert one(server.run_to_deadline(), RequestFailed).method == "prompts/list"
    assert conn.next_deadline() == pytest.approx(30.0)


def test_progress_resets_the_timeout() -> None:
    conn, server = legacy_session(request_timeout=10.0, max_total_timeout=None)
    conn.send_request("tools/call", {"name": "slow"}, now=0.0, progress=True)
    token = token_of(server)
    for _ in range(5):
        assert server.advance(8.0) == []
        progress(server, token, server.now)
    assert conn.next_deadline() == pytest.approx(server.now + 10.0)
    events = server.reply(server.last_request("tools/call"), {"content": []})
    assert one(events, RequestCompleted).method == "tools/call"


def test_progress_does_not_reset_when_configured_not_to() -> None:
    conn, server = legacy_session(request_timeout=10.0, reset_timeout_on_progress=False)
    conn.send_request("tools/call", {"name": "slow"}, now=0.0, progress=True)
    token = token_of(server)
    server.advance(8.0)
    progress(server, token, 1)
    assert one(server.advance(2.0), RequestFailed).kind == "timeout"


def test_max_total_fires_despite_progress() -> None:
    conn, server = legacy_session(request_timeout=10.0, max_total_timeout=25.0)
    conn.send_request("tools/call", {"name": "forever"}, now=0.0, progress=True)
    token = token_of(server)
    failed: list[RequestFailed] = []
    while not failed:
        failed = of_type(server.advance(5.0), RequestFailed)
        progress(server, token, server.now)
    assert server.now == pytest.approx(25.0)
    assert failed[0].message == "tools/call: no answer within the maximum total time of 25 s"
    assert server.notifications("notifications/cancelled")


def test_per_request_max_total() -> None:
    conn, _server = legacy_session(request_timeout=10.0)
    conn.send_request("tools/call", {"name": "x"}, now=0.0, max_total=4.0)
    assert conn.next_deadline() == pytest.approx(4.0)


def test_late_response_after_a_timeout() -> None:
    conn, server = legacy_session(request_timeout=1.0)
    conn.send_request("tools/list", now=0.0)
    req = server.last_request("tools/list")
    server.run_to_deadline()
    late = one(server.reply(req, {"tools": []}), LateResponse)
    assert (late.wire_id, late.method, late.why_given_up) == (req.id, "tools/list", "timed out")


# ---------------------------------------------------------------- handshake
def test_initialize_times_out_but_is_never_cancelled() -> None:
    conn = ClientConnection(ClientConfig(request_timeout=5.0))
    server = FakeServer(conn)
    key = conn.start(0.0)
    events = server.advance(5.0)
    failed = one(events, RequestFailed)
    assert (failed.key, failed.method, failed.kind) == (key, "initialize", "timeout")
    assert conn.state is ConnectionState.FAILED
    assert conn.failure == "initialize timed out: no answer within 5 s"
    assert server.notifications("notifications/cancelled") == []


def test_initialize_and_ping_timing_out_together_fail_once_each() -> None:
    conn = ClientConnection(ClientConfig(request_timeout=5.0))
    server = FakeServer(conn)
    conn.start(0.0)
    ping = conn.send_request("ping", now=0.0)
    events = server.advance(5.0)
    failures = of_type(events, RequestFailed)
    assert sorted(f.method for f in failures) == ["initialize", "ping"]
    assert [f.key for f in failures].count(ping) == 1
    init = server.last_request("initialize")
    assert all(n.params and n.params["requestId"] != init.id for n in cancelled_of(server))
    # The ping's answer arriving now is late, not "never sent".
    late = one(server.reply(server.last_request("ping"), {}), LateResponse)
    assert late.method == "ping"


def cancelled_of(server: FakeServer) -> list[Notification]:
    return server.notifications("notifications/cancelled")


def test_user_cancel_of_initialize_fails_the_handshake_silently() -> None:
    conn = ClientConnection()
    server = FakeServer(conn)
    key = conn.start(0.0)
    init = server.last_request("initialize")
    events = conn.cancel(key, "user pressed stop", 1.0)
    assert one(events, RequestFailed).kind == "cancelled"
    assert server.notifications("notifications/cancelled") == []
    assert conn.state is ConnectionState.FAILED
    assert conn.failure is not None and "user pressed stop" in conn.failure
    # A late initialize result does not revive the session.
    assert one(server.reply(init, initialize_result()), LateResponse).method == "initialize"
    assert conn.state is ConnectionState.FAILED


def test_modern_discover_timeout_fails_the_handshake() -> None:
    conn = ClientConnection(ClientConfig(era=EraSetting.MODERN, request_timeout=3.0))
    server = FakeServer(conn)
    conn.start(0.0)
    discover = server.last_request()
    events = server.advance(3.0)
    assert one(events, RequestFailed).kind == "timeout"
    assert conn.state is ConnectionState.FAILED
    # Modern servers do take notifications/cancelled for any of our requests.
    assert server.notifications("notifications/cancelled") == [
        Notification("notifications/cancelled", {"requestId": discover.id, "reason": "timed out"})
    ]


# ------------------------------------------------------------------ cancel
@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_user_cancel_tells_the_server(era: str) -> None:
    conn, server = legacy_session() if era == "legacy" else modern_session()
    key = conn.send_request("tools/call", {"name": "slow"}, now=0.0)
    req = server.last_request("tools/call")
    events = conn.cancel(key, "user pressed stop", 1.0)
    failed = one(events, RequestFailed)
    assert (failed.key, failed.kind) == (key, "cancelled")
    assert failed.message == "cancelled: user pressed stop"
    assert server.notifications("notifications/cancelled") == [
        Notification(
            "notifications/cancelled", {"requestId": req.id, "reason": "user pressed stop"}
        )
    ]
    assert conn.next_deadline() is None
    late = one(server.reply(req, {"content": []}), LateResponse)
    assert late.why_given_up == "user pressed stop"


def test_cancel_of_a_finished_request_does_nothing() -> None:
    conn, server = legacy_session()
    key = conn.send_request("tools/list", now=0.0)
    server.reply(server.last_request("tools/list"), {"tools": []})
    assert conn.cancel(key, "too late", 1.0) == []
    assert server.notifications("notifications/cancelled") == []


def test_max_total_excludes_the_time_the_user_spends_answering() -> None:
    conn, server = modern_session(request_timeout=5.0, max_total_timeout=20.0)
    conn.send_request("tools/call", {"name": "ask"}, now=0.0)
    server.now = 1.0
    events = server.reply(
        server.last_request(),
        {"resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}},
    )
    ask = one(events, ServerAskReceived).ask
    server.now = 1000.0  # the user took a long time in the dialog
    conn.answer_ask(ask.ask_id, {"roots": []}, server.now)
    assert conn.next_deadline() == pytest.approx(1005.0)
    assert server.advance(4.0) == []
