"""A sampling request as an Anthropic Messages API request, and the message back as a
CreateMessageResult's content."""

from __future__ import annotations

from typing import Any, Final

from inspector.features.asks.sampling import SamplingRequest, block_text
from inspector.features.providers.limits import PartShape, common_notes, max_tokens_for, wire_part
from inspector.features.providers.providers import ModelEntry, ProviderConfig
from inspector.features.providers.reply import model_reply, shape_of
from inspector.features.providers.types import ModelReply, WireRequest

__all__ = ["anthropic_reply", "anthropic_request"]

STOP: Final = {
    "end_turn": "endTurn",
    "max_tokens": "maxTokens",
    "stop_sequence": "stopSequence",
    "tool_use": "toolUse",
}
CHOICE: Final = {"auto": "auto", "required": "any", "none": "none"}


def _image(block: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": str(block.get("mimeType", "image/png")),
            "data": str(block.get("data", "")),
        },
    }


def _tool_use(block: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": str(block.get("id", "")),
        "name": str(block.get("name", "")),
        "input": block.get("input") or {},
    }


def _tool_result(block: dict[str, Any]) -> dict[str, Any]:
    inner = block.get("content")
    texts = (
        [{"type": "text", "text": block_text(b)} for b in inner if isinstance(b, dict)]
        if isinstance(inner, list)
        else []
    )
    result: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": str(block.get("toolUseId", "")),
        "content": texts,
    }
    if block.get("isError"):
        result["is_error"] = True
    return result


# The Messages API takes no audio at all.
SHAPES: Final[dict[str, PartShape]] = {
    "image": _image,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
}


def anthropic_request(
    request: SamplingRequest, provider: ProviderConfig, model: ModelEntry
) -> WireRequest:
    notes = common_notes(request, provider)
    messages = []
    for i, message in enumerate(request.messages):
        role = message.role if message.role in ("user", "assistant") else "user"
        where = f"messages[{i}]"
        blocks = [wire_part(b, provider, where, notes, SHAPES) for b in message.blocks]
        messages.append({"role": role, "content": blocks})
    body: dict[str, Any] = {
        "model": model.name,
        "max_tokens": max_tokens_for(request, model, notes),
        "messages": messages,
    }
    if request.system_prompt:
        body["system"] = request.system_prompt
    if request.temperature is not None:
        # The Messages API of the official SDK (2.x) takes no sampling parameters.
        notes.append(
            f"temperature {request.temperature:g} was not sent: the Anthropic Messages API "
            "does not take it"
        )
    if request.stop_sequences:
        body["stop_sequences"] = list(request.stop_sequences)
    if request.tools:
        body["tools"] = [
            {
                "name": str(tool.get("name", "")),
                "description": str(tool.get("description", "")),
                "input_schema": tool.get("inputSchema") or {"type": "object"},
            }
            for tool in request.tools
        ]
        mode = str((request.tool_choice or {}).get("mode", "auto"))
        body["tool_choice"] = {"type": CHOICE.get(mode, "auto")}
    return WireRequest(body, notes)


def anthropic_reply(data: Any) -> ModelReply:
    with shape_of("a Messages API message"):
        if data.get("type") != "message":
            raise KeyError("type is not 'message'")
        blocks: list[dict[str, Any]] = []
        for block in data["content"]:
            if block["type"] == "text":
                blocks.append({"type": "text", "text": str(block["text"])})
            elif block["type"] == "tool_use":
                blocks.append(
                    {
                        "type": "tool_use",
                        "id": str(block["id"]),
                        "name": str(block["name"]),
                        "input": block.get("input") or {},
                    }
                )
        stop = str(data.get("stop_reason") or "")
        return model_reply(data, blocks, stop, STOP, ("input_tokens", "output_tokens"))
