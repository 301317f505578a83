"""The Session over stdio against npm @modelcontextprotocol/server-everything (pinned)."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from typing import Any

import pytest

from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.machine.events import NotificationReceived, ProgressUpdate
from inspector.protocol.wire.versions import EraSetting
from inspector.session import Session
from inspector.traffic.log import TrafficLog
from inspector.transports.stdio import StdioParams, StdioTransport

pytestmark = pytest.mark.timeout(60)


class ScriptedResponder:
    """Answers like a person at the keyboard would, and remembers what was asked."""

    def __init__(self) -> None:
        self.asks: list[ServerAsk] = []

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        self.asks.append(ask)
        if ask.kind == "sampling":
            return {
                "role": "assistant",
                "content": {"type": "text", "text": "Typed by hand in the inspector"},
                "model": "human",
                "stopReason": "endTurn",
            }
        if ask.kind == "elicitation":
            schema = ask.params.get("requestedSchema", {})
            content: dict[str, Any] = {}
            for name, prop in schema.get("properties", {}).items():
                kind = prop.get("type")
                if "enum" in prop:
                    content[name] = prop["enum"][0]
                elif kind == "boolean":
                    content[name] = True
                elif kind in ("number", "integer"):
                    content[name] = prop.get("minimum", 1)
                elif kind == "array":
                    items = prop.get("items", {})
                    options = items.get("enum") or [
                        o.get("const") for o in items.get("anyOf", []) if "const" in o
                    ]
                    content[name] = options[:1]
                elif prop.get("format") == "email":
                    content[name] = "ada@example.com"
                elif prop.get("format") == "date":
                    content[name] = "2026-01-01"
                elif prop.get("format") == "uri":
                    content[name] = "https://example.com"
                else:
                    content[name] = "Ada"
            return {"action": "accept", "content": content}
        return {"roots": [{"uri": "file:///tmp/project", "name": "project"}]}


@pytest.fixture
async def everything(
    everything_command: list[str],
) -> AsyncIterator[tuple[Session, ScriptedResponder, TrafficLog, list[Any]]]:
    responder = ScriptedResponder()
    transport = StdioTransport(StdioParams(everything_command[0], everything_command[1:]))
    session = Session(transport, ClientConfig(era=EraSetting.LEGACY), responder)
    log = TrafficLog()
    events: list[Any] = []
    session.add_traffic_observer(log.observe)
    session.add_listener(events.append)
    await session.connect(timeout=20)
    try:
        yield session, responder, log, events
    finally:
        await session.close()


async def _tools_settled(session: Session) -> set[str]:
    """server-everything adds tools (and says list_changed) right after initialized."""
    names: set[str] = set()
    for _ in range(50):
        names = {t["name"] for t in await session.client.list_tools()}
        if "trigger-sampling-request" in names:
            return names
        await asyncio.sleep(0.1)
    return names


async def test_lists_everything(everything: Any) -> None:
    session, _, log, _ = everything
    assert session.protocol_version == "2025-11-25"
    assert session.server_info["name"]
    names = await _tools_settled(session)
    assert {"echo", "get-sum", "get-tiny-image", "get-structured-content"} <= names
    resources = await session.client.list_resources()
    assert resources and all("uri" in r for r in resources)
    templates = await session.client.list_resource_templates()
    assert templates and all("uriTemplate" in t for t in templates)
    prompts = await session.client.list_prompts()
    assert prompts and all("name" in p for p in prompts)
    text = await session.client.read_resource(resources[0]["uri"])
    assert text["contents"]
    # Every request in the log is paired with its answer, with a latency.
    requests = [e for e in log if e.direction == "out" and e.kind == "request"]
    assert requests and all(e.pair >= 0 for e in requests)
    assert all(log[e.pair].latency is not None for e in requests)


async def test_calls_echo_sum_image_structured(everything: Any) -> None:
    session, _, _, _ = everything
    echo = await session.client.call_tool("echo", {"message": "hello from Qt"})
    assert "hello from Qt" in echo["content"][0]["text"]
    total = await session.client.call_tool("get-sum", {"a": 2, "b": 3})
    assert "5" in total["content"][0]["text"]
    image = await session.client.call_tool("get-tiny-image", {})
    block = next(c for c in image["content"] if c["type"] == "image")
    assert base64.b64decode(block["data"]).startswith(b"\x89PNG")
    structured = await session.client.call_tool("get-structured-content", {"location": "Chicago"})
    assert isinstance(structured["structuredContent"], dict)


async def test_long_running_operation_reports_progress(everything: Any) -> None:
    session, _, _, _ = everything
    updates: list[ProgressUpdate] = []
    result = await session.client.call_tool(
        "trigger-long-running-operation",
        {"duration": 1, "steps": 4},
        on_progress=updates.append,
    )
    assert result["content"]
    assert [u.progress for u in updates] == [1, 2, 3, 4]
    assert all(u.total == 4 for u in updates)


async def test_answers_sampling_and_elicitation_by_hand(everything: Any) -> None:
    session, responder, log, _ = everything
    await _tools_settled(session)
    sampled = await session.client.call_tool("trigger-sampling-request", {"prompt": "Say hi"})
    assert "Typed by hand in the inspector" in str(sampled)
    elicited = await session.client.call_tool("trigger-elicitation-request", {})
    assert "accept" in str(elicited).lower()
    kinds = [a.kind for a in responder.asks]
    assert "sampling" in kinds and "elicitation" in kinds
    # The server's requests and our answers are paired in the log too.
    server_requests = [e for e in log if e.direction == "in" and e.kind == "request"]
    sampling = [e for e in server_requests if e.method == "sampling/createMessage"]
    assert sampling and log[sampling[0].pair].direction == "out"


async def test_roots_and_list_changed_notifications(everything: Any) -> None:
    session, responder, _, events = everything
    await _tools_settled(session)
    for _ in range(50):
        if any(a.kind == "roots" for a in responder.asks):
            break
        await asyncio.sleep(0.1)
    else:
        pytest.fail("server-everything never sent roots/list")
    listed = await session.client.call_tool("get-roots-list", {})
    assert "file:///tmp/project" in str(listed)
    changed = [
        e
        for e in events
        if isinstance(e, NotificationReceived)
        and e.notification.method == "notifications/tools/list_changed"
    ]
    assert changed


async def test_logging_notifications_arrive(everything: Any) -> None:
    session, _, _, events = everything
    await session.client.set_log_level("debug")
    await session.client.call_tool("toggle-simulated-logging", {})
    for _ in range(60):
        if any(
            isinstance(e, NotificationReceived) and e.notification.method == "notifications/message"
            for e in events
        ):
            break
        await asyncio.sleep(0.1)
    else:
        pytest.fail("no notifications/message within 6 s of toggling simulated logging")
