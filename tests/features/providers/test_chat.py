"""`chat()` against the model stand-in, in both wire formats, whole and streamed: tool calls
come back assembled, tool results go back in each format's way, text streams as it arrives,
usage and cost are read, and every failure is a ModelError with a sentence."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest

from inspector.features.providers import chat as chat_module
from inspector.features.providers.chat import chat
from inspector.features.providers.chat_types import ChatMessage, ChatRequest, ToolSpec, ToolUse
from inspector.features.providers.names import ProviderKind
from inspector.features.providers.providers import ModelEntry, ProviderConfig
from inspector.features.providers.types import ModelError, ModelExchange
from tests.helpers.model_standin import StandIn, model_standin, provider_for

TOOLS = (ToolSpec("demo__add", "Adds two numbers", {"type": "object"}),)
SCRIPT: dict[str, Any] = {
    "rules": [
        {
            "name": "adds",
            "when": {"lastUserContains": "add", "lastIsToolResult": False},
            "reply": {
                "text": "Let me add those.",
                "toolCalls": [{"name": "add", "arguments": {"a": 2, "b": 3}}],
                "cost": 0.25,
            },
        },
        {
            "name": "answers",
            "when": {"toolResultContains": "5"},
            "reply": {"text": "It is {toolResult}."},
        },
        {
            "name": "bad arguments",
            "when": {"lastUserContains": "garble"},
            "reply": {"toolCalls": [{"name": "add", "rawArguments": '{"a": 2,'}]},
        },
        {"name": "slow", "when": {"lastUserContains": "slow"}, "fault": {"delay": 30}},
        {
            "name": "limit",
            "when": {"lastUserContains": "limit"},
            "fault": {"status": 429, "retryAfter": 7, "message": "slow down"},
        },
        {
            "name": "down",
            "when": {"lastUserContains": "down"},
            "fault": {"status": 500, "message": "boom"},
        },
        {
            "name": "key",
            "when": {"lastUserContains": "key"},
            "fault": {"status": 401, "message": "bad key"},
        },
        {"name": "json", "when": {"lastUserContains": "json"}, "fault": {"malformedJson": True}},
        {
            "name": "broken",
            "when": {"lastUserContains": "broken"},
            "reply": {"text": "x" * 80},
            "fault": {"brokenStream": True},
        },
        {
            "name": "cut",
            "when": {"lastUserContains": "cut"},
            "reply": {"text": "y" * 80},
            "fault": {"cutStream": True},
        },
        {
            "name": "ignores",
            "when": {"lastUserContains": "whole"},
            "reply": {"text": "all at once"},
            "fault": {"ignoreStream": True},
        },
        {
            "name": "overloaded",
            "when": {"lastUserContains": "overload"},
            "reply": {"text": "z" * 80},
            "fault": {"errorEvent": "Overloaded"},
        },
        {"name": "huge", "when": {"lastUserContains": "huge"}, "fault": {"hugeBytes": 5000}},
    ]
}
CASES = [(k, s) for k in ("openai", "anthropic") for s in (False, True)]


def ask(text: str, *history: ChatMessage) -> ChatRequest:
    return ChatRequest("standin", "Be brief.", (*history, ChatMessage("user", text)), TOOLS)


async def run(
    standin: StandIn, kind: ProviderKind, stream: bool, request: ChatRequest, **kw: Any
) -> tuple[Any, list[str], list[ModelExchange]]:
    pieces: list[str] = []
    seen: list[ModelExchange] = []
    reply = await chat(
        provider_for(standin, kind),
        kw.pop("key", None),
        request,
        timeout=kw.pop("timeout", 10),
        on_text=pieces.append if stream else None,
        on_exchange=seen.append,
    )
    return reply, pieces, seen


@pytest.mark.parametrize(("kind", "stream"), CASES)
async def test_a_tool_call_and_its_result_make_a_round_trip(
    kind: ProviderKind, stream: bool
) -> None:
    with model_standin(SCRIPT) as standin:
        reply, pieces, seen = await run(
            standin, kind, stream, ask("please add 2 and 3"), key="sk-secret"
        )
        assert reply.text == "Let me add those."
        assert [(u.name, u.arguments) for u in reply.tool_uses] == [("demo__add", {"a": 2, "b": 3})]
        assert reply.stop_reason == "toolUse"
        assert reply.usage.input_tokens and reply.usage.output_tokens
        assert reply.cost == (0.25 if kind == "openai" else None)
        if stream:
            assert len(pieces) > 1 and "".join(pieces) == reply.text  # as it arrived
        assert "sk-secret" not in json.dumps(seen[0].to_json())
        assert seen[0].status == 200 and "demo__add" in seen[0].response_body

        use = reply.tool_uses[0]
        history = (
            ChatMessage("user", "please add 2 and 3"),
            ChatMessage("assistant", reply.text, reply.tool_uses),
            ChatMessage("tool", "5", tool_use_id=use.id),
        )
        request = ChatRequest("standin", "", history, TOOLS)
        final, _, _ = await run(standin, kind, stream, request)
        assert final.text == "It is 5." and final.tool_uses == () and final.stop_reason == "endTurn"

        sent = standin.received[-1].body
        if kind == "openai":
            assert sent["messages"][-1] == {"role": "tool", "tool_call_id": use.id, "content": "5"}
            assert sent["messages"][-2]["tool_calls"][0]["function"]["name"] == "demo__add"
        else:
            assert sent["messages"][-1] == {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "5"}],
            }
            assert sent["messages"][-2]["content"][1]["type"] == "tool_use"


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_a_whole_answer_to_a_stream_request_and_an_error_event_mid_stream(
    kind: ProviderKind,
) -> None:
    with model_standin(SCRIPT) as standin:
        reply, pieces, _ = await run(standin, kind, True, ask("answer whole"))
        assert reply.text == "all at once" and pieces == ["all at once"]
        with pytest.raises(ModelError, match="Overloaded") as info:
            await run(standin, kind, True, ask("overload"))
        assert info.value.kind == "server"


@pytest.mark.parametrize(("kind", "stream"), CASES)
async def test_arguments_that_are_not_json_are_kept_raw(kind: ProviderKind, stream: bool) -> None:
    with model_standin(SCRIPT) as standin:
        reply, _, _ = await run(standin, kind, stream, ask("garble it"))
        (use,) = reply.tool_uses
        if kind == "anthropic" and not stream:
            return  # the whole Messages answer always holds an object (the stand-in's `_raw`)
        assert use.arguments is None and use.raw_arguments == '{"a": 2,'


FAILURES = [
    ("limit", "rate-limited", r"rate-limiting \(HTTP 429\): slow down; it asks to retry after 7 s"),
    ("down", "server", r"failed \(HTTP 500\): boom"),
    ("key", "auth", r"refused the API key \(HTTP 401\): bad key"),
    ("json", "garbage", r"not JSON"),
    ("cut", "connection", r"cut off mid-way"),
]


@pytest.mark.parametrize(("kind", "stream"), CASES)
async def test_every_failure_is_a_sentence(kind: ProviderKind, stream: bool) -> None:
    with model_standin(SCRIPT) as standin:
        for word, error_kind, sentence in [*FAILURES, ("broken", "garbage", "not JSON")]:
            with pytest.raises(ModelError, match=sentence) as info:
                await run(standin, kind, stream, ask(word))
            assert info.value.kind == error_kind, word
        assert info.value.retryable


async def test_retry_after_is_kept_and_failed_exchanges_are_logged() -> None:
    with model_standin(SCRIPT) as standin:
        seen: list[ModelExchange] = []
        with pytest.raises(ModelError) as info:
            await chat(provider_for(standin), "k", ask("limit"), timeout=5, on_exchange=seen.append)
        assert info.value.retry_after == 7.0 and info.value.status == 429
        assert seen[0].status == 429 and "slow down" in seen[0].response_body
        assert seen[0].error == str(info.value)


@pytest.mark.parametrize("stream", [False, True])
async def test_a_slow_model_times_out(stream: bool) -> None:
    with model_standin(SCRIPT) as standin:
        with pytest.raises(
            ModelError,
            match=r"no answer from http://127.0.0.1:\d+/v1/chat/completions within 0.3 s",
        ) as info:
            await run(standin, "openai", stream, ask("slow"), timeout=0.3)
        assert info.value.kind == "timeout"


async def test_a_refused_connection_says_so() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = ProviderConfig(
        "openai", base_url=f"http://127.0.0.1:{port}/v1", models=[ModelEntry("m")]
    )
    seen: list[ModelExchange] = []
    with pytest.raises(ModelError, match="connection was refused") as info:
        await chat(provider, None, ask("hi"), timeout=5, on_exchange=seen.append)
    assert info.value.kind == "connection" and seen[0].status is None and seen[0].error


@pytest.mark.parametrize("stream", [False, True])
async def test_a_huge_answer_is_capped(monkeypatch: pytest.MonkeyPatch, stream: bool) -> None:
    monkeypatch.setattr(chat_module, "MAX_BODY", 2000)
    monkeypatch.setattr(chat_module, "MAX_STREAM", 2000)
    with model_standin(SCRIPT) as standin:
        with pytest.raises(
            ModelError, match=r"sent (an answer over|too much: the stream went over) 2,000 bytes"
        ) as info:
            await run(standin, "anthropic", stream, ask("huge"))
        assert info.value.kind == "garbage"


def test_streamed_calls_without_an_index_or_with_whole_arguments() -> None:
    from inspector.features.providers.chat_openai import openai_read_chunk
    from inspector.features.providers.chat_reply import ReplyBuilder

    builder = ReplyBuilder()
    for call_id, name, arguments in [("a", "one", {"x": 1}), ("b", "two", '{"y": 2}')]:
        call = {"id": call_id, "function": {"name": name, "arguments": arguments}}
        openai_read_chunk({"choices": [{"delta": {"tool_calls": [call]}}]}, builder)
    openai_read_chunk({"choices": [{"delta": {}, "finish_reason": "tool_calls"}]}, builder)
    uses = builder.tool_uses()
    assert [(u.id, u.name, u.arguments) for u in uses] == [
        ("a", "one", {"x": 1}),
        ("b", "two", {"y": 2}),
    ]


def test_anthropic_results_share_one_user_message_and_errors_are_flagged() -> None:
    from inspector.features.providers.chat_anthropic import anthropic_chat_body
    from inspector.features.providers.chat_openai import openai_chat_body, openai_read_whole
    from inspector.features.providers.chat_reply import ReplyBuilder

    uses = (ToolUse("t1", "a", {}, "{}"), ToolUse("t2", "b", None, "{oops"))
    messages = (
        ChatMessage("user", "go"),
        ChatMessage("assistant", "", uses),
        ChatMessage("tool", "fine", tool_use_id="t1"),
        ChatMessage("tool", "no such thing", tool_use_id="t2", is_error=True),
        ChatMessage("user", "and now?"),
    )
    body = anthropic_chat_body(ChatRequest("m", "", messages), stream=False)
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    last = body["messages"][2]["content"]
    assert [b["type"] for b in last] == ["tool_result", "tool_result", "text"]
    assert last[1]["is_error"] is True
    assert body["messages"][1]["content"][1]["input"] == {}  # not JSON: an empty object goes back
    openai = openai_chat_body(ChatRequest("m", "", messages), stream=True)
    assert openai["stream_options"] == {"include_usage": True}
    assert openai["messages"][1]["tool_calls"][1]["function"]["arguments"] == "{oops"
    assert openai["messages"][3]["content"] == "Error: no such thing"
    with pytest.raises(ModelError, match=r"not a chat completion \(IndexError") as info:
        openai_read_whole({"choices": []}, ReplyBuilder())
    assert info.value.kind == "garbage"
