"""Modern era (2026-07-28): per-request _meta, server/discover, -32022, resultType."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.protocol.machine.connection import ClientConfig, ClientConnection, ConnectionState
from inspector.protocol.machine.events import (
    ProtocolViolation,
    RequestCompleted,
    RequestFailed,
    SessionReady,
    VersionRenegotiated,
)
from inspector.protocol.wire.jsonrpc import METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION, Request
from inspector.protocol.wire.versions import Era, EraSetting
from tests.helpers.fake_server import (
    META,
    MODERN,
    FakeServer,
    discover_result,
    error,
    modern_session,
    of_type,
    one,
)


def meta(req: Request) -> dict[str, Any]:
    assert req.params is not None, f"{req.method} has no params"
    value = req.params["_meta"]
    assert isinstance(value, dict)
    return value


def started(**config: Any) -> tuple[ClientConnection, FakeServer]:
    conn = ClientConnection(ClientConfig(era=EraSetting.MODERN, **config))
    server = FakeServer(conn)
    conn.start(server.now)
    return conn, server


# ------------------------------------------------------------------- _meta
def test_discover_is_the_first_request_and_carries_meta() -> None:
    conn, server = started()
    assert conn.era is Era.MODERN
    assert conn.state is ConnectionState.DISCOVERING
    discover = server.last_request()
    assert discover.method == "server/discover"
    m = meta(discover)
    assert m[META + "protocolVersion"] == MODERN
    assert m[META + "clientInfo"]["name"] == "mcp-inspector-qt"
    assert m[META + "clientCapabilities"] == conn.config.capabilities
    assert "progressToken" not in m
    assert server.notifications() == []  # no initialized notification in this era


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("tools/list", None),
        ("tools/call", {"name": "echo", "arguments": {"text": "hi"}}),
        ("resources/read", {"uri": "file:///a"}),
        ("prompts/get", {"name": "p"}),
        ("subscriptions/listen", {"notifications": {"toolsListChanged": True}}),
    ],
)
def test_every_request_carries_version_client_info_and_capabilities(
    method: str, params: dict[str, Any] | None
) -> None:
    conn, server = modern_session()
    conn.send_request(method, params, now=0.0)
    req = server.last_request(method)
    m = meta(req)
    assert m[META + "protocolVersion"] == MODERN
    assert m[META + "clientInfo"] == conn.config.client_info
    assert m[META + "clientCapabilities"] == conn.config.capabilities
    assert META + "logLevel" not in m  # no level set: the server must send no logs
    for name, value in (params or {}).items():
        assert req.params is not None and req.params[name] == value


def test_log_level_rides_in_every_requests_meta() -> None:
    conn, server = modern_session(log_level="debug")
    conn.send_request("tools/list", now=0.0)
    assert meta(server.last_request("tools/list"))[META + "logLevel"] == "debug"
    assert meta(server.last_request("server/discover"))[META + "logLevel"] == "debug"


def test_progress_token_only_when_asked() -> None:
    conn, server = modern_session()
    conn.send_request("tools/call", {"name": "slow"}, now=0.0, progress=True)
    conn.send_request("tools/call", {"name": "fast"}, now=0.0)
    slow, fast = server.requests("tools/call")
    assert isinstance(meta(slow)["progressToken"], str | int)
    assert "progressToken" not in meta(fast)


def test_callers_own_meta_is_kept() -> None:
    conn, server = modern_session()
    conn.send_request("tools/call", {"name": "x", "_meta": {"trace": "abc"}}, now=0.0)
    m = meta(server.last_request("tools/call"))
    assert m["trace"] == "abc"
    assert m[META + "protocolVersion"] == MODERN


def test_custom_identity_and_capabilities_are_sent() -> None:
    conn, server = modern_session(client_info={"name": "probe", "version": "0"}, capabilities={})
    conn.send_request("tools/list", now=0.0)
    m = meta(server.last_request("tools/list"))
    assert m[META + "clientInfo"] == {"name": "probe", "version": "0"}
    assert m[META + "clientCapabilities"] == {}


# ----------------------------------------------------------------- discover
def test_discover_result_makes_the_session_ready() -> None:
    conn, server = started()
    result = discover_result(capabilities={"tools": {}})
    result["instructions"] = "Prefer get_weather."
    events = server.reply(server.last_request(), result)
    ready = one(events, SessionReady)
    assert ready.era is Era.MODERN
    assert ready.protocol_version == MODERN
    assert ready.server_info == {"name": "fake-modern-server", "version": "2.0.0"}
    assert ready.capabilities == {"tools": {}}
    assert ready.instructions == "Prefer get_weather."
    assert one(events, RequestCompleted).method == "server/discover"
    assert conn.state is ConnectionState.READY


def test_discover_listing_several_versions_picks_ours() -> None:
    conn, server = started()
    server.reply(server.last_request(), discover_result([MODERN, "2025-11-25", "2099-01-01"]))
    assert conn.protocol_version == MODERN


def test_discover_listing_no_modern_version_we_speak_fails() -> None:
    conn, server = started()
    events = server.reply(server.last_request(), discover_result(["2025-06-18", "2099-01-01"]))
    failed = one(events, RequestFailed)
    assert failed.kind == "protocol"
    assert "2025-06-18, 2099-01-01" in failed.message
    assert conn.state is ConnectionState.FAILED
    assert of_type(events, SessionReady) == []


def test_discover_method_not_found_goes_on_without_server_info() -> None:
    conn, server = started()
    events = server.fail(server.last_request(), METHOD_NOT_FOUND, "Method not found")
    assert one(events, RequestFailed).kind == "error"
    assert one(events, ProtocolViolation).rule == "discover"
    ready = one(events, SessionReady)
    assert ready.result is None and ready.server_info == {}
    assert conn.state is ConnectionState.READY


def test_discover_other_error_fails_the_handshake() -> None:
    conn, server = started()
    events = server.fail(server.last_request(), -32603, "database down")
    assert one(events, RequestFailed).kind == "error"
    assert conn.state is ConnectionState.FAILED
    assert conn.failure == "server/discover failed: -32603 database down"


# ------------------------------------------------------------------- -32022
def test_discover_32022_without_a_mutual_version_fails_with_the_servers_list() -> None:
    conn, server = started()
    events = server.fail(
        server.last_request(),
        UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version",
        {"supported": ["2025-06-18", "2025-11-25"], "requested": MODERN},
    )
    failed = one(events, RequestFailed)
    assert "2025-06-18, 2025-11-25" in failed.message
    assert MODERN in failed.message
    assert conn.state is ConnectionState.FAILED
    assert conn.failure is not None and "2025-06-18, 2025-11-25" in conn.failure


def test_discover_32022_retries_with_a_mutual_version() -> None:
    # We offer a future draft; the server speaks 2026-07-28, which we also speak.
    _conn, server = started(modern_version="2027-03-01")
    first = server.last_request()
    assert meta(first)[META + "protocolVersion"] == "2027-03-01"
    events = server.fail(
        first, UNSUPPORTED_PROTOCOL_VERSION, "nope", {"supported": [MODERN], "requested": "x"}
    )
    renegotiated = one(events, VersionRenegotiated)
    assert (renegotiated.old, renegotiated.new) == ("2027-03-01", MODERN)
    retry = server.last_request()
    assert retry.method == "server/discover"
    assert retry.id != first.id
    assert meta(retry)[META + "protocolVersion"] == MODERN
    events = server.reply(retry, discover_result())
    assert one(events, RequestCompleted).rounds == 2
    assert one(events, SessionReady).protocol_version == MODERN


def pinned_without_discover(version: str = "2027-03-01") -> tuple[ClientConnection, FakeServer]:
    """Modern, offering `version`, with a server that skips discover (-32601)."""
    conn, server = started(modern_version=version)
    server.fail(server.last_request(), METHOD_NOT_FOUND, "no discover")
    assert conn.state is ConnectionState.READY
    server.take()
    return conn, server


def test_request_32022_retries_under_a_new_id_with_the_mutual_version() -> None:
    conn, server = pinned_without_discover()
    key = conn.send_request("tools/call", {"name": "echo"}, now=0.0)
    first = server.last_request("tools/call")
    events = server.fail(
        first,
        UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version",
        {"supported": ["2025-11-25", MODERN], "requested": "2027-03-01"},
    )
    assert one(events, VersionRenegotiated).new == MODERN
    assert of_type(events, RequestFailed) == []
    retry = server.last_request("tools/call")
    assert retry.id != first.id
    assert meta(retry)[META + "protocolVersion"] == MODERN
    assert retry.params is not None and retry.params["name"] == "echo"
    done = one(server.reply(retry, {"content": []}), RequestCompleted)
    assert (done.key, done.rounds, done.wire_id) == (key, 2, retry.id)
    # Later requests use the agreed version at once.
    conn.send_request("tools/list", now=0.0)
    assert meta(server.last_request("tools/list"))[META + "protocolVersion"] == MODERN


@pytest.mark.parametrize(
    ("data", "listed"),
    [
        ({"supported": ["2025-06-18"], "requested": MODERN}, "2025-06-18"),
        (None, "no list given"),
        ({"supported": "2026-07-28"}, "no list given"),
    ],
)
def test_request_32022_without_a_mutual_version_fails(data: Any, listed: str) -> None:
    conn, server = modern_session()
    key = conn.send_request("tools/list", now=0.0)
    events = server.fail(server.last_request(), UNSUPPORTED_PROTOCOL_VERSION, "no", data)
    failed = one(events, RequestFailed)
    assert failed.key == key
    assert failed.kind == "error"
    assert f"does not support protocol version {MODERN}" in failed.message
    assert f"(it supports: {listed})" in failed.message
    assert len(server.requests("tools/list")) == 1  # no retry with the same version


# --------------------------------------------------------------- resultType
def test_missing_result_type_counts_as_complete() -> None:
    conn, server = modern_session()
    conn.send_request("tools/list", now=0.0)
    events = server.reply(server.last_request(), {"tools": []})
    assert one(events, RequestCompleted).result == {"tools": []}
    assert of_type(events, ProtocolViolation) == []


def test_complete_result_type() -> None:
    conn, server = modern_session()
    conn.send_request("tools/list", now=0.0)
    events = server.reply(server.last_request(), {"resultType": "complete", "tools": []})
    assert one(events, RequestCompleted).result["tools"] == []


def test_unknown_result_type_is_flagged_but_completed() -> None:
    conn, server = modern_session()
    conn.send_request("tools/call", {"name": "x"}, now=0.0)
    events = server.reply(server.last_request(), {"resultType": "pending", "content": []})
    violation = one(events, ProtocolViolation)
    assert violation.rule == "resultType"
    assert "'pending'" in violation.message
    assert one(events, RequestCompleted).result["resultType"] == "pending"


def test_no_requests_while_discovering() -> None:
    conn, server = started()
    with pytest.raises(Exception, match="before the handshake completes"):
        conn.send_request("tools/list", now=0.0)
    assert server.requests("tools/list") == []


def test_scripted_modern_round_trip() -> None:
    conn, server = modern_session()
    server.on("tools/list", {"resultType": "complete", "tools": [{"name": "a"}]})
    server.on("tools/call", error(-32602, "Unknown tool"))
    conn.send_request("tools/list", now=0.0)
    conn.send_request("tools/call", {"name": "zzz"}, now=0.0)
    events = server.step()
    assert one(events, RequestCompleted).result["tools"] == [{"name": "a"}]
    assert one(events, RequestFailed).message == "tools/call failed: -32602 Unknown tool"
