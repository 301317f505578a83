"""The conformance client's own pieces (fast, no Node), and the protocol behaviour the
suite's request-metadata scenario relies on: a -32022 that lists the version we sent is
retried once with that version."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.conformance.client import (
    SCENARIOS,
    ConformanceResponder,
    Scenario,
    config_for,
    elicitation_content,
    sample_arguments,
    scenario_from_env,
)
from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.machine.connection import ClientConfig, ClientConnection, ConnectionState
from inspector.protocol.machine.events import RequestCompleted, RequestFailed, VersionRenegotiated
from inspector.protocol.wire.jsonrpc import UNSUPPORTED_PROTOCOL_VERSION
from inspector.protocol.wire.versions import Era, EraSetting
from tests.conformance.evaluate import parse_expected, parse_list
from tests.helpers.fake_server import META, MODERN, FakeServer, discover_result, modern_session, one

# ----------------------------------------------------------------- -32022 retry


def _refuse(server: FakeServer, method: str) -> list[Any]:
    return server.fail(
        server.last_request(method),
        UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version",
        {"supported": [MODERN], "requested": MODERN},
    )


def test_discover_32022_listing_our_version_is_retried_once_with_it() -> None:
    conn = ClientConnection(ClientConfig(era=EraSetting.MODERN))
    server = FakeServer(conn)
    conn.start(server.now)
    first = server.last_request("server/discover")
    renegotiated = one(_refuse(server, "server/discover"), VersionRenegotiated)
    assert (renegotiated.old, renegotiated.new) == (MODERN, MODERN)
    retry = server.last_request("server/discover")
    assert retry.id != first.id
    assert retry.params is not None
    assert retry.params["_meta"][META + "protocolVersion"] == MODERN
    events = server.reply(retry, discover_result())
    assert one(events, RequestCompleted).rounds == 2
    assert conn.state is ConnectionState.READY


def test_discover_32022_listing_our_version_twice_fails() -> None:
    conn = ClientConnection(ClientConfig(era=EraSetting.MODERN))
    server = FakeServer(conn)
    conn.start(server.now)
    _refuse(server, "server/discover")
    events = _refuse(server, "server/discover")
    assert one(events, RequestFailed).kind == "error"
    assert conn.state is ConnectionState.FAILED
    assert len(server.requests("server/discover")) == 2


def test_request_32022_listing_our_version_is_retried_once_then_fails() -> None:
    conn, server = modern_session()
    key = conn.send_request("tools/list", now=0.0)
    first = server.last_request("tools/list")
    one(_refuse(server, "tools/list"), VersionRenegotiated)
    retry = server.last_request("tools/list")
    assert retry.id != first.id
    failed = one(_refuse(server, "tools/list"), RequestFailed)
    assert failed.key == key
    assert len(server.requests("tools/list")) == 2
    # A later request gets its own single retry.
    conn.send_request("tools/list", now=0.0)
    one(_refuse(server, "tools/list"), VersionRenegotiated)


# ----------------------------------------------------------------- the client
def test_era_follows_the_protocol_version() -> None:
    modern = config_for(Scenario("tools_call", "http://x/mcp", "2026-07-28"))
    assert (modern.era, modern.modern_version) == (EraSetting.MODERN, "2026-07-28")
    legacy = config_for(Scenario("initialize", "http://x", "2025-06-18"))
    assert (legacy.era, legacy.legacy_version) == (EraSetting.LEGACY, "2025-06-18")


def test_scenario_from_env() -> None:
    env = {
        "MCP_CONFORMANCE_SCENARIO": "http-custom-headers",
        "MCP_CONFORMANCE_PROTOCOL_VERSION": "2026-07-28",
        "MCP_CONFORMANCE_CONTEXT": json.dumps({"name": "x", "toolCalls": [{"name": "t"}]}),
    }
    scenario = scenario_from_env("http://localhost:1/mcp", env)
    assert scenario.era is Era.MODERN
    assert scenario.context["toolCalls"] == [{"name": "t"}]
    bare = scenario_from_env("http://localhost:1", {})
    assert (bare.name, bare.protocol_version, bare.context) == ("", "2025-11-25", {})


def test_elicitation_applies_every_default_and_fills_required_fields() -> None:
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "score": {"type": "number", "default": 95.5},
            "status": {"type": "string", "enum": ["a", "b"], "default": "a"},
            "verified": {"type": "boolean", "default": True},
            "must": {"type": "boolean"},
            "optional": {"type": "string"},
        },
        "required": ["must"],
    }
    assert elicitation_content(schema) == {
        "name": "John Doe",
        "age": 30,
        "score": 95.5,
        "status": "a",
        "verified": True,
        "must": True,
    }


async def test_responder_accepts_elicitation_and_answers_sampling_and_roots() -> None:
    responder = ConformanceResponder()

    def ask(kind: Any, method: str, params: dict[str, Any]) -> ServerAsk:
        return ServerAsk(1, kind, method, params, Era.LEGACY, wire_id=1)

    elicit = await responder.respond(
        ask("elicitation", "elicitation/create", {"requestedSchema": {"properties": {}}})
    )
    assert elicit == {"action": "accept", "content": {}}
    sampled = await responder.respond(ask("sampling", "sampling/createMessage", {}))
    assert sampled["role"] == "assistant" and sampled["content"]["type"] == "text"
    assert await responder.respond(ask("roots", "roots/list", {})) == {"roots": []}


def test_sample_arguments_cover_required_properties() -> None:
    schema = {
        "type": "object",
        "properties": {"region": {"type": "string"}, "n": {"type": "integer"}, "x": {}},
        "required": ["region", "n"],
    }
    assert sample_arguments(schema) == {"region": "conformance", "n": 0}


@pytest.mark.parametrize(
    "name",
    [
        "initialize",
        "tools_call",
        "elicitation-sep1034-client-defaults",
        "sse-retry",
        "request-metadata",
        "sep-2322-client-request-state",
        "http-standard-headers",
        "http-custom-headers",
        "http-invalid-tool-headers",
        "json-schema-ref-no-deref",
        "json-schema-2020-12-preservation",
    ],
)
def test_every_non_auth_scenario_has_steps(name: str) -> None:
    assert name in SCENARIOS


# ----------------------------------------------------------------- the evaluator
def test_evaluator_reads_the_suites_list_and_our_expected_failures(tmp_path: Any) -> None:
    listing = """Required for 2026-07-28 (3 scenarios, frozen; run at the 2026-07-28 wire):

Server scenarios (test against a server):
  - server-stateless

Client scenarios (test against a client):
  - tools_call
  - auth/metadata-default

Run and reported, but never scored:
  extension (1):
    - auth/dpop [client]
  pending (1):
    - json-schema-2020-12 [server]
"""
    assert parse_list(listing) == {
        "tools_call": True,
        "auth/metadata-default": True,
        "auth/dpop": False,
    }
    expected = tmp_path / "x.txt"
    expected.write_text("# c\nauth/dpop  # why\nsse-retry@2025-11-25\n\n", encoding="utf-8")
    assert parse_expected(expected, "2026-07-28") == {"auth/dpop"}
    assert parse_expected(expected, "2025-11-25") == {"auth/dpop", "sse-retry"}
