"""The whole Session driver against a scripted peer over a MemoryTransport: no process, no
pipe. What a real server is needed for stays in the real-peer tests beside this file."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.machine.events import ProgressUpdate
from inspector.protocol.wire.jsonrpc import Response
from inspector.protocol.wire.versions import Era, EraSetting
from inspector.session import (
    ConnectionClosed,
    PolicyResponder,
    RequestCancelled,
    ServerError,
    Session,
)
from inspector.traffic.log import TrafficLog
from inspector.transports.base import TransportClosed, TransportClosedError
from inspector.transports.memory import MemoryTransport
from tests.helpers.fake_server import MODERN, discover_result, error, initialize_result
from tests.helpers.scripted_peer import ScriptedPeer

pytestmark = pytest.mark.timeout(20)


async def until(predicate: Any, what: str, timeout: float = 5.0) -> None:
    async def wait() -> None:
        while not predicate():
            await asyncio.sleep(0.005)

    try:
        await asyncio.wait_for(wait(), timeout)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


def tools_page(names: list[str], cursor: str | None = None) -> dict[str, Any]:
    page: dict[str, Any] = {
        "tools": [{"name": n, "inputSchema": {"type": "object"}} for n in names]
    }
    if cursor is not None:
        page["nextCursor"] = cursor
    return page


@pytest.fixture
def scripted_peer() -> ScriptedPeer:
    peer = ScriptedPeer()
    peer.on("initialize", initialize_result(), always=True)
    return peer


async def test_a_legacy_session_lists_every_page_and_calls_a_tool(
    scripted_peer: ScriptedPeer,
) -> None:
    scripted_peer.on("tools/list", tools_page(["a", "b"], "page-2"), tools_page(["c"]))
    scripted_peer.on("tools/call", {"content": [{"type": "text", "text": "done"}]})
    traffic = TrafficLog()
    async with Session(scripted_peer.transport(), ClientConfig()) as session:
        session.add_traffic_observer(traffic.observe)
        ready = await session.connect(timeout=5)
        assert ready.era is Era.LEGACY and session.server_info["name"] == "fake-server"
        assert scripted_peer.notifications("notifications/initialized")
        tools = await session.client.list_tools()
        assert [t["name"] for t in tools] == ["a", "b", "c"]
        assert scripted_peer.requests("tools/list")[1].params == {"cursor": "page-2"}
        result = await session.client.call_tool("a", {"x": 1})
        assert result["content"][0]["text"] == "done"
        assert scripted_peer.requests("tools/call")[0].params == {
            "name": "a",
            "arguments": {"x": 1},
        }
    # every frame both ways reached the log, paired
    kinds = [(e.direction, e.kind, e.method) for e in traffic.entries if e.kind != "note"]
    assert ("out", "request", "tools/call") in kinds and ("in", "response", "tools/call") in kinds


async def test_progress_reaches_the_call_and_a_cancel_goes_on_the_wire(
    scripted_peer: ScriptedPeer,
) -> None:
    scripted_peer.on("tools/call", None)  # the peer never answers: the user cancels
    updates: list[ProgressUpdate] = []
    async with Session(scripted_peer.transport(), ClientConfig()) as session:
        await session.connect(timeout=5)
        call = session.client.start_tool_call("slow", {}, on_progress=updates.append)
        await until(lambda: scripted_peer.requests("tools/call"), "the call on the wire")
        request = scripted_peer.requests("tools/call")[0]
        token = request.params["_meta"]["progressToken"]  # type: ignore[index]
        scripted_peer.notify(
            "notifications/progress", {"progressToken": token, "progress": 1, "total": 4}
        )
        await until(lambda: updates, "the progress update")
        assert updates[0].progress == 1 and updates[0].total == 4
        call.cancel("enough")
        with pytest.raises(RequestCancelled):
            await call.result()
        await until(lambda: scripted_peer.notifications("notifications/cancelled"), "the cancel")
        cancelled = scripted_peer.notifications("notifications/cancelled")[0]
        assert cancelled.params == {"requestId": request.id, "reason": "enough"}


async def test_a_server_ask_is_answered_by_the_responder(scripted_peer: ScriptedPeer) -> None:
    answer = {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}
    responder = PolicyResponder({"sampling": answer})
    config = ClientConfig()
    config.capabilities["sampling"] = {}
    async with Session(scripted_peer.transport(), config, responder) as session:
        await session.connect(timeout=5)
        asked = scripted_peer.ask(
            "sampling/createMessage",
            {
                "messages": [{"role": "user", "content": {"type": "text", "text": "?"}}],
                "maxTokens": 5,
            },
        )
        await until(lambda: scripted_peer.answers(), "the answer to the ask")
        reply = scripted_peer.answers()[0]
        assert isinstance(reply, Response) and reply.id == asked
        assert reply.result["content"]["text"] == "hi"


async def test_an_error_answer_fails_only_its_call(scripted_peer: ScriptedPeer) -> None:
    scripted_peer.on("resources/read", error(-32002, "no such resource"))
    scripted_peer.on("prompts/get", {"messages": []})
    async with Session(scripted_peer.transport(), ClientConfig()) as session:
        await session.connect(timeout=5)
        with pytest.raises(ServerError, match="no such resource"):
            await session.client.read_resource("file:///nope")
        assert await session.client.get_prompt("p") == {"messages": []}


async def test_garbage_from_the_peer_is_logged_and_the_session_goes_on(
    scripted_peer: ScriptedPeer,
) -> None:
    scripted_peer.on("ping", {})
    traffic = TrafficLog()
    async with Session(scripted_peer.transport(), ClientConfig()) as session:
        session.add_traffic_observer(traffic.observe)
        await session.connect(timeout=5)
        assert scripted_peer.link is not None
        scripted_peer.link.push("this is not JSON")
        scripted_peer.link.push(b"\xff\xfe not UTF-8")
        assert await session.client.ping() == {}
    invalid = [e for e in traffic.entries if e.kind == "invalid"]
    assert [e.raw for e in invalid] == ["this is not JSON", b"\xff\xfe not UTF-8"]
    assert all(e.note for e in invalid)


async def test_a_peer_that_hangs_up_fails_the_pending_call(scripted_peer: ScriptedPeer) -> None:
    scripted_peer.on("tools/call", None)
    session = Session(scripted_peer.transport(), ClientConfig())
    try:
        await session.connect(timeout=5)
        call = session.client.start_tool_call("never", {})
        await until(lambda: scripted_peer.requests("tools/call"), "the call on the wire")
        assert scripted_peer.link is not None
        scripted_peer.link.push_stderr("panic: out of cheese")
        scripted_peer.link.hang_up("the server exited", exit_code=3)
        with pytest.raises(ConnectionClosed, match="the server exited"):
            await call.result()
        assert session.closed is not None and session.closed.error
    finally:
        await session.close()


async def test_a_modern_session_discovers_then_sends_its_meta() -> None:
    peer = ScriptedPeer()
    peer.on("server/discover", discover_result())
    peer.on("tools/list", {"resultType": "complete", "tools": []})
    async with Session(peer.transport(), ClientConfig(era=EraSetting.MODERN)) as session:
        ready = await session.connect(timeout=5)
        assert ready.era is Era.MODERN and session.protocol_version == MODERN
        assert await session.client.list_tools() == []
    request = peer.requests("tools/list")[0]
    meta = (request.params or {})["_meta"]
    assert meta["io.modelcontextprotocol/protocolVersion"] == MODERN


async def test_the_memory_transport_refuses_to_send_after_it_closed() -> None:
    heard: list[str] = []
    link = MemoryTransport(lambda text, _link: heard.append(text))
    await link.start()
    await link.send('{"jsonrpc":"2.0","method":"x"}')
    await link.close()
    with pytest.raises(TransportClosedError):
        await link.send('{"jsonrpc":"2.0","method":"y"}')
    events = [event async for event in link.events()]
    assert heard == ['{"jsonrpc":"2.0","method":"x"}']
    assert len(events) == 1 and events[0] == TransportClosed("closed by the client")
