"""The client entry point for the official MCP conformance suite.

    python -m inspector.conformance URL

The suite (npm `@modelcontextprotocol/conformance`) starts a mock server per scenario and
runs this with the server's URL as the last argument. The environment says what to do:

* `MCP_CONFORMANCE_SCENARIO`: the scenario name;
* `MCP_CONFORMANCE_PROTOCOL_VERSION`: the wire version. 2026-07-28 (and later) is the modern
  era (server/discover, `_meta` on every request); an older one is offered in `initialize`;
* `MCP_CONFORMANCE_CONTEXT`: optional JSON with scenario data (e.g. the tool calls to make).

Everything goes through the real `ServerConnection` API over the HTTP transport, with a `Responder`
answering sampling, elicitation and roots. The exit code is 0 when the scenario's steps all
worked, 1 otherwise; logs (and the traffic) go to stderr, which the suite saves per scenario.
See docs/notes/conformance.md for what each scenario checks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.conformance.auth import oauth_for_scenario
from inspector.core.server_connection import ServerConnection, SessionError
from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.wire.versions import LATEST_LEGACY, Era, EraSetting, era_of
from inspector.traffic.record import TrafficRecord
from inspector.transports.factory import http_transport

__all__ = [
    "SCENARIOS",
    "ConformanceResponder",
    "Scenario",
    "config_for",
    "elicitation_content",
    "main",
    "run_scenario",
]

log = logging.getLogger("inspector.conformance")

# The suite kills the client after 30 s by default; give up a little earlier so the
# failure is ours and explained in stderr.txt.
DEFAULT_DEADLINE: Final = 25.0
REQUEST_TIMEOUT: Final = 20.0


@dataclass(frozen=True)
class Scenario:
    """What the runner told us."""

    name: str
    url: str
    protocol_version: str
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def era(self) -> Era:
        return era_of(self.protocol_version)


class ScenarioFailed(Exception):
    """A step of the scenario did not give what the scenario needs."""


# ----------------------------------------------------------------------- responder
def _placeholder(schema: Any) -> Any:
    """A value of the property's type, for required fields that have no default."""
    kind = schema.get("type") if isinstance(schema, dict) else None
    if isinstance(schema, dict):
        for key in ("enum", "examples"):
            values = schema.get(key)
            if isinstance(values, list) and values:
                return values[0]
        one_of = schema.get("oneOf")
        if (
            isinstance(one_of, list)
            and one_of
            and isinstance(one_of[0], dict)
            and "const" in one_of[0]
        ):
            return one_of[0]["const"]
    if kind == "boolean":
        return True
    if kind == "integer":
        return int(schema.get("minimum", 0)) if isinstance(schema, dict) else 0
    if kind == "number":
        return schema.get("minimum", 0) if isinstance(schema, dict) else 0
    if kind == "array":
        return []
    return "conformance"


def elicitation_content(requested_schema: Any) -> dict[str, Any]:
    """Accept-content for a form elicitation: every default applied (SEP-1034), and a
    placeholder for required fields without one."""
    if not isinstance(requested_schema, dict):
        return {}
    props = requested_schema.get("properties")
    required = requested_schema.get("required")
    required_names = set(required) if isinstance(required, list) else set()
    content: dict[str, Any] = {}
    if not isinstance(props, dict):
        return content
    for name, prop in props.items():
        if isinstance(prop, dict) and "default" in prop:
            content[name] = prop["default"]
        elif name in required_names:
            content[name] = _placeholder(prop)
    return content


class ConformanceResponder:
    """Answers every server ask the way the scenarios expect: accept elicitations (with the
    schema's defaults), return a canned sampling result, list no roots."""

    def __init__(self) -> None:
        self.asks: list[ServerAsk] = []

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        self.asks.append(ask)
        log.info("server ask: %s (%s)", ask.method, ask.origin)
        if ask.kind == "elicitation":
            if ask.elicitation_mode == "url":
                return {"action": "accept"}
            return {
                "action": "accept",
                "content": elicitation_content(ask.params.get("requestedSchema")),
            }
        if ask.kind == "sampling":
            return {
                "role": "assistant",
                "content": {"type": "text", "text": "A canned answer from the conformance client."},
                "model": "mcp-inspector-qt-conformance",
                "stopReason": "endTurn",
            }
        return {"roots": []}


# ----------------------------------------------------------------------- session
def config_for(scenario: Scenario) -> ClientConfig:
    """The era follows the version: 2026-07-28 and later are modern; older ones are offered
    in `initialize` as they are."""
    config = ClientConfig(request_timeout=REQUEST_TIMEOUT)
    if scenario.era is Era.MODERN:
        config.era = EraSetting.MODERN
        config.modern_version = scenario.protocol_version
    else:
        config.era = EraSetting.LEGACY
        config.legacy_version = scenario.protocol_version
    return config


def _log_traffic(record: TrafficRecord) -> None:
    if record.kind == "http" and record.http is not None:
        ex = record.http
        log.info("http %s %s -> %s %s", ex.method, ex.url, ex.status, ex.note or "")
        return
    raw = record.raw if isinstance(record.raw, str) else repr(record.raw)
    note = f"  [{record.note}]" if record.note else ""
    log.info("%s %s %s%s", record.direction or "--", record.kind, raw[:2000], note)


def open_session(scenario: Scenario, responder: ConformanceResponder) -> ServerConnection:
    auth = (
        oauth_for_scenario(scenario.name, scenario.url, scenario.context)
        if scenario.name.startswith("auth/")
        else None
    )
    transport = http_transport(scenario.url, kind="auto", auth=auth)
    session = ServerConnection(transport, config_for(scenario), responder)
    session.add_traffic_observer(_log_traffic)
    return session


# ----------------------------------------------------------------------- scenarios
Step = Callable[[ServerConnection, Scenario], Awaitable[None]]


def _tool_names(tools: Sequence[dict[str, Any]]) -> list[str]:
    return [str(t.get("name")) for t in tools]


def _find_tool(tools: Sequence[dict[str, Any]], name: str) -> dict[str, Any]:
    for tool in tools:
        if tool.get("name") == name:
            return tool
    raise ScenarioFailed(f"the server lists no tool {name!r} (it lists {_tool_names(tools)})")


def sample_arguments(input_schema: Any) -> dict[str, Any]:
    """Arguments for a tool: a placeholder for every required property."""
    if not isinstance(input_schema, dict):
        return {}
    props = input_schema.get("properties")
    required = input_schema.get("required")
    if not isinstance(props, dict) or not isinstance(required, list):
        return {}
    return {name: _placeholder(props.get(name)) for name in required if name in props}


async def _call(session: ServerConnection, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await session.call_tool(name, arguments)
    log.info("tools/call %s -> %s", name, json.dumps(result)[:500])
    return result


async def step_connect_only(session: ServerConnection, scenario: Scenario) -> None:
    """initialize: the handshake is what is checked."""


async def step_tools_call(session: ServerConnection, scenario: Scenario) -> None:
    tools = await session.list_tools()
    _find_tool(tools, "add_numbers")
    result = await _call(session, "add_numbers", {"a": 5, "b": 3})
    if result.get("isError"):
        raise ScenarioFailed(f"add_numbers returned an error: {result}")


async def step_elicitation_defaults(session: ServerConnection, scenario: Scenario) -> None:
    tools = await session.list_tools()
    _find_tool(tools, "test_client_elicitation_defaults")
    await _call(session, "test_client_elicitation_defaults", {})


async def step_sse_retry(session: ServerConnection, scenario: Scenario) -> None:
    tools = await session.list_tools()
    _find_tool(tools, "test_reconnection")
    await _call(session, "test_reconnection", {})


async def step_request_metadata(session: ServerConnection, scenario: Scenario) -> None:
    # The handshake (server/discover, rejected once with -32022) carries the checks; one
    # more request shows the agreed version is kept. The server declares no capabilities,
    # so tools/list goes out with the override.
    await session.request("tools/list", {}, override=True)


async def step_mrtr(session: ServerConnection, scenario: Scenario) -> None:
    tools = await session.list_tools()
    for name in (
        "test_mrtr_echo_state",
        "test_mrtr_no_state",
        "test_mrtr_unrelated",
        "test_mrtr_no_result_type",
    ):
        _find_tool(tools, name)
    # The unrelated call runs while the echo-state request is between its rounds.
    echo = asyncio.ensure_future(_call(session, "test_mrtr_echo_state", {}))
    unrelated = asyncio.ensure_future(_call(session, "test_mrtr_unrelated", {}))
    await asyncio.gather(echo, unrelated)
    await _call(session, "test_mrtr_no_state", {})
    await _call(session, "test_mrtr_no_result_type", {})


async def step_standard_headers(session: ServerConnection, scenario: Scenario) -> None:
    caps = session.server_capabilities
    if "tools" in caps:
        for tool in await session.list_tools():
            await _call(session, str(tool["name"]), sample_arguments(tool.get("inputSchema")))
    if "resources" in caps:
        for resource in await session.list_resources():
            await session.read_resource(str(resource["uri"]))
    if "prompts" in caps:
        for prompt in await session.list_prompts():
            await session.get_prompt(str(prompt["name"]))


async def step_custom_headers(session: ServerConnection, scenario: Scenario) -> None:
    calls = scenario.context.get("toolCalls")
    if not isinstance(calls, list) or not calls:
        raise ScenarioFailed("MCP_CONFORMANCE_CONTEXT has no toolCalls")
    tools = await session.list_tools()
    for call in calls:
        name = str(call.get("name"))
        _find_tool(tools, name)
        arguments = call.get("arguments")
        await _call(session, name, arguments if isinstance(arguments, dict) else {})


async def step_invalid_tool_headers(session: ServerConnection, scenario: Scenario) -> None:
    # Over modern HTTP the session leaves out tools whose x-mcp-header annotations are
    # invalid (spec 2026-07-28); call every tool it kept.
    tools = await session.list_tools()
    for name, why in sorted(session.excluded_tools.items()):
        log.info("excluded by the session: %s (%s)", name, why)
    if not tools:
        raise ScenarioFailed("the session kept no tool to call")
    for tool in tools:
        await _call(session, str(tool["name"]), sample_arguments(tool.get("inputSchema")))


async def step_list_tools(session: ServerConnection, scenario: Scenario) -> None:
    tools = await session.list_tools()
    log.info("tools: %s", _tool_names(tools))


async def step_schema_preservation(session: ServerConnection, scenario: Scenario) -> None:
    tools = await session.list_tools()
    focal = _find_tool(tools, "json_schema_2020_12_tool")
    _find_tool(tools, "json_schema_echo")
    await _call(session, "json_schema_echo", {"schema": focal.get("inputSchema")})


async def step_generic(session: ServerConnection, scenario: Scenario) -> None:
    """Auth scenarios and anything unknown: list the tools and call the first one."""
    tools = await session.list_tools() if "tools" in session.server_capabilities else []
    if tools:
        first = tools[0]
        await _call(session, str(first["name"]), sample_arguments(first.get("inputSchema")))


SCENARIOS: Final[dict[str, Step]] = {
    "initialize": step_connect_only,
    "tools_call": step_tools_call,
    "elicitation-sep1034-client-defaults": step_elicitation_defaults,
    "sse-retry": step_sse_retry,
    "request-metadata": step_request_metadata,
    "sep-2322-client-request-state": step_mrtr,
    "http-standard-headers": step_standard_headers,
    "http-custom-headers": step_custom_headers,
    "http-invalid-tool-headers": step_invalid_tool_headers,
    "json-schema-ref-no-deref": step_list_tools,
    "json-schema-2020-12-preservation": step_schema_preservation,
}


async def run_scenario(scenario: Scenario, *, deadline: float = DEFAULT_DEADLINE) -> None:
    """Connect, run the scenario's steps, close. Raises on failure."""
    step = SCENARIOS.get(scenario.name, step_generic)
    responder = ConformanceResponder()
    session = open_session(scenario, responder)
    log.info(
        "scenario %s, protocol %s (%s era), server %s",
        scenario.name or "(none)",
        scenario.protocol_version,
        scenario.era,
        scenario.url,
    )

    async def body() -> None:
        ready = await session.connect()
        log.info(
            "connected: %s %s, server %s, capabilities %s",
            ready.era,
            ready.protocol_version,
            ready.server_info,
            ready.capabilities,
        )
        await step(session, scenario)

    try:
        await asyncio.wait_for(body(), deadline)
    except TimeoutError:
        raise ScenarioFailed(f"the scenario did not finish within {deadline:g} s") from None
    finally:
        await session.close()


# ----------------------------------------------------------------------- entry point
def scenario_from_env(url: str, env: dict[str, str] | None = None) -> Scenario:
    env = dict(os.environ) if env is None else env
    raw_context = env.get("MCP_CONFORMANCE_CONTEXT") or "{}"
    try:
        context = json.loads(raw_context)
    except ValueError as exc:
        raise ScenarioFailed(f"MCP_CONFORMANCE_CONTEXT is not JSON: {exc}") from exc
    return Scenario(
        name=env.get("MCP_CONFORMANCE_SCENARIO", ""),
        url=url,
        protocol_version=env.get("MCP_CONFORMANCE_PROTOCOL_VERSION") or LATEST_LEGACY,
        context=context if isinstance(context, dict) else {},
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m inspector.conformance",
        description="The client under test for the official MCP conformance suite.",
    )
    parser.add_argument("url", help="the mock server URL (appended by the suite)")
    parser.add_argument("--deadline", type=float, default=DEFAULT_DEADLINE)
    ns = parser.parse_args(argv)
    logging.basicConfig(
        stream=sys.stderr,
        level=os.environ.get("INSPECTOR_CONFORMANCE_LOG", "INFO").upper(),
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    try:
        scenario = scenario_from_env(ns.url)
        asyncio.run(run_scenario(scenario, deadline=ns.deadline))
    except (ScenarioFailed, SessionError) as exc:
        sys.stderr.write(f"conformance client: FAILED: {type(exc).__name__}: {exc}\n")
        return 1
    except Exception as exc:
        log.exception("unexpected error")
        sys.stderr.write(f"conformance client: FAILED (unexpected): {exc!r}\n")
        return 1
    sys.stderr.write(f"conformance client: {scenario.name or 'scenario'} completed\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
