"""The pieces both wire formats share (limits.text_in_place_of, reply.shape_of and
reply.model_reply), and that the OpenAI and Anthropic formats really go through them alike."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.features.asks.sampling import SamplingMessage, SamplingRequest
from inspector.features.providers.limits import text_in_place_of
from inspector.features.providers.providers import ModelEntry, ProviderConfig
from inspector.features.providers.reply import model_reply, shape_of
from inspector.features.providers.types import ModelError, Usage
from inspector.features.providers.wire_anthropic import anthropic_reply, anthropic_request
from inspector.features.providers.wire_openai import openai_reply, openai_request

TEXT_ONLY = ProviderConfig(kind="openai", name="Local", modalities=("text",))
AUDIO = {"type": "audio", "mimeType": "audio/wav", "data": "AAAA"}


def test_media_the_provider_cannot_take_is_a_placeholder_and_a_note() -> None:
    notes: list[str] = []
    part = text_in_place_of(AUDIO, TEXT_ONLY, "messages[0]", notes)
    assert part["type"] == "text"
    assert "audio content in messages[0] left out" in part["text"]
    assert "Local is set up for text only" in part["text"]
    assert notes == ["audio in messages[0] sent as a placeholder text: Local cannot take it"]


def test_a_resource_is_sent_as_its_text_without_a_note() -> None:
    notes: list[str] = []
    block = {"type": "resource", "resource": {"uri": "file:///a.txt", "text": "hello"}}
    part = text_in_place_of(block, TEXT_ONLY, "messages[2]", notes)
    assert part["type"] == "text" and "hello" in part["text"]
    assert notes == []


def test_unknown_content_is_sent_as_its_json_text_with_a_note() -> None:
    notes: list[str] = []
    part = text_in_place_of({"type": "hologram", "x": 1}, TEXT_ONLY, "messages[1]", notes)
    assert part["type"] == "text" and '"hologram"' in part["text"]
    assert notes == ["'hologram' content in messages[1] is unknown; sent as its JSON text"]


@pytest.mark.parametrize(
    "wire",
    [
        lambda r, p, m: openai_request(r, p, m).body["messages"][0]["content"],
        lambda r, p, m: anthropic_request(r, p, m).body["messages"][0]["content"][0]["text"],
    ],
    ids=["openai", "anthropic"],
)
def test_both_wires_send_the_same_placeholder(wire: Any) -> None:
    request = SamplingRequest(messages=[SamplingMessage("user", [AUDIO])], max_tokens=10)
    sent = wire(request, TEXT_ONLY, ModelEntry("m"))
    expected = text_in_place_of(AUDIO, TEXT_ONLY, "messages[0]", [])["text"]
    assert sent == expected


def test_shape_of_turns_a_wrong_shape_into_garbage() -> None:
    with pytest.raises(ModelError) as caught, shape_of("a thing"):
        _ = {}["missing"]  # type: ignore[index]
    assert caught.value.kind == "garbage"
    assert str(caught.value) == "the answer is not a thing (KeyError: 'missing')"
    assert caught.value.retryable


def test_shape_of_lets_other_errors_through() -> None:
    with pytest.raises(ValueError), shape_of("a thing"):
        raise ValueError("not a shape problem")


@pytest.mark.parametrize("reply", [openai_reply, anthropic_reply], ids=["openai", "anthropic"])
@pytest.mark.parametrize("data", [{}, [], None, "text", {"choices": [], "content": 3}])
def test_both_wires_call_a_wrong_answer_garbage(reply: Any, data: Any) -> None:
    with pytest.raises(ModelError) as caught:
        reply(data)
    assert caught.value.kind == "garbage"
    assert str(caught.value).startswith("the answer is not a")


def test_model_reply_maps_the_stop_reason_and_reads_the_usage() -> None:
    data = {"model": "m-1", "usage": {"in": 3, "out": 4}}
    blocks = [{"type": "text", "text": "hi"}]
    reply = model_reply(data, blocks, "done", {"done": "endTurn"}, ("in", "out"))
    assert reply.blocks == blocks
    assert reply.stop_reason == "endTurn"
    assert reply.model == "m-1"
    assert reply.usage == Usage(3, 4)


def test_model_reply_keeps_an_unknown_stop_reason_and_fills_an_empty_answer() -> None:
    reply = model_reply({}, [], "content_filter", {"done": "endTurn"}, ("in", "out"))
    assert reply.blocks == [{"type": "text", "text": ""}]
    assert reply.stop_reason == "content_filter"
    assert reply.model == ""
    assert reply.usage == Usage(None, None)


def test_both_wires_read_an_empty_answer_alike() -> None:
    openai = openai_reply(
        {
            "model": "gpt",
            "choices": [{"message": {"content": ""}, "finish_reason": "length"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 2},
        }
    )
    anthropic = anthropic_reply(
        {
            "type": "message",
            "model": "claude",
            "content": [],
            "stop_reason": "max_tokens",
            "usage": {"input_tokens": 1, "output_tokens": 2},
        }
    )
    for reply in (openai, anthropic):
        assert reply.blocks == [{"type": "text", "text": ""}]
        assert reply.stop_reason == "maxTokens"
        assert reply.usage == Usage(1, 2)
