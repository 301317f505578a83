"""Capability gating: refuse what the server or the version lacks, unless overridden."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.protocol.machine.connection import ClientConfig, ClientConnection
from inspector.protocol.wire.errors import CapabilityNotDeclared, LocalProtocolError
from inspector.protocol.wire.jsonrpc import METHOD_NOT_FOUND
from inspector.protocol.wire.versions import EraSetting
from tests.helpers.fake_server import FakeServer, legacy_session, modern_session

NO_TOOLS: dict[str, Any] = {"resources": {}, "prompts": {}}


@pytest.mark.parametrize("session", [legacy_session, modern_session])
@pytest.mark.parametrize("method", ["tools/list", "tools/call"])
def test_tools_without_the_tools_capability(session: Any, method: str) -> None:
    conn, server = session(server_capabilities=NO_TOOLS)
    with pytest.raises(CapabilityNotDeclared) as info:
        conn.send_request(method, {"name": "x"}, now=0.0)
    err = info.value
    assert (err.method, err.capability) == (method, "tools")
    assert str(err) == (
        f"the server did not declare the 'tools' capability needed for {method} "
        "(send anyway with the capability override)"
    )
    assert isinstance(err, LocalProtocolError)
    assert server.requests(method) == []
    assert conn.pending_count == 0


@pytest.mark.parametrize("session", [legacy_session, modern_session])
def test_override_sends_anyway(session: Any) -> None:
    conn, server = session(server_capabilities=NO_TOOLS)
    key = conn.send_request("tools/list", now=0.0, override=True)
    assert server.last_request("tools/list")
    assert conn.pending_method(key) == "tools/list"


@pytest.mark.parametrize(
    ("caps", "allowed"),
    [
        ({"resources": {}}, False),
        ({"resources": {"subscribe": False}}, False),
        ({"resources": {"subscribe": None}}, False),
        ({"resources": {"subscribe": True}}, True),
        ({}, False),
    ],
)
def test_subscribe_needs_resources_subscribe(caps: dict[str, Any], allowed: bool) -> None:
    conn, server = legacy_session(server_capabilities=caps)
    if allowed:
        conn.send_request("resources/subscribe", {"uri": "file:///a"}, now=0.0)
        assert server.last_request("resources/subscribe")
    else:
        with pytest.raises(CapabilityNotDeclared, match=r"'resources\.subscribe'"):
            conn.send_request("resources/subscribe", {"uri": "file:///a"}, now=0.0)


def test_set_level_needs_logging_in_legacy() -> None:
    conn, _ = legacy_session(server_capabilities={"tools": {}})
    with pytest.raises(CapabilityNotDeclared, match="'logging'"):
        conn.send_request("logging/setLevel", {"level": "debug"}, now=0.0)


def test_completions_capability_is_only_checked_where_it_exists() -> None:
    # 2024-11-05 had no completions capability: completion/complete is not gated.
    old, server = legacy_session("2024-11-05", server_capabilities={"prompts": {}})
    old.send_request("completion/complete", {}, now=0.0)
    assert server.last_request("completion/complete")
    new, _ = legacy_session("2025-03-26", server_capabilities={"prompts": {}})
    with pytest.raises(CapabilityNotDeclared, match="'completions'"):
        new.send_request("completion/complete", {}, now=0.0)


def test_declared_capabilities_allow_the_method() -> None:
    conn, server = legacy_session(server_capabilities={"prompts": {"listChanged": True}})
    conn.send_request("prompts/list", now=0.0)
    assert server.last_request("prompts/list")


# ---------------------------------------------------------- not in this version
@pytest.mark.parametrize(
    "method", ["logging/setLevel", "initialize", "resources/subscribe", "ping"]
)
def test_legacy_methods_are_refused_in_modern(method: str) -> None:
    conn, server = modern_session()
    with pytest.raises(
        LocalProtocolError, match=f"{method} is not a client request in protocol version 2026-07-28"
    ):
        conn.send_request(method, {}, now=0.0)
    assert server.requests(method) == []


@pytest.mark.parametrize("method", ["subscriptions/listen", "server/discover"])
def test_modern_methods_are_refused_in_legacy(method: str) -> None:
    conn, _ = legacy_session()
    with pytest.raises(LocalProtocolError, match="not a client request in protocol version"):
        conn.send_request(method, {}, now=0.0)


def test_tasks_exist_only_from_2025_11_25() -> None:
    conn, _ = legacy_session("2025-06-18")
    with pytest.raises(LocalProtocolError, match="2025-06-18"):
        conn.send_request("tasks/list", now=0.0)
    conn, server = legacy_session("2025-11-25")
    conn.send_request("tasks/list", now=0.0)
    assert server.last_request("tasks/list")


@pytest.mark.parametrize(
    ("session", "method"),
    [(modern_session, "logging/setLevel"), (legacy_session, "subscriptions/listen")],
)
def test_override_sends_a_method_of_another_version(session: Any, method: str) -> None:
    conn, server = session()
    conn.send_request(method, {}, now=0.0, override=True)
    assert server.last_request(method)


def test_unknown_method_is_refused_unless_overridden() -> None:
    conn, server = legacy_session()
    with pytest.raises(LocalProtocolError, match="vendor/frobnicate"):
        conn.send_request("vendor/frobnicate", now=0.0)
    conn.send_request("vendor/frobnicate", now=0.0, override=True)
    assert server.last_request("vendor/frobnicate")


def test_no_gating_when_the_server_never_said_what_it_offers() -> None:
    # A modern server without server/discover declared nothing; we cannot gate on that.
    conn = ClientConnection(ClientConfig(era=EraSetting.MODERN))
    server = FakeServer(conn)
    conn.start(0.0)
    server.fail(server.last_request(), METHOD_NOT_FOUND, "no discover")
    conn.send_request("tools/list", now=0.0)
    assert server.last_request("tools/list")


def test_override_does_not_bypass_the_lifecycle() -> None:
    conn = ClientConnection()
    conn.start(0.0)
    with pytest.raises(LocalProtocolError, match="before the handshake completes"):
        conn.send_request("tools/list", now=0.0, override=True)
