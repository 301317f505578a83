"""Legacy era (2024-11-05 … 2025-11-25): the initialize handshake and its lifecycle rules."""

from __future__ import annotations

import pytest

from inspector.protocol.machine.connection import ClientConfig, ClientConnection, ConnectionState
from inspector.protocol.machine.events import (
    NotificationReceived,
    ProtocolViolation,
    RequestCompleted,
    RequestFailed,
    ServerAskReceived,
    SessionReady,
)
from inspector.protocol.wire.errors import LocalProtocolError
from inspector.protocol.wire.jsonrpc import Notification, Request, Response
from inspector.protocol.wire.versions import LEGACY_VERSIONS, Era
from tests.helpers.fake_server import (
    LEGACY,
    FakeServer,
    error,
    initialize_result,
    legacy_session,
    of_type,
    one,
)


def started(**config: object) -> tuple[ClientConnection, FakeServer, Request]:
    conn = ClientConnection(ClientConfig(**config))  # type: ignore[arg-type]
    server = FakeServer(conn)
    conn.start(server.now)
    return conn, server, server.last_request("initialize")


# ------------------------------------------------------------------ initialize
def test_legacy_is_the_default_era_and_starts_with_initialize() -> None:
    conn, server, _init = started()
    assert conn.era is Era.LEGACY
    assert conn.state is ConnectionState.INITIALIZING
    assert [m.method for m in server.received if isinstance(m, Request)] == ["initialize"]


def test_initialize_offers_2025_11_25_with_client_info_and_capabilities() -> None:
    _, _, init = started()
    assert init.params is not None
    assert init.params["protocolVersion"] == "2025-11-25"
    assert init.params["clientInfo"]["name"] == "mcp-inspector-qt"
    assert "version" in init.params["clientInfo"]
    caps = init.params["capabilities"]
    assert set(caps) >= {"sampling", "elicitation", "roots"}
    assert "_meta" not in init.params  # no modern _meta in a legacy handshake


def test_initialize_offers_the_configured_version_and_identity() -> None:
    _, _, init = started(
        legacy_version="2025-03-26",
        client_info={"name": "probe", "version": "9"},
        capabilities={"roots": {}},
    )
    assert init.params == {
        "protocolVersion": "2025-03-26",
        "capabilities": {"roots": {}},
        "clientInfo": {"name": "probe", "version": "9"},
    }


@pytest.mark.parametrize("version", LEGACY_VERSIONS)
def test_accepts_each_supported_version_the_server_answers(version: str) -> None:
    conn, server, init = started()
    events = server.reply(init, initialize_result(version, {"tools": {}}, instructions="Use echo."))
    ready = one(events, SessionReady)
    assert ready.era is Era.LEGACY
    assert ready.protocol_version == version
    assert ready.server_info == {"name": "fake-server", "version": "1.0.0"}
    assert ready.capabilities == {"tools": {}}
    assert ready.instructions == "Use echo."
    assert ready.result is not None and ready.result["protocolVersion"] == version
    done = one(events, RequestCompleted)
    assert done.method == "initialize"
    assert conn.state is ConnectionState.READY
    assert conn.protocol_version == version


def test_initialized_notification_follows_the_result() -> None:
    conn, server, init = started()
    assert server.notifications() == []  # not before the result
    server.reply(init, initialize_result())
    assert server.take() == [Notification("notifications/initialized")]
    assert conn.initialized_sent


@pytest.mark.parametrize("answer", ["2099-01-01", "2026-07-28", "2024-01-01"])
def test_refuses_an_unsupported_version_naming_both(answer: str) -> None:
    conn, server, init = started()
    events = server.reply(init, initialize_result(answer))
    failed = one(events, RequestFailed)
    assert failed.kind == "protocol"
    assert answer in failed.message
    assert "2025-11-25" in failed.message  # what we offered
    assert conn.state is ConnectionState.FAILED
    assert conn.failure is not None and answer in conn.failure
    assert of_type(events, SessionReady) == []
    assert server.notifications("notifications/initialized") == []


@pytest.mark.parametrize("answer", [None, 20250618, ["2025-06-18"]])
def test_refuses_a_version_that_is_not_a_string(answer: object) -> None:
    conn, server, init = started()
    result = initialize_result()
    result["protocolVersion"] = answer
    failed = one(server.reply(init, result), RequestFailed)
    assert repr(answer) in failed.message
    assert conn.state is ConnectionState.FAILED


def test_failed_connection_refuses_requests_with_the_reason() -> None:
    conn, server, init = started()
    server.reply(init, initialize_result("2099-01-01"))
    with pytest.raises(LocalProtocolError, match=r"failed.*2099-01-01"):
        conn.send_request("tools/list", now=1.0)


def test_initialize_error_fails_the_handshake() -> None:
    conn, server, init = started()
    events = server.fail(init, -32602, "bad capabilities")
    failed = one(events, RequestFailed)
    assert failed.kind == "error"
    assert failed.error is not None and failed.error.code == -32602
    assert "bad capabilities" in failed.message
    assert conn.state is ConnectionState.FAILED
    assert conn.failure == "initialize failed: -32602 bad capabilities"


def test_start_twice_is_a_local_error() -> None:
    conn, _, _ = started()
    with pytest.raises(LocalProtocolError, match="start"):
        conn.start(0.0)


# -------------------------------------------------------- before initialized
def test_no_request_before_start() -> None:
    conn = ClientConnection()
    with pytest.raises(LocalProtocolError, match="connect first"):
        conn.send_request("tools/list", now=0.0)


@pytest.mark.parametrize("method", ["tools/list", "resources/list", "logging/setLevel"])
def test_no_request_before_the_initialize_result(method: str) -> None:
    conn, server, _ = started()
    with pytest.raises(LocalProtocolError, match=f"cannot send {method} before the handshake"):
        conn.send_request(method, now=0.0)
    assert server.requests(method) == []


def test_ping_is_allowed_before_the_initialize_result() -> None:
    conn, server, _init = started()
    key = conn.send_request("ping", now=0.0)
    ping = server.last_request("ping")
    assert ping.params is None
    events = server.reply(ping, {})
    assert one(events, RequestCompleted).key == key
    assert conn.state is ConnectionState.INITIALIZING  # ping does not finish the handshake


def test_server_request_before_initialized_is_flagged() -> None:
    _conn, server, _ = started()
    _, events = server.ask("roots/list")
    violation = one(events, ProtocolViolation)
    assert violation.rule == "lifecycle"
    assert "roots/list" in violation.message and "notifications/initialized" in violation.message
    # Shown to the user anyway: an inspector never hides what the server did.
    assert one(events, ServerAskReceived).ask.method == "roots/list"


@pytest.mark.parametrize("stage", ["initializing", "ready"])
def test_ping_from_the_server_is_answered_with_an_empty_result(stage: str) -> None:
    if stage == "ready":
        _, server = legacy_session()
    else:
        _, server, _ = started()
    rid, events = server.ask("ping")
    assert events == []  # no violation: ping is always allowed
    assert server.responses() == [Response(rid, {})]


def test_notification_before_the_initialize_result_is_flagged() -> None:
    _, server, _ = started()
    events = server.notify("notifications/tools/list_changed")
    assert one(events, NotificationReceived).notification.method.endswith("list_changed")
    assert one(events, ProtocolViolation).rule == "lifecycle"


def test_log_message_before_the_initialize_result_is_fine() -> None:
    _, server, _ = started()
    events = server.notify("notifications/message", {"level": "info", "data": "booting"})
    assert of_type(events, ProtocolViolation) == []


# ------------------------------------------------------------------ requests
def test_requests_after_ready_carry_no_meta_and_fresh_ids() -> None:
    conn, server = legacy_session()
    conn.send_request("tools/list", now=0.0)
    conn.send_request("tools/call", {"name": "echo", "arguments": {"x": 1}}, now=0.0)
    sent = server.requests()
    tools_list, call = sent[-2], sent[-1]
    assert tools_list.params is None
    assert call.params == {"name": "echo", "arguments": {"x": 1}}
    ids = [r.id for r in sent]
    assert len(ids) == len(set(ids))


def test_response_completes_the_request_by_key() -> None:
    conn, server = legacy_session()
    key = conn.send_request("tools/list", now=0.0)
    events = server.reply(server.last_request("tools/list"), {"tools": [{"name": "echo"}]})
    done = one(events, RequestCompleted)
    assert (done.key, done.method, done.rounds) == (key, "tools/list", 1)
    assert done.result == {"tools": [{"name": "echo"}]}
    assert conn.pending_count == 0


def test_legacy_result_with_a_result_type_is_just_a_result() -> None:
    # resultType means nothing before 2026-07-28: no MRTR in the legacy era.
    conn, server = legacy_session()
    conn.send_request("tools/call", {"name": "x"}, now=0.0)
    events = server.reply(server.last_request(), {"resultType": "input_required"})
    assert one(events, RequestCompleted).result == {"resultType": "input_required"}
    assert of_type(events, ServerAskReceived) == []


def test_error_response_fails_the_request_with_the_server_message() -> None:
    conn, server = legacy_session()
    key = conn.send_request("tools/call", {"name": "nope"}, now=0.0)
    events = server.fail(server.last_request(), -32602, "Unknown tool: nope")
    failed = one(events, RequestFailed)
    assert failed.key == key
    assert failed.kind == "error"
    assert failed.message == "tools/call failed: -32602 Unknown tool: nope"


def test_scripted_server_answers_in_order() -> None:
    conn, server = legacy_session()
    server.on("ping", {}, error(-32603, "busy"))
    conn.send_request("ping", now=0.0)
    conn.send_request("ping", now=0.0)
    events = server.step()
    assert len(of_type(events, RequestCompleted)) == 1
    assert one(events, RequestFailed).message == "ping failed: -32603 busy"


def test_legacy_ping_needs_no_capability() -> None:
    conn, server = legacy_session(server_capabilities={})
    conn.send_request("ping", now=0.0)
    assert server.last_request().method == "ping"


def test_initialize_answered_once_only() -> None:
    conn, server, init = started()
    server.reply(init, initialize_result(LEGACY))
    server.take()
    events = server.reply(init, initialize_result(LEGACY))
    assert conn.state is ConnectionState.READY
    assert server.notifications("notifications/initialized") == [
        Notification("notifications/initialized")
    ]
    assert of_type(events, SessionReady) == []
