"""Auto era: probe with server/discover, fall back to initialize when the server is legacy."""

from __future__ import annotations

import pytest

from inspector.protocol.machine.connection import ClientConfig, ClientConnection, ConnectionState
from inspector.protocol.machine.events import (
    LateResponse,
    RequestCompleted,
    RequestFailed,
    SessionReady,
    UnmatchedResponse,
    VersionRenegotiated,
)
from inspector.protocol.wire.jsonrpc import (
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    UNSUPPORTED_PROTOCOL_VERSION,
)
from inspector.protocol.wire.versions import Era, EraSetting
from tests.helpers.fake_server import (
    LEGACY,
    META,
    MODERN,
    FakeServer,
    discover_result,
    initialize_result,
    of_type,
    one,
)


def probing(**config: object) -> tuple[ClientConnection, FakeServer]:
    conn = ClientConnection(ClientConfig(era=EraSetting.AUTO, **config))  # type: ignore[arg-type]
    server = FakeServer(conn)
    conn.start(server.now)
    return conn, server


def test_auto_probes_with_discover() -> None:
    conn, server = probing()
    assert conn.state is ConnectionState.PROBING
    discover = server.last_request()
    assert discover.method == "server/discover"
    assert discover.params is not None
    assert discover.params["_meta"][META + "protocolVersion"] == MODERN
    assert server.requests("initialize") == []


def test_discover_success_means_modern() -> None:
    conn, server = probing()
    events = server.reply(server.last_request(), discover_result())
    ready = one(events, SessionReady)
    assert ready.era is Era.MODERN
    assert conn.era is Era.MODERN
    assert server.requests("initialize") == []
    assert of_type(events, VersionRenegotiated) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [(METHOD_NOT_FOUND, "Method not found"), (INVALID_REQUEST, "Server not initialized")],
)
def test_discover_error_falls_back_to_initialize(code: int, message: str) -> None:
    conn, server = probing()
    events = server.fail(server.last_request(), code, message)
    switch = one(events, VersionRenegotiated)
    assert (switch.old, switch.new) == (MODERN, LEGACY)
    assert f"{code} {message}" in switch.reason
    assert "initialize" in switch.reason
    # The probe is not reported as a failed user request.
    assert of_type(events, RequestFailed) == []
    assert conn.state is ConnectionState.INITIALIZING
    init = server.last_request("initialize")
    assert init.params is not None and init.params["protocolVersion"] == LEGACY
    assert "_meta" not in init.params
    ready = one(server.reply(init, initialize_result("2025-06-18")), SessionReady)
    assert ready.era is Era.LEGACY
    assert ready.protocol_version == "2025-06-18"
    assert server.notifications("notifications/initialized")


def test_discover_32022_listing_only_legacy_versions_falls_back() -> None:
    conn, server = probing()
    events = server.fail(
        server.last_request(),
        UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version",
        {"supported": ["2025-11-25"], "requested": MODERN},
    )
    assert one(events, VersionRenegotiated).new == LEGACY
    assert conn.state is ConnectionState.INITIALIZING


def test_discover_result_without_a_modern_version_falls_back() -> None:
    _conn, server = probing()
    events = server.reply(server.last_request(), discover_result(["2025-11-25"]))
    switch = one(events, VersionRenegotiated)
    assert "2025-11-25" in switch.reason
    assert of_type(events, SessionReady) == []
    assert server.last_request().method == "initialize"


def test_discover_timeout_falls_back_after_the_probe_timeout() -> None:
    conn, server = probing(auto_probe_timeout=2.5)
    assert conn.next_deadline() == 2.5
    assert server.advance(2.4) == []
    events = server.advance(0.1)
    switch = one(events, VersionRenegotiated)
    assert "no answer" in switch.reason
    assert of_type(events, RequestFailed) == []
    assert server.last_request().method == "initialize"
    # A server that may be legacy gets no notification before initialize.
    assert server.notifications() == []


def test_late_discover_response_after_fallback_is_reported_not_a_crash() -> None:
    conn, server = probing()
    discover = server.last_request()
    server.run_to_deadline()
    events = server.reply(discover, discover_result())
    late = one(events, LateResponse)
    assert late.wire_id == discover.id
    assert late.method == "server/discover"
    assert conn.state is ConnectionState.INITIALIZING
    assert conn.era is Era.LEGACY
    # And the handshake goes on as legacy.
    events = server.reply(server.last_request("initialize"), initialize_result())
    assert one(events, SessionReady).era is Era.LEGACY


def test_late_discover_error_after_fallback_is_late_too() -> None:
    _, server = probing()
    discover = server.last_request()
    server.run_to_deadline()
    events = server.fail(discover, METHOD_NOT_FOUND, "Method not found")
    assert one(events, LateResponse).wire_id == discover.id


def test_second_discover_answer_after_error_fallback_is_a_duplicate() -> None:
    _, server = probing()
    discover = server.last_request()
    server.fail(discover, METHOD_NOT_FOUND, "Method not found")
    events = server.reply(discover, discover_result())
    assert one(events, UnmatchedResponse).reason == "duplicate"


def test_initialize_after_fallback_uses_the_request_timeout() -> None:
    conn, server = probing(auto_probe_timeout=1.0, request_timeout=30.0)
    server.run_to_deadline()
    assert conn.next_deadline() == pytest.approx(31.0)


def test_ping_from_a_legacy_server_while_probing_is_answered() -> None:
    _, server = probing()
    rid, _ = server.ask("ping")
    assert [r.id for r in server.responses()] == [rid]


def test_auto_with_scripts_end_to_end() -> None:
    conn = ClientConnection(ClientConfig(era=EraSetting.AUTO))
    server = FakeServer(conn)
    server.on("server/discover", lambda req: None)  # an old server stays silent
    server.on("initialize", initialize_result("2024-11-05"))
    server.start()
    assert conn.state is ConnectionState.PROBING
    events = server.run_to_deadline() + server.step()
    assert one(events, SessionReady).protocol_version == "2024-11-05"
    conn.send_request("tools/list", now=server.now)
    server.on("tools/list", {"tools": []})
    assert one(server.step(), RequestCompleted).method == "tools/list"


@pytest.mark.parametrize("code", [-32020, -32021])
def test_auto_does_not_fall_back_on_a_recognised_modern_error(code: int) -> None:
    """spec 2026-07-28 backward compatibility: a modern error means a modern server."""
    from inspector.protocol.wire.jsonrpc import ErrorResponse as _Err

    conn = ClientConnection(ClientConfig(era=EraSetting.AUTO))
    conn.start(0.0)
    (probe,) = conn.data_to_send()
    assert probe.method == "server/discover"  # type: ignore[union-attr]
    events = conn.receive(_Err(probe.id, code, "refused"), 0.1)  # type: ignore[union-attr]
    assert conn.state is ConnectionState.FAILED
    assert "not falling back" in (conn.failure or "")
    assert not any(getattr(m, "method", None) == "initialize" for m in conn.data_to_send())
    assert events


def test_a_modern_server_slow_to_answer_the_probe_is_asked_discover_again() -> None:
    """A modern server slow to start (an npx first run) answers the probe after it timed out,
    then refuses initialize with -32022 listing its modern version: discover again, not fail."""
    conn, server = probing(auto_probe_timeout=1.0, request_timeout=30.0)
    server.run_to_deadline()  # the probe got no answer in time: initialize
    init = server.last_request("initialize")
    events = server.fail(
        init, UNSUPPORTED_PROTOCOL_VERSION, "serving 2026-07-28", data={"supported": [MODERN]}
    )
    switch = one(events, VersionRenegotiated)
    assert (switch.old, switch.new) == (LEGACY, MODERN)
    assert "-32022" in switch.reason and "server/discover" in switch.reason
    assert of_type(events, RequestFailed) == []
    assert conn.state is ConnectionState.DISCOVERING
    again = server.last_request()
    assert again.method == "server/discover"
    assert conn.next_deadline() == pytest.approx(server.now + 30.0)
    ready = one(server.reply(again, discover_result()), SessionReady)
    assert ready.era is Era.MODERN


def test_initialize_refused_with_only_legacy_versions_still_fails() -> None:
    conn, server = probing(auto_probe_timeout=1.0)
    server.run_to_deadline()
    init = server.last_request("initialize")
    server.fail(init, UNSUPPORTED_PROTOCOL_VERSION, "no", data={"supported": ["2024-11-05"]})
    assert conn.state is ConnectionState.FAILED
