"""The Session over the stdio transport against the bundled demo server, in every era.

`python -m inspector.demo` speaks legacy (initialize) and modern (2026-07-28) MCP. These
tests drive it through the real stack: StdioTransport -> Session -> ClientConnection,
with a TrafficLog attached, and check what the user would see.
"""

from __future__ import annotations

import asyncio
import base64
import json
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest

from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.machine.events import (
    Event,
    LogMessage,
    NotificationReceived,
    ProgressUpdate,
    ProtocolViolation,
)
from inspector.protocol.wire.versions import Era, EraSetting
from inspector.session import AskRejected, InputRejected, RequestCancelled, ServerError, Session
from inspector.traffic.log import TrafficEntry, TrafficLog
from inspector.transports.base import HttpExchange, StderrLine, TransportClosed
from inspector.transports.stdio import StdioParams, StdioTransport
from tests.helpers.peers import REPO

pytestmark = pytest.mark.timeout(30)

MODERN_VERSION = "2026-07-28"
LOG_LEVEL_META = "io.modelcontextprotocol/logLevel"
LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]

T = TypeVar("T")
Observed = Event | StderrLine | TransportClosed | HttpExchange

SAMPLING_ANSWER = {
    "role": "assistant",
    "content": {"type": "text", "text": "MCP is a protocol for tools."},
    "model": "scripted-model",
    "stopReason": "endTurn",
}
ELICITATION_ANSWER = {"action": "accept", "content": {"name": "Ada", "age": 36}}


class ScriptedResponder:
    """Answers the server's asks with canned results; `reject` refuses them instead."""

    def __init__(self, reject: bool = False) -> None:
        self.reject = reject
        self.asks: list[ServerAsk] = []

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        self.asks.append(ask)
        if self.reject:
            raise AskRejected("the test said no")
        if ask.kind == "sampling":
            return dict(SAMPLING_ANSWER)
        if ask.kind == "elicitation":
            return dict(ELICITATION_ANSWER)
        return {"roots": []}


@dataclass
class Demo:
    session: Session
    log: TrafficLog
    responder: ScriptedResponder
    seen: list[Observed] = field(default_factory=list)

    def of_type(self, cls: type[T]) -> list[T]:
        return [item for item in self.seen if isinstance(item, cls)]

    @property
    def stderr(self) -> list[str]:
        return [item.text for item in self.of_type(StderrLine)]

    def requests(self, method: str, direction: str = "out") -> list[TrafficEntry]:
        return [
            e
            for e in self.log
            if e.kind == "request" and e.method == method and e.direction == direction
        ]

    def log_messages(self) -> list[LogMessage]:
        return [
            item.typed
            for item in self.of_type(NotificationReceived)
            if isinstance(item.typed, LogMessage)
        ]

    async def until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"condition not met within {timeout} s")
            await asyncio.sleep(0.01)


@pytest.fixture
async def open_demo() -> AsyncIterator[Callable[..., Any]]:
    """Start the demo server in an era; every session is closed at teardown."""
    opened: list[Demo] = []

    async def start(era: EraSetting, responder: ScriptedResponder | None = None) -> Demo:
        params = StdioParams(
            sys.executable,
            ["-m", "inspector.demo"],
            env={"PYTHONPATH": str(REPO)},
            close_grace=3.0,
            term_grace=1.0,
        )
        responder = responder or ScriptedResponder()
        session = Session(StdioTransport(params), ClientConfig(era=era), responder)
        demo = Demo(session, TrafficLog(), responder)
        session.add_traffic_observer(demo.log.observe)
        session.add_listener(demo.seen.append)
        opened.append(demo)
        await session.connect(timeout=15)
        return demo

    yield start
    for demo in opened:
        await asyncio.wait_for(demo.session.close(), 10)


ALL_ERAS = pytest.mark.parametrize("era", list(EraSetting), ids=str)
BOTH_ERAS = pytest.mark.parametrize("era", [EraSetting.LEGACY, EraSetting.MODERN], ids=str)


def text_of(result: dict[str, Any]) -> str:
    return "\n".join(b["text"] for b in result.get("content", []) if b.get("type") == "text")


# ------------------------------------------------------------------ handshake and catalog


@ALL_ERAS
async def test_handshake(open_demo: Callable[..., Any], era: EraSetting) -> None:
    demo: Demo = await open_demo(era)
    session = demo.session
    if era is EraSetting.LEGACY:
        assert session.era is Era.LEGACY and session.protocol_version == "2025-11-25"
        assert [e.method for e in demo.log if e.direction == "out"][:2] == [
            "initialize",
            "notifications/initialized",
        ]
    else:  # auto probes with server/discover, which the demo answers: modern
        assert session.era is Era.MODERN and session.protocol_version == MODERN_VERSION
        assert demo.requests("initialize") == []
        assert len(demo.requests("server/discover")) == 1
    assert session.server_info["name"] == "mcp-inspector-qt demo"
    assert "tools" in session.server_capabilities
    assert session.instructions and "demo server" in session.instructions
    assert any("demo server ready" in line for line in demo.stderr)
    assert any(e.kind == "stderr" and "demo server ready" in e.text() for e in demo.log)


@ALL_ERAS
async def test_catalog(open_demo: Callable[..., Any], era: EraSetting) -> None:
    session = (await open_demo(era)).session
    tools = {t["name"]: t for t in await session.client.list_tools()}
    assert {"echo", "add", "render_chart", "slow_count", "ask_llm", "ask_user"} <= set(tools)
    assert tools["add"]["inputSchema"]["required"] == ["a", "b"]
    resources = await session.client.list_resources()
    assert [r["uri"] for r in resources] == [
        "demo://readme",
        "demo://config.json",
        "demo://logo.png",
    ]
    templates = await session.client.list_resource_templates()
    assert [t["uriTemplate"] for t in templates] == ["demo://notes/{topic}"]
    prompts = await session.client.list_prompts()
    assert [p["name"] for p in prompts] == ["review_code", "greet"]


# ------------------------------------------------------------------ tools


@ALL_ERAS
async def test_tool_results(open_demo: Callable[..., Any], era: EraSetting) -> None:
    session = (await open_demo(era)).session
    added = await session.client.call_tool("add", {"a": 1, "b": 2})
    assert added["structuredContent"] == {"a": 1, "b": 2, "sum": 3}
    assert json.loads(text_of(added)) == {"a": 1, "b": 2, "sum": 3}
    assert not added.get("isError")

    chart = await session.client.call_tool("render_chart", {"values": [1, 2, 3], "title": "T"})
    image = chart["content"][1]
    assert image["type"] == "image" and image["mimeType"] == "image/png"
    assert base64.b64decode(image["data"]).startswith(b"\x89PNG\r\n\x1a\n")

    failed = await session.client.call_tool("fail_sometimes", {"mode": "fail"})
    assert failed["isError"] is True  # a tool error, not a protocol error
    assert "failed on purpose" in text_of(failed)

    with pytest.raises(ServerError) as info:
        await session.client.call_tool("explode")
    assert info.value.code == -32603
    assert "explode" in str(info.value)


@ALL_ERAS
async def test_progress(open_demo: Callable[..., Any], era: EraSetting) -> None:
    session = (await open_demo(era)).session
    updates: list[ProgressUpdate] = []
    result = await session.client.call_tool(
        "slow_count", {"steps": 3, "delay_ms": 10}, on_progress=updates.append
    )
    assert text_of(result) == "Counted to 3."
    assert [(u.progress, u.total) for u in updates] == [(1, 3), (2, 3), (3, 3)]
    assert updates[-1].message == "Counted 3 of 3"
    assert len({u.request_key for u in updates}) == 1 and updates[0].request_key is not None


@ALL_ERAS
async def test_cancel_mid_way(open_demo: Callable[..., Any], era: EraSetting) -> None:
    demo: Demo = await open_demo(era)
    session = demo.session
    updates: list[ProgressUpdate] = []
    call = session.start_request(
        "tools/call",
        {"name": "slow_count", "arguments": {"steps": 50, "delay_ms": 50}},
        on_progress=updates.append,
    )
    await demo.until(lambda: len(updates) >= 2)
    call.cancel("enough counting")
    with pytest.raises(RequestCancelled, match="enough counting"):
        await call.result()
    (request,) = demo.requests("tools/call")
    # The server received notifications/cancelled for that request and stopped the tool.
    await demo.until(lambda: any("was cancelled" in line for line in demo.stderr))
    assert any(f"cancelling request {request.msg_id}" in line for line in demo.stderr)
    (cancel,) = [e for e in demo.log if e.method == "notifications/cancelled"]
    assert json.loads(cancel.text())["params"] == {
        "requestId": request.msg_id,
        "reason": "enough counting",
    }
    assert request.pair == -1  # the cancelled request got no response
    assert len(updates) < 50
    assert (
        text_of(await session.client.call_tool("echo", {"message": "still here"})) == "still here"
    )


# ------------------------------------------------------------------ server asks


@BOTH_ERAS
async def test_ask_llm(open_demo: Callable[..., Any], era: EraSetting) -> None:
    demo: Demo = await open_demo(era)
    result = await demo.session.client.call_tool("ask_llm", {"question": "What is MCP?"})
    assert text_of(result) == "scripted-model answered:\n\nMCP is a protocol for tools."
    (ask,) = demo.responder.asks
    assert ask.kind == "sampling" and ask.method == "sampling/createMessage"
    assert ask.params["messages"][0]["content"]["text"] == "What is MCP?"
    _check_ask_traffic(demo, ask, era)


@BOTH_ERAS
async def test_ask_user(open_demo: Callable[..., Any], era: EraSetting) -> None:
    demo: Demo = await open_demo(era)
    result = await demo.session.client.call_tool("ask_user", {"message": "Who are you?"})
    assert text_of(result) == "Hello, Ada, age 36 (not subscribed)."
    assert result["structuredContent"] == {"name": "Ada", "age": 36}
    (ask,) = demo.responder.asks
    assert ask.kind == "elicitation" and ask.elicitation_mode == "form"
    assert ask.params["message"] == "Who are you?"
    assert ask.params["requestedSchema"]["required"] == ["name"]
    _check_ask_traffic(demo, ask, era)


def _check_ask_traffic(demo: Demo, ask: ServerAsk, era: EraSetting) -> None:
    if era is EraSetting.LEGACY:
        # A server request, answered by a client response paired with it.
        assert ask.era is Era.LEGACY and ask.wire_id is not None
        (server_request,) = demo.requests(ask.method, direction="in")
        answer = demo.log.pair_of(server_request)
        assert answer is not None and answer.direction == "out" and answer.kind == "response"
        assert len(demo.requests("tools/call")) == 1
    else:
        # MRTR: input_required, then the same call again with inputResponses.
        assert ask.era is Era.MODERN and ask.request_method == "tools/call"
        first, retry = demo.requests("tools/call")
        first_answer = demo.log.pair_of(first)
        assert first_answer is not None
        assert json.loads(first_answer.text())["result"]["resultType"] == "input_required"
        params = json.loads(retry.text())["params"]
        assert ask.input_key in params["inputResponses"]
        assert "requestState" in params
        assert demo.log.pair_of(retry) is not None
        assert demo.requests(ask.method, direction="in") == []  # never a server request


@BOTH_ERAS
async def test_rejected_ask(open_demo: Callable[..., Any], era: EraSetting) -> None:
    demo: Demo = await open_demo(era, ScriptedResponder(reject=True))
    if era is EraSetting.LEGACY:
        # The server gets error -1 and reports it as a tool error.
        result = await demo.session.client.call_tool("ask_llm", {"question": "?"})
        assert result["isError"] is True
        assert "error -1" in text_of(result) and "the test said no" in text_of(result)
    else:
        # MRTR has no error slot: the paused request is abandoned locally.
        with pytest.raises(InputRejected, match="the test said no"):
            await demo.session.client.call_tool("ask_llm", {"question": "?"})
    assert len(demo.responder.asks) == 1


# ------------------------------------------------------------------ prompts, resources


@ALL_ERAS
async def test_prompts_resources_completion(open_demo: Callable[..., Any], era: EraSetting) -> None:
    session = (await open_demo(era)).session
    prompt = await session.client.get_prompt("greet", {"name": "Ada"})
    assert [m["role"] for m in prompt["messages"]] == ["user", "assistant"]
    assert prompt["messages"][1]["content"]["text"] == "Hello, Ada! Welcome to MCP."

    readme = await session.client.read_resource("demo://readme")
    assert readme["contents"][0]["mimeType"] == "text/markdown"
    assert readme["contents"][0]["text"].startswith("# MCP Inspector (Qt) demo server")
    note = await session.client.read_resource("demo://notes/debugging")  # from the template
    assert "topic = 'debugging'" in note["contents"][0]["text"]
    logo = await session.client.read_resource("demo://logo.png")
    assert base64.b64decode(logo["contents"][0]["blob"]).startswith(b"\x89PNG")
    with pytest.raises(ServerError) as info:
        await session.client.read_resource("demo://nope")
    assert info.value.code == -32002

    languages = await session.client.complete(
        {"type": "ref/prompt", "name": "review_code"}, "language", "py"
    )
    assert languages["completion"]["values"] == ["python"]
    topics = await session.client.complete(
        {"type": "ref/resource", "uri": "demo://notes/{topic}"}, "topic", "de"
    )
    assert topics["completion"]["values"] == ["debugging"]


# ------------------------------------------------------------------ logging and ping


async def test_logging_legacy(open_demo: Callable[..., Any]) -> None:
    demo: Demo = await open_demo(EraSetting.LEGACY)
    assert await demo.session.client.set_log_level("warning") == {}
    assert [e.method for e in demo.log if e.direction == "out"][-1] == "logging/setLevel"
    await demo.session.client.call_tool("log_burst", {"count": 8})
    await demo.until(lambda: len(demo.log_messages()) == 5)
    assert [m.level for m in demo.log_messages()] == LOG_LEVELS[3:]
    assert demo.log_messages()[0].logger == "burst"
    await demo.session.client.set_log_level("debug")
    await demo.session.client.call_tool("log_burst", {"count": 8})
    await demo.until(lambda: len(demo.log_messages()) == 13)
    assert [m.level for m in demo.log_messages()[5:]] == LOG_LEVELS
    assert not demo.of_type(ProtocolViolation)


async def test_logging_modern(open_demo: Callable[..., Any]) -> None:
    demo: Demo = await open_demo(EraSetting.MODERN)
    await demo.session.client.call_tool("log_burst", {"count": 8})
    assert demo.log_messages() == []  # no level in _meta: the server sends no logs
    assert await demo.session.client.set_log_level("error") == {}  # no request in this era
    assert demo.requests("logging/setLevel") == []
    await demo.session.client.call_tool("log_burst", {"count": 8})
    last_call = demo.requests("tools/call")[-1]
    assert json.loads(last_call.text())["params"]["_meta"][LOG_LEVEL_META] == "error"
    await demo.until(lambda: len(demo.log_messages()) == 4)
    assert [m.level for m in demo.log_messages()] == LOG_LEVELS[4:]
    assert not demo.of_type(ProtocolViolation)


async def test_ping_legacy(open_demo: Callable[..., Any]) -> None:
    demo: Demo = await open_demo(EraSetting.LEGACY)
    assert await demo.session.client.ping() == {}
    (ping,) = demo.requests("ping")
    assert demo.log.pair_of(ping) is not None


# ------------------------------------------------------------------ traffic log


@ALL_ERAS
async def test_traffic_pairing_and_stats(open_demo: Callable[..., Any], era: EraSetting) -> None:
    demo: Demo = await open_demo(era)
    session = demo.session
    await session.client.list_tools()
    for a in range(3):
        await session.client.call_tool("add", {"a": a, "b": 1})
    with pytest.raises(ServerError):
        await session.client.call_tool("explode")
    await session.client.read_resource("demo://readme")

    requests = [e for e in demo.log if e.kind == "request" and e.direction == "out"]
    assert requests
    for request in requests:
        answer = demo.log.pair_of(request)
        assert answer is not None, f"{request.method} #{request.msg_id} unpaired"
        assert answer.direction == "in" and answer.msg_id == request.msg_id
        assert answer.pair == request.index and answer.method == request.method
        assert answer.latency is not None and 0 <= answer.latency < 10
        assert answer.latency == pytest.approx(answer.mono - request.mono)
    handshake = "initialize" if era is EraSetting.LEGACY else "server/discover"
    stats = demo.log.stats
    assert stats[handshake].count == 1
    assert stats["tools/list"].count == 1
    assert stats["tools/call"].count == 4 and stats["tools/call"].errors == 1
    assert len(stats["tools/call"].latencies) == 4
    assert stats["resources/read"].count == 1
    assert stats["tools/call"].percentile(50) is not None
    assert all(e.kind != "invalid" for e in demo.log)
    # Frames in are timestamped in order.
    monos = [e.mono for e in demo.log]
    assert monos == sorted(monos)


async def test_close_ends_the_demo_cleanly(open_demo: Callable[..., Any]) -> None:
    demo: Demo = await open_demo(EraSetting.LEGACY)
    started = time.monotonic()
    await demo.session.close()
    assert time.monotonic() - started < 3.0  # stdin EOF is enough: no signals
    closed = demo.session.closed
    assert closed is not None and closed.exit_code == 0 and not closed.error
    assert any("stdin closed" in line for line in demo.stderr)
    assert demo.of_type(TransportClosed) == [closed]
