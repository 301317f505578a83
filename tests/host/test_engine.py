"""The turn engine against a real `ServerConnection` (a scripted peer in memory) and a
scripted model: tool calls carried to the server and back, and every way a model, a tool or a
provider goes wrong ending in a clear sentence while the session stays up."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from inspector.core.server_connection import PolicyResponder, ServerConnection
from inspector.features.providers.types import ModelError
from inspector.host.engine import MAX_CALLS_PER_STEP, TurnEngine
from inspector.host.interface import (
    Approval,
    CallPending,
    CallUpdated,
    HostEvent,
    PendingCall,
    StepStarted,
    TextDelta,
    TurnEnded,
)
from inspector.host.records import Conversation
from inspector.host.tool_table import ToolTable, list_tool_table
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.wire.jsonrpc import Request, Response
from tests.helpers.fake_server import error, initialize_result
from tests.helpers.scripted_model import ScriptedModel, says, uses
from tests.helpers.scripted_peer import ScriptedPeer
from tests.helpers.sessions import OpenSessions
from tests.helpers.waiting import until

pytestmark = pytest.mark.timeout(20)

TOOLS = [
    {
        "name": "add",
        "description": "Adds two integers.",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        },
        "annotations": {"readOnlyHint": True},
    },
    {"name": "wipe", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": True}},
    {"name": "fail", "inputSchema": {"type": "object"}},
    {"name": "broken", "inputSchema": {"type": "object"}},
    {"name": "slow", "inputSchema": {"type": "object"}},
]


def _tool_call(request: Request) -> Any:
    params = request.params or {}
    name, args = params.get("name"), params.get("arguments") or {}
    if name == "add":
        return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}
    if name == "wipe":
        return {"content": [{"type": "text", "text": "wiped"}]}
    if name == "fail":
        return {"content": [{"type": "text", "text": "the disk is full"}], "isError": True}
    if name == "broken":
        return error(-32603, "internal error in broken")
    return None  # slow: never answers


@pytest.fixture
async def tool_server(sessions: OpenSessions) -> tuple[ScriptedPeer, ServerConnection]:
    peer = ScriptedPeer()
    peer.on("initialize", initialize_result(instructions="Add with add."), always=True)
    peer.on("tools/list", {"tools": TOOLS}, always=True)
    peer.on("tools/call", _tool_call, always=True)
    peer.on("ping", {}, always=True)
    conn = await sessions.connection(peer.transport(), ClientConfig())
    return peer, conn


async def _engine(
    conn: ServerConnection, model: ScriptedModel, **settings: Any
) -> tuple[TurnEngine, list[HostEvent]]:
    events: list[HostEvent] = []
    table = await list_tool_table({"calc": conn})
    policy = settings.pop("policy", "all")
    approver = settings.pop("approver", None)
    conversation = Conversation(model="m", policy=policy, **settings)
    engine = TurnEngine(model, table, conversation, approver=approver, on_event=events.append)
    return engine, events


async def test_a_tool_call_goes_to_the_server_and_its_result_back_to_the_model(
    tool_server: tuple[ScriptedPeer, ServerConnection],
) -> None:
    peer, conn = tool_server
    model = ScriptedModel(uses(("calc__add", {"a": 2, "b": 3})), says("It is 5.", cost=0.002))
    engine, events = await _engine(conn, model, system_prompt="Be brief.")
    turn = await engine.run_turn("What is 2 + 3?")
    assert (turn.outcome, turn.final_text, turn.steps) == ("answered", "It is 5.", 2)
    assert (turn.input_tokens, turn.output_tokens, turn.cost) == (20, 10, 0.002)
    [call] = turn.tool_calls
    assert (call.qualified, call.tab, call.tool, call.decision) == (
        "calc__add",
        "calc",
        "add",
        "sent",
    )
    sent = peer.requests("tools/call")[0]
    assert sent.params == {"name": "add", "arguments": {"a": 2, "b": 3}}
    assert call.request_id == sent.id  # the link to its rows in the traffic log
    assert call.result == {"content": [{"type": "text", "text": "5"}]} and not call.is_error
    # the model saw the tool (namespaced), the instructions, then the result
    first, second = model.requests
    assert [t.name for t in first.tools][:2] == ["calc__add", "calc__wipe"]
    assert first.system == "Be brief.\n\nInstructions from the MCP server 'calc':\nAdd with add."
    assert second.messages[-1].role == "tool" and second.messages[-1].text == "5"
    assert isinstance(events[0], StepStarted) and isinstance(events[-1], TurnEnded)
    assert any(isinstance(e, CallUpdated) for e in events)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)).strip() == "It is 5."
    # a second turn continues the conversation; the instructions can be left out
    engine.conversation.include_instructions = False
    model.steps = [says("Bye.")]
    await engine.run_turn("Thanks")
    assert model.requests[-1].system == "Be brief."
    assert [m.role for m in model.requests[-1].messages] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
    ]
    saved = Conversation.from_json(engine.conversation.to_json())
    assert saved.turns[0].tool_calls[0].request_id == sent.id


async def test_wrong_arguments_unknown_tools_and_not_json_go_back_to_the_model(
    tool_server: tuple[ScriptedPeer, ServerConnection],
) -> None:
    peer, conn = tool_server
    asked: list[PendingCall] = []

    async def refuse(pending: PendingCall) -> Approval:
        asked.append(pending)
        return Approval.refuse()

    model = ScriptedModel(
        uses(
            ("calc__add", {"a": "two"}),
            ("calc__multiply", {"a": 1}),
            ("calc__add", None, "{a: 1,"),
        ),
        says("Sorry."),
    )
    engine, _ = await _engine(conn, model, approver=refuse)
    turn = await engine.run_turn("add")
    assert turn.outcome == "answered" and not peer.requests("tools/call")
    wrong, unknown, garbled = turn.tool_calls
    assert wrong.decision == "invalid-arguments" and wrong.is_error
    assert wrong.schema_problems == ["a: 'two' is not of type 'integer'", "b: required"]
    assert asked[0].reasons == ("schema",) and asked[0].record is wrong
    assert (unknown.decision, unknown.tab) == ("unknown-tool", "")
    assert garbled.decision == "invalid-arguments" and garbled.raw_arguments == "{a: 1,"
    told = [m for m in model.requests[1].messages if m.role == "tool"]
    assert all(m.is_error for m in told)
    assert "b: required" in told[0].text and "do not match the input schema" in told[0].text
    assert told[1].text.startswith("There is no tool named 'calc__multiply'")
    assert "calc__add" in told[1].text
    assert "not JSON" in told[2].text
    # the person may send it anyway: it goes out, flagged
    model.steps = [uses(("calc__add", {"a": 1, "b": 2.5})), says("ok")]

    async def send_anyway(pending: PendingCall) -> Approval:
        return Approval.send()

    engine.approver = send_anyway
    turn = await engine.run_turn("again")
    [call] = turn.tool_calls
    assert call.decision == "sent" and call.schema_problems == ["b: 2.5 is not of type 'integer'"]
    assert peer.requests("tools/call")[0].params == {"name": "add", "arguments": {"a": 1, "b": 2.5}}


async def test_a_looping_model_stops_at_the_step_limit(
    tool_server: tuple[ScriptedPeer, ServerConnection],
) -> None:
    _, conn = tool_server
    model = ScriptedModel(uses(("calc__add", {"a": 1, "b": 1})))  # forever
    engine, _ = await _engine(conn, model, max_steps=3)
    turn = await engine.run_turn("loop")
    assert (turn.outcome, turn.steps, len(turn.tool_calls)) == ("step-limit", 3, 3)
    assert "step limit (3)" in turn.error


async def test_tool_errors_go_back_to_the_model_and_the_turn_goes_on(
    tool_server: tuple[ScriptedPeer, ServerConnection],
) -> None:
    _, conn = tool_server
    model = ScriptedModel(
        uses(("calc__fail", {}), ("calc__broken", {}), ("calc__slow", {})), says("Tools are down.")
    )
    engine, _ = await _engine(conn, model)
    engine.tool_timeout = 0.3
    turn = await engine.run_turn("try them")
    assert (turn.outcome, turn.final_text) == ("answered", "Tools are down.")
    fail, broken, slow = turn.tool_calls
    assert fail.is_error and fail.error == "the disk is full" and fail.result is not None
    assert broken.is_error and "internal error in broken" in broken.error
    assert slow.is_error and "no answer within 0.3 s" in slow.error
    told = [m for m in model.requests[1].messages if m.role == "tool"]
    assert [m.is_error for m in told] == [True, True, True]
    assert await conn.ping() == {}


@pytest.mark.parametrize(
    "failure",
    [
        ModelError("timeout", "the provider did not answer within 30 s"),
        ModelError("rate-limited", "rate limited (429); retry after 20 s", status=429),
        ModelError("server", "the provider failed (500)", status=500),
        ModelError("garbage", "the provider's answer is not JSON"),
    ],
)
async def test_a_provider_failure_ends_the_turn_with_its_sentence_and_the_session_stays_up(
    tool_server: tuple[ScriptedPeer, ServerConnection], failure: ModelError
) -> None:
    _, conn = tool_server
    model = ScriptedModel(uses(("calc__add", {"a": 1, "b": 1})), failure)
    engine, events = await _engine(conn, model)
    turn = await engine.run_turn("hi")
    assert turn.outcome == "model-error" and str(failure) in turn.error
    assert turn.tool_calls[0].decision == "sent" and isinstance(events[-1], TurnEnded)
    assert conn.is_ready and await conn.ping() == {}
    model.steps = [says("back")]
    assert (await engine.run_turn("again")).final_text == "back"


async def test_policies_none_read_only_and_destructive(
    tool_server: tuple[ScriptedPeer, ServerConnection],
) -> None:
    peer, conn = tool_server
    asked: list[PendingCall] = []

    async def approve(pending: PendingCall) -> Approval:
        asked.append(pending)
        return Approval.edit({"confirm": True})

    model = ScriptedModel(uses(("calc__add", {"a": 1, "b": 1}), ("calc__wipe", {})), says("done"))
    engine, events = await _engine(conn, model, policy="none", approver=approve)
    turn = await engine.run_turn("go")
    assert [c.decision for c in turn.tool_calls] == ["refused", "refused"]
    assert not asked and not peer.requests("tools/call")
    assert "does not allow tool calls" in model.requests[1].messages[-1].text
    # read-only: add goes out on its own; wipe is destructive and asks, then goes out edited
    engine.conversation.policy = "read-only"
    model.steps = [uses(("calc__add", {"a": 1, "b": 1}), ("calc__wipe", {})), says("done")]
    turn = await engine.run_turn("go")
    assert [c.decision for c in turn.tool_calls] == ["sent", "edited"]
    assert [p.reasons for p in asked] == [("policy", "destructive")]
    assert "annotates this tool as destructive" in asked[0].why
    assert peer.requests("tools/call")[-1].params == {
        "name": "wipe",
        "arguments": {"confirm": True},
    }
    assert any(isinstance(e, CallPending) for e in events)
    # all: destructive still asks
    engine.conversation.policy = "all"
    model.steps = [uses(("calc__wipe", {})), says("done")]
    await engine.run_turn("go")
    assert asked[-1].reasons == ("destructive",)


async def test_stop_cancels_the_model_request_or_the_tool_call_in_flight(
    tool_server: tuple[ScriptedPeer, ServerConnection],
) -> None:
    peer, conn = tool_server
    model = ScriptedModel(says("never"), hang=True)
    engine, _ = await _engine(conn, model)
    task = asyncio.ensure_future(engine.run_turn("hang"))
    await until(lambda: bool(model.requests), "the model request")
    engine.stop()
    turn = await task
    assert (turn.outcome, turn.error) == ("stopped", "Stopped by the user.") and model.cancelled
    # a tool call in flight gets notifications/cancelled; the model's history stays whole
    model.hang = False
    model.steps = [uses(("calc__slow", {}), ("calc__add", {"a": 1, "b": 1})), says("ok")]
    task = asyncio.ensure_future(engine.run_turn("slow"))
    await until(lambda: bool(peer.requests("tools/call")), "the tool call")
    engine.stop()
    turn = await task
    assert turn.outcome == "stopped"
    assert [c.decision for c in turn.tool_calls] == ["stopped", "stopped"]
    await until(lambda: bool(peer.notifications("notifications/cancelled")), "the cancel")
    assert [m.role for m in engine.history[-3:]] == ["assistant", "tool", "tool"]
    assert len(peer.requests("tools/call")) == 1 and await conn.ping() == {}
    # a stop while the person decides ends the turn too
    waiting = asyncio.Event()

    async def never(pending: PendingCall) -> Approval:
        waiting.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    engine.approver = never
    engine.conversation.policy = "ask"
    model.steps = [uses(("calc__add", {"a": 1, "b": 1})), says("ok")]
    task = asyncio.ensure_future(engine.run_turn("ask"))
    await until(waiting.is_set, "the approval")
    engine.stop()
    assert (await task).outcome == "stopped"


def test_a_table_without_connections_refuses_calls_with_a_sentence() -> None:
    table = ToolTable.build([("off", [{"name": "t"}], None)])
    model = ScriptedModel(uses(("off__t", {})), says("fine"))
    engine = TurnEngine(model, table, Conversation(policy="all"))
    turn = asyncio.run(engine.run_turn("x"))
    assert turn.tool_calls[0].error == "The server 'off' is not connected."


async def test_a_server_ask_during_a_tool_call_goes_to_the_connection_responder(
    sessions: OpenSessions,
) -> None:
    peer = ScriptedPeer()
    peer.on("initialize", initialize_result(), always=True)
    peer.on("tools/list", {"tools": [{"name": "ask_user", "inputSchema": {"type": "object"}}]})
    peer.on("tools/call", None)  # answered by hand, after the elicitation
    config = ClientConfig()
    config.capabilities["elicitation"] = {}
    responder = PolicyResponder({"elicitation": {"action": "accept", "content": {"name": "Ada"}}})
    conn = await sessions.connection(peer.transport(), config, responder)
    model = ScriptedModel(uses(("srv__ask_user", {})), says("Hello Ada."))
    engine = TurnEngine(model, await list_tool_table({"srv": conn}), Conversation(policy="all"))
    task = asyncio.ensure_future(engine.run_turn("greet"))
    await until(lambda: bool(peer.requests("tools/call")), "the tool call")
    peer.ask("elicitation/create", {"message": "Name?", "requestedSchema": {"type": "object"}})
    await until(peer.answers, "the responder's answer")
    answer = peer.answers()[0]
    assert isinstance(answer, Response) and answer.result["content"] == {"name": "Ada"}
    peer.reply(peer.requests("tools/call")[0], {"content": [{"type": "text", "text": "Ada"}]})
    turn = await task
    assert turn.outcome == "answered" and turn.tool_calls[0].result is not None


async def test_a_server_that_exits_mid_call_is_a_failed_call_and_later_calls_say_so(
    tool_server: tuple[ScriptedPeer, ServerConnection],
) -> None:
    peer, conn = tool_server
    model = ScriptedModel(
        uses(("calc__slow", {})), uses(("calc__add", {"a": 1, "b": 1})), says("It is gone.")
    )
    engine, _ = await _engine(conn, model)
    task = asyncio.ensure_future(engine.run_turn("go"))
    await until(lambda: bool(peer.requests("tools/call")), "the tool call")
    assert peer.link is not None
    peer.link.hang_up("the server exited", exit_code=3)
    turn = await task
    assert (turn.outcome, turn.final_text) == ("answered", "It is gone.")
    slow, add = turn.tool_calls
    assert slow.is_error and "the server exited" in slow.error
    assert add.is_error and add.error  # sent on a closed connection: a sentence, no crash


def test_a_flood_of_calls_and_huge_instructions_are_bounded() -> None:
    table = ToolTable.build([("off", [{"name": "t"}], None)])
    flood = uses(*[(f"nope{n}", {}) for n in range(MAX_CALLS_PER_STEP + 2)])
    model = ScriptedModel(flood, says("ok"))
    engine = TurnEngine(
        model, table, Conversation(policy="all"), instructions={"off": "x" * 30_000}
    )
    turn = asyncio.run(engine.run_turn("go"))
    decisions = [c.decision for c in turn.tool_calls]
    assert decisions.count("unknown-tool") == MAX_CALLS_PER_STEP
    assert decisions[-2:] == ["refused", "refused"] and turn.outcome == "answered"
    assert len(model.requests[0].system) < 20_100 and "characters cut" in model.requests[0].system
