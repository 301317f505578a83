"""The pieces both wire formats share (limits.text_in_place_of, reply.shape_of and
reply.model_reply), and that the OpenAI and Anthropic formats really go through them alike."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.features.asks.sampling import SamplingMessage, SamplingRequest
from inspector.features.providers.limits import text_in_place_of, wire_part
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


WITH_AUDIO = ProviderConfig(kind="openai", name="Voice", modalities=("text", "image", "audio"))


def _shape(block: dict[str, Any]) -> dict[str, Any] | None:
    return {"type": "shaped", "from": block["type"]}


def test_wire_part_sends_text_as_text_whatever_the_shapes() -> None:
    notes: list[str] = []
    part = wire_part({"type": "text", "text": 7}, TEXT_ONLY, "messages[0]", notes, {})
    assert part == {"type": "text", "text": "7"}
    assert notes == []


def test_wire_part_shapes_media_only_for_a_provider_that_takes_them() -> None:
    shapes = {"image": _shape, "audio": _shape}
    notes: list[str] = []
    assert wire_part(AUDIO, WITH_AUDIO, "messages[0]", notes, shapes) == {
        "type": "shaped",
        "from": "audio",
    }
    assert notes == []
    part = wire_part(AUDIO, TEXT_ONLY, "messages[1]", notes, shapes)
    assert part["type"] == "text" and "left out" in part["text"]
    assert notes == ["audio in messages[1] sent as a placeholder text: Local cannot take it"]


def test_wire_part_shapes_other_kinds_whatever_the_modalities() -> None:
    notes: list[str] = []
    block = {"type": "tool_use", "id": "t1", "name": "add", "input": {}}
    part = wire_part(block, TEXT_ONLY, "messages[0]", notes, {"tool_use": _shape})
    assert part == {"type": "shaped", "from": "tool_use"}
    assert notes == []


def test_a_shape_that_cannot_carry_a_block_leaves_it_to_the_placeholder() -> None:
    notes: list[str] = []
    part = wire_part(AUDIO, WITH_AUDIO, "messages[0]", notes, {"audio": lambda _b: None})
    assert part["type"] == "text"
    assert notes == ["audio in messages[0] sent as a placeholder text: Voice cannot take it"]


def test_wire_part_takes_a_type_that_is_not_a_string() -> None:
    notes: list[str] = []
    part = wire_part({"type": ["x"]}, TEXT_ONLY, "messages[0]", notes, {"image": _shape})
    assert part["type"] == "text"
    assert notes == ["['x'] content in messages[0] is unknown; sent as its JSON text"]
