"""Drafts from the loopback providers (tests/helpers/model_stubs.py), which validate each
request as the real APIs do: the whole request (messages, systemPrompt, maxTokens,
temperature, stopSequences, tools, toolChoice) in each wire format, tool use back, and
model/stopReason/usage from the provider."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from inspector.features.asks.sampling import parse_sampling_request
from inspector.features.providers.drafter import Drafter
from inspector.features.providers.providers import ModelEntry, ProviderConfig
from inspector.features.providers.types import ModelExchange
from tests.helpers.model_stubs import Kind, ModelStub, Reply, model_stub

FULL: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": {"type": "text", "text": "What is the weather in Paris?"}},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "t1", "name": "weather", "input": {"city": "Paris"}}
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "toolUseId": "t1",
                    "content": [{"type": "text", "text": "18°C, light rain"}],
                }
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "And this picture?"},
                {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
            ],
        },
    ],
    "systemPrompt": "Be brief.",
    "maxTokens": 300,
    "temperature": 0.4,
    "stopSequences": ["\n\nEND"],
    "includeContext": "thisServer",
    "tools": [
        {
            "name": "weather",
            "description": "Weather by city",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
        }
    ],
    "toolChoice": {"mode": "auto"},
    "modelPreferences": {"hints": [{"name": "small"}]},
}


@pytest.fixture(params=["openai", "anthropic"])
def provider_stub(request: pytest.FixtureRequest) -> Iterator[ModelStub]:
    kind: Kind = request.param
    with model_stub(kind, key="sk-test-key") as server:
        yield server


def drafter_for(
    stub: ModelStub, key: str | None = "sk-test-key", **kw: Any
) -> tuple[Drafter, list[ModelExchange]]:
    provider = ProviderConfig(
        stub.kind,
        base_url=stub.base_url,
        models=[ModelEntry("stub-small"), ModelEntry("stub-large")],
        timeout=5,
    )
    seen: list[ModelExchange] = []
    return Drafter([provider], lambda _p: key, on_exchange=seen.append, **kw), seen


async def test_the_whole_request_is_sent_and_the_text_comes_back(provider_stub: ModelStub) -> None:
    drafter, seen = drafter_for(provider_stub)
    draft = await drafter.draft(parse_sampling_request(FULL))
    body = provider_stub.received[-1].body
    assert body["model"] == "stub-small"
    assert body["max_tokens"] == 300
    if provider_stub.kind == "openai":
        assert body["messages"][0] == {"role": "system", "content": "Be brief."}
        assert body["messages"][2]["tool_calls"][0]["function"]["name"] == "weather"
        assert body["messages"][3] == {
            "role": "tool", "tool_call_id": "t1", "content": "[tool result t1]\n18°C, light rain"
        }  # fmt: skip
        assert body["messages"][4]["content"][1]["image_url"]["url"].startswith("data:image/png")
        assert body["stop"] == ["\n\nEND"] and body["tool_choice"] == "auto"
        assert body["tools"][0]["function"]["parameters"]["properties"]["city"]
        assert body["temperature"] == 0.4
        assert draft.result["model"] == "stub-small-2026-01-01"  # the provider's, not ours
    else:
        assert body["system"] == "Be brief."
        assert "temperature" not in body
        assert any("temperature 0.4 was not sent" in n for n in draft.notes)
        assert body["messages"][1]["content"][0]["type"] == "tool_use"
        assert body["messages"][2]["content"][0]["tool_use_id"] == "t1"
        assert body["messages"][3]["content"][1]["source"]["media_type"] == "image/png"
        assert body["stop_sequences"] == ["\n\nEND"]
        assert body["tool_choice"] == {"type": "auto"}
        assert body["tools"][0]["input_schema"]["type"] == "object"
        assert draft.result["model"] == "stub-small"
    assert draft.result["content"] == {"type": "text", "text": "Stub says: And this picture?"}
    assert draft.result["stopReason"] == "endTurn"
    assert draft.reply.usage.input_tokens and draft.reply.usage.output_tokens
    assert "hint 1 'small'" in draft.choice.reason
    assert any("includeContext is 'thisServer'" in n for n in draft.notes)
    # The exchange, for the traffic log and session files: the key never in it.
    assert len(seen) == 1 and seen[0].status == 200
    assert "sk-test-key" not in str(seen[0].to_json())
    assert "Stub says" in seen[0].response_body


async def test_tool_use_comes_back_as_a_tool_use_block(provider_stub: ModelStub) -> None:
    provider_stub.script.append(Reply(tool_call=("weather", {"city": "Lyon"})))
    drafter, _ = drafter_for(provider_stub)
    draft = await drafter.draft(parse_sampling_request(FULL))
    content = draft.result["content"]
    assert content["type"] == "tool_use"
    assert content["name"] == "weather" and content["input"] == {"city": "Lyon"}
    assert draft.result["stopReason"] == "toolUse"


async def test_required_tool_choice_maps_to_each_api(provider_stub: ModelStub) -> None:
    drafter, _ = drafter_for(provider_stub)
    await drafter.draft(parse_sampling_request({**FULL, "toolChoice": {"mode": "required"}}))
    choice = provider_stub.received[-1].body["tool_choice"]
    assert choice == ("required" if provider_stub.kind == "openai" else {"type": "any"})


async def test_stop_reason_max_tokens(provider_stub: ModelStub) -> None:
    provider_stub.script.append(
        Reply(text="cut", stop="length" if provider_stub.kind == "openai" else "max_tokens")
    )
    drafter, _ = drafter_for(provider_stub)
    draft = await drafter.draft(parse_sampling_request(FULL))
    assert draft.result["stopReason"] == "maxTokens"


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_a_local_server_gets_no_key_at_all(kind: Kind) -> None:
    with model_stub(kind) as stub:  # accepts anything: a local server
        drafter, _ = drafter_for(stub, key=None)
        await drafter.draft(parse_sampling_request(FULL))
        headers = stub.received[-1].headers
        assert "authorization" not in headers and "x-api-key" not in headers
