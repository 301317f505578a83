"""The Session over stdio against an `mcp` 2.x MCPServer (tests/servers/sdk/sdk_server.py), in the
legacy and the modern (2026-07-28) era: tools, resources, templates, prompts, sampling,
elicitation (server requests in legacy, MRTR input_required in modern), progress and logging.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.machine.events import LogMessage, NotificationReceived, ProgressUpdate
from inspector.protocol.wire.versions import Era, EraSetting
from inspector.session import AskRejected, InputRejected, ServerError, Session
from inspector.traffic.log import TrafficLog
from inspector.transports.stdio import StdioParams, StdioTransport
from tests.helpers.peers import PY, REPO

pytestmark = pytest.mark.timeout(60)

SDK_SERVER = str(REPO / "tests" / "servers" / "sdk" / "sdk_server.py")


class HandResponder:
    """What a person answering dialogs would do; `reject_sampling` flips to a refusal."""

    def __init__(self) -> None:
        self.asks: list[ServerAsk] = []
        self.reject_sampling = False
        self.elicit_action = "accept"

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        self.asks.append(ask)
        if ask.kind == "sampling":
            if self.reject_sampling:
                raise AskRejected("the user said no")
            return {
                "role": "assistant",
                "content": {"type": "text", "text": "Paris, typed by hand"},
                "model": "human",
                "stopReason": "endTurn",
            }
        if ask.kind == "elicitation":
            if self.elicit_action != "accept":
                return {"action": self.elicit_action}
            return {"action": "accept", "content": {"name": "Ada", "age": 36}}
        return {"roots": []}


Peer = tuple[Session, HandResponder, TrafficLog, list[Any]]


async def _open(era: EraSetting) -> Peer:
    pytest.importorskip("mcp", reason="the mcp SDK is a test dependency")
    responder = HandResponder()
    transport = StdioTransport(StdioParams(PY, [SDK_SERVER], env={"PYTHONPATH": str(REPO)}))
    session = Session(transport, ClientConfig(era=era), responder)
    log = TrafficLog()
    events: list[Any] = []
    session.add_traffic_observer(log.observe)
    session.add_listener(events.append)
    await session.connect(timeout=30)
    return session, responder, log, events


@pytest.fixture(params=[EraSetting.LEGACY, EraSetting.MODERN], ids=["legacy", "modern"])
async def sdk_peer(request: pytest.FixtureRequest) -> AsyncIterator[Peer]:
    opened = await _open(request.param)
    try:
        yield opened
    finally:
        await opened[0].close()


def _text(result: dict[str, Any]) -> str:
    return " ".join(c.get("text", "") for c in result.get("content", []))


async def test_handshake_and_lists(sdk_peer: Peer) -> None:
    session, _, log, _ = sdk_peer
    if session.era is Era.MODERN:
        assert session.protocol_version == "2026-07-28"
        first = next(e for e in log if e.direction == "out")
        assert first.method == "server/discover"
        assert "initialize" not in {e.method for e in log}
    else:
        assert session.protocol_version == "2025-11-25"
    assert session.server_info.get("name")
    tools = {t["name"] for t in await session.client.list_tools()}
    assert {"add", "echo", "sample_llm", "ask_user", "slow_task"} <= tools
    assert any(r["uri"] == "info://server" for r in await session.client.list_resources())
    templates = await session.client.list_resource_templates()
    assert templates[0]["uriTemplate"] == "greeting://{name}"
    assert [p["name"] for p in await session.client.list_prompts()] == ["greet"]


async def test_tools_resources_prompts(sdk_peer: Peer) -> None:
    session, _, _, _ = sdk_peer
    added = await session.client.call_tool("add", {"a": 20, "b": 22})
    assert added["structuredContent"] == {"sum": 42}
    assert "hi" in _text(await session.client.call_tool("echo", {"text": "hi"}))
    failed = await session.client.call_tool("fail", {"message": "nope"})
    assert failed["isError"] is True
    read = await session.client.read_resource("greeting://Ada")
    assert "Ada" in read["contents"][0]["text"]
    prompt = await session.client.get_prompt("greet", {"name": "Ada"})
    assert "Ada" in json.dumps(prompt["messages"])
    # An unknown tool: the SDK answers with an isError result (2025-11-25 guidance).
    unknown = await session.client.call_tool("no-such-tool", {})
    assert unknown["isError"] is True


async def test_sampling_answered_by_hand(sdk_peer: Peer) -> None:
    session, responder, log, _ = sdk_peer
    result = await session.client.call_tool("sample_llm", {"prompt": "Capital of France?"})
    assert "Paris, typed by hand" in _text(result)
    ask = next(a for a in responder.asks if a.kind == "sampling")
    assert ask.era is session.era
    calls = [e for e in log if e.direction == "out" and e.method == "tools/call"]
    if session.era is Era.MODERN:
        # MRTR: the retry went out under a new id carrying inputResponses and requestState.
        assert len(calls) == 2 and calls[0].msg_id != calls[1].msg_id
        retry = json.loads(calls[1].text())["params"]
        assert ask.input_key in retry["inputResponses"]
        assert retry["requestState"]
        assert retry["arguments"] == {"prompt": "Capital of France?"}
    else:
        assert len(calls) == 1
        assert any(e.direction == "in" and e.method == "sampling/createMessage" for e in log)


async def test_sampling_rejected(sdk_peer: Peer) -> None:
    session, responder, log, _ = sdk_peer
    responder.reject_sampling = True
    if session.era is Era.MODERN:
        with pytest.raises(InputRejected, match="the user said no"):
            await session.client.call_tool("sample_llm", {"prompt": "x"})
        calls = [e for e in log if e.direction == "out" and e.method == "tools/call"]
        assert len(calls) == 1  # no retry is sent after a rejection
    else:
        # Legacy: our error -1 reaches the server, which fails the call with it.
        with pytest.raises(ServerError):
            await session.client.call_tool("sample_llm", {"prompt": "x"})
        answers = [e for e in log if e.direction == "out" and e.kind == "error"]
        assert answers and json.loads(answers[0].text())["error"]["code"] == -1


@pytest.mark.parametrize("action", ["accept", "decline", "cancel"])
async def test_elicitation(sdk_peer: Peer, action: str) -> None:
    session, responder, _, _ = sdk_peer
    responder.elicit_action = action
    text = _text(await session.client.call_tool("ask_user", {}))
    expected = {"accept": "accepted: name=Ada, age=36", "decline": "declined"}
    assert expected.get(action, "cancelled") in text


async def test_progress_and_logging(sdk_peer: Peer) -> None:
    session, _, _, events = sdk_peer
    await session.client.set_log_level("debug")
    updates: list[ProgressUpdate] = []
    result = await session.client.call_tool("slow_task", {"steps": 3}, on_progress=updates.append)
    assert result.get("isError") is not True
    assert [u.progress for u in updates] == [1, 2, 3]
    logs = [
        e.typed
        for e in events
        if isinstance(e, NotificationReceived) and isinstance(e.typed, LogMessage)
    ]
    assert {"debug", "info", "warning"} <= {m.level for m in logs}
