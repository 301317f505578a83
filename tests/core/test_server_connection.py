"""`ServerConnection`, the one way to reach a server, against the bundled demo server: its
request API in both eras, and the headless constructor (`connection_for`,
`open_connection`, `connected`): only the handshake goes out, failures close what they
opened, and the connection is closed when the block ends."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Literal

import pytest

from inspector.core.server_connection import (
    Call,
    ConnectError,
    PolicyResponder,
    ProgressUpdate,
    RequestNotAllowed,
    ServerConnection,
    ServerError,
    connected,
    connection_for,
    open_connection,
)
from inspector.protocol.wire.versions import Era
from inspector.settings.connect import SetupError
from inspector.settings.profiles import EnvVar, Profile, StdioSettings
from inspector.traffic.record import TrafficRecord
from tests.helpers.peers import demo_command, subprocess_env

pytestmark = pytest.mark.timeout(90)


def demo_profile(era: Literal["legacy", "modern"] = "legacy") -> Profile:
    command, *args = demo_command()
    env = [EnvVar(name=k, value=v) for k, v in subprocess_env().items()]
    return Profile(name="Demo", era=era, stdio=StdioSettings(command=command, args=args, env=env))


def sent_methods(records: list[TrafficRecord]) -> list[str]:
    methods = []
    for record in records:
        if record.direction != "out" or not isinstance(record.raw, str):
            continue
        try:
            message = json.loads(record.raw)
        except ValueError:
            continue
        if isinstance(message, dict) and isinstance(message.get("method"), str):
            methods.append(message["method"])
    return methods


def text_of(result: dict[str, Any]) -> str:
    return "".join(c.get("text", "") for c in result.get("content", []) if isinstance(c, dict))


@pytest.mark.parametrize("era", ["legacy", "modern"])
async def test_the_request_api_over_the_demo(era: Literal["legacy", "modern"]) -> None:
    async with connected(demo_profile(era), timeout=30) as conn:
        assert conn.is_ready and conn.era is Era(era)
        assert conn.protocol_version and conn.server_info.get("name")
        assert conn.ready_info is not None and conn.closed is None
        # lists
        assert "echo" in [t["name"] for t in await conn.list_tools()]
        assert "greet" in [p["name"] for p in await conn.list_prompts()]
        assert "demo://readme" in [r["uri"] for r in await conn.list_resources()]
        templates = await conn.list_resource_templates()
        assert templates[0]["uriTemplate"] == "demo://notes/{topic}"
        page = await conn.list_tools_page()
        assert isinstance(page.get("tools"), list)
        # tools
        result = await conn.call_tool("echo", {"message": "hi"})
        assert "hi" in text_of(result)
        updates: list[ProgressUpdate] = []
        call = conn.start_tool_call("add", {"a": 2, "b": 3}, on_progress=updates.append)
        assert isinstance(call, Call) and call.method == "tools/call"
        assert "5" in text_of(await call.result())
        # resources, prompts, completion, ping
        read = await conn.read_resource("demo://readme")
        assert read["contents"][0]["uri"] == "demo://readme"
        prompt = await conn.get_prompt("greet", {"name": "Ada"})
        assert prompt["messages"]
        done = await conn.complete({"type": "ref/prompt", "name": "greet"}, "name", "")
        assert isinstance(done["completion"]["values"], list)
        if era == "legacy":
            assert await conn.ping() == {}
            assert await conn.set_log_level("debug") == {}
            assert conn.clear_log_level() is False
        else:
            assert await conn.set_log_level("debug") == {}  # rides in every request's _meta
            assert conn.clear_log_level() is True
        # any method by name
        listed = await conn.request("prompts/list")
        assert listed["prompts"]


async def test_subscribe_and_unsubscribe_in_the_legacy_era() -> None:
    async with connected(demo_profile(), timeout=30) as conn:
        assert await conn.subscribe("demo://readme").result() == {}
        assert await conn.unsubscribe("demo://readme").result() == {}


async def test_the_raw_channel_sends_exactly_what_is_written() -> None:
    records: list[TrafficRecord] = []

    def observe(conn: ServerConnection) -> None:
        conn.add_traffic_observer(records.append)

    conn = await open_connection(demo_profile(), timeout=30, before_connect=observe)
    try:
        wire_id = conn.fresh_id()
        call = await conn.send_raw(json.dumps({"jsonrpc": "2.0", "id": wire_id, "method": "ping"}))
        assert call is not None and await call.result() == {}
        nothing = await conn.send_raw('{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        assert nothing is None
        broken = await conn.send_raw("{not json")  # deliberately malformed: sent as it is
        assert broken is None
        assert any(r.raw == "{not json" for r in records if r.direction == "out")
    finally:
        await conn.close()
    assert conn.closed is not None


async def test_the_headless_constructor_sends_only_the_handshake() -> None:
    records: list[TrafficRecord] = []
    conn = await open_connection(
        demo_profile(),
        timeout=30,
        before_connect=lambda c: c.add_traffic_observer(records.append),
    )
    await conn.close()
    assert sent_methods(records) == ["initialize", "notifications/initialized"]


async def test_the_default_responder_answers_by_policy_with_the_profiles_roots() -> None:
    profile = demo_profile()
    conn = connection_for(profile)
    try:
        assert isinstance(conn.responder, PolicyResponder)
        assert not conn.is_ready  # not connected until asked
        mine = PolicyResponder()
        assert connection_for(profile, responder=mine).responder is mine
    finally:
        await conn.close()


async def test_a_server_that_cannot_start_raises_connect_error() -> None:
    profile = Profile(
        name="Nothing", stdio=StdioSettings(command="/nonexistent/mcp-server-for-a-test")
    )
    with pytest.raises(ConnectError):
        await open_connection(profile, timeout=10)
    with pytest.raises(SetupError):
        connection_for(Profile(name="Empty", stdio=StdioSettings(command="")))


async def test_request_errors_come_from_the_connection_floor() -> None:
    async with connected(demo_profile("modern"), timeout=30) as conn:
        with pytest.raises(RequestNotAllowed):
            conn.start_request("ping")  # the modern era has no ping (the API overrides)
        with pytest.raises(ServerError):  # sent past the check: the server says no
            await conn.start_ping().result()
        with pytest.raises(ServerError):
            await conn.get_prompt("no-such-prompt")


async def test_connected_closes_the_connection_when_the_block_ends() -> None:
    async with connected(demo_profile(), timeout=30) as conn:
        assert conn.is_ready
    assert conn.closed is not None and not conn.is_ready


async def test_a_failed_connect_leaves_nothing_running() -> None:
    seen: list[ServerConnection] = []
    dies = StdioSettings(command=sys.executable, args=["-c", "import sys; sys.exit(3)"])
    with pytest.raises(ConnectError):
        await open_connection(
            Profile(name="Dies", stdio=dies), timeout=10, before_connect=seen.append
        )
    assert len(seen) == 1 and seen[0].closed is not None and not seen[0].is_ready


OUTPUT_SCHEMA_SERVER = str(
    Path(__file__).resolve().parents[1] / "servers" / "misbehaving" / "output_schema_server.py"
)


async def test_a_tool_definition_is_listed_once_every_page_or_taken_from_a_listing() -> None:
    """`tool_definition`: a name no tools/list named yet lists every page (the tool is on
    the second); a name seen in any tools/list result (here the explorer's own page) asks
    nothing; a name the server does not list is looked up once."""
    profile = Profile(
        name="", stdio=StdioSettings(command=sys.executable, args=[OUTPUT_SCHEMA_SERVER])
    )
    records: list[TrafficRecord] = []
    async with connected(profile, timeout=30) as conn:
        conn.add_traffic_observer(records.append)
        weather = await conn.tool_definition("weather")
        assert weather is not None and weather["outputSchema"]["required"] == ["temp"]
        assert sent_methods(records) == ["tools/list", "tools/list"]
        assert (await conn.tool_definition("fine")) is not None  # on the first page
        assert await conn.tool_definition("nope") is None
        assert await conn.tool_definition("nope") is None
        assert sent_methods(records).count("tools/list") == 4  # "nope": once, both pages
    async with connected(profile, timeout=30) as conn:
        conn.add_traffic_observer(records.append)
        records.clear()
        await conn.list_tools_page()  # one page, as the explorer asks for it
        assert (await conn.tool_definition("plain")) == {
            "name": "plain",
            "inputSchema": {"type": "object"},
        }
        assert sent_methods(records) == ["tools/list"]
