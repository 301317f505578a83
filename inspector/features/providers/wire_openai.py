"""A sampling request as an OpenAI-compatible chat completion, and the completion back as a
CreateMessageResult's content (OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio)."""

from __future__ import annotations

import json
from typing import Any, Final

from inspector.features.asks.sampling import SamplingRequest, block_text
from inspector.features.providers.limits import PartShape, common_notes, max_tokens_for, wire_part
from inspector.features.providers.providers import ModelEntry, ProviderConfig
from inspector.features.providers.reply import model_reply, shape_of
from inspector.features.providers.types import ModelReply, WireRequest

__all__ = ["openai_reply", "openai_request"]

MAX_STOPS: Final = 4  # the API takes at most four stop sequences
# finish_reason → MCP stopReason (an open string: unknown reasons pass through as they are).
FINISH: Final = {"stop": "endTurn", "length": "maxTokens", "tool_calls": "toolUse"}
AUDIO_FORMATS: Final = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
}


def _image_url(block: dict[str, Any]) -> dict[str, Any]:
    url = f"data:{block.get('mimeType', 'image/png')};base64,{block.get('data', '')}"
    return {"type": "image_url", "image_url": {"url": url}}


def _input_audio(block: dict[str, Any]) -> dict[str, Any] | None:
    fmt = AUDIO_FORMATS.get(str(block.get("mimeType", "")))
    if fmt is None:
        return None
    return {"type": "input_audio", "input_audio": {"data": block.get("data"), "format": fmt}}


SHAPES: Final[dict[str, PartShape]] = {"image": _image_url, "audio": _input_audio}


def _messages(
    request: SamplingRequest, provider: ProviderConfig, notes: list[str]
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if request.system_prompt:
        out.append({"role": "system", "content": request.system_prompt})
    for i, message in enumerate(request.messages):
        where = f"messages[{i}]"
        role = message.role if message.role in ("user", "assistant") else "user"
        calls = [b for b in message.blocks if b.get("type") == "tool_use"]
        results = [b for b in message.blocks if b.get("type") == "tool_result"]
        rest = [b for b in message.blocks if b.get("type") not in ("tool_use", "tool_result")]
        for result in results:  # a tool's answer is a message of its own
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": str(result.get("toolUseId", "")),
                    "content": block_text(result),
                }
            )
        parts = [wire_part(b, provider, where, notes, SHAPES) for b in rest]
        if calls and role == "assistant":
            text = "\n".join(p["text"] for p in parts if p.get("type") == "text")
            out.append(
                {
                    "role": "assistant",
                    "content": text or None,
                    "tool_calls": [
                        {
                            "id": str(c.get("id", "")),
                            "type": "function",
                            "function": {
                                "name": str(c.get("name", "")),
                                "arguments": json.dumps(c.get("input") or {}),
                            },
                        }
                        for c in calls
                    ],
                }
            )
        elif parts:
            only_text = all(p["type"] == "text" for p in parts)
            content: Any = "\n".join(p["text"] for p in parts) if only_text else parts
            if role == "assistant" and not only_text:
                notes.append(f"{where}: an assistant message can hold text only; sent its text")
                content = "\n".join(p.get("text", "") for p in parts)
            out.append({"role": role, "content": content})
    return out


def openai_request(
    request: SamplingRequest, provider: ProviderConfig, model: ModelEntry
) -> WireRequest:
    notes = common_notes(request, provider)
    body: dict[str, Any] = {
        "model": model.name,
        "messages": _messages(request, provider, notes),
        "max_tokens": max_tokens_for(request, model, notes),
    }
    if request.temperature is not None:
        temperature = min(max(request.temperature, 0.0), 2.0)
        if temperature != request.temperature:
            notes.append(
                f"temperature {request.temperature:g} is outside 0..2; sent {temperature:g}"
            )
        body["temperature"] = temperature
    if request.stop_sequences:
        stops = request.stop_sequences[:MAX_STOPS]
        if len(stops) < len(request.stop_sequences):
            notes.append(
                f"{len(request.stop_sequences)} stopSequences; the API takes {MAX_STOPS}, "
                "the first were sent"
            )
        body["stop"] = stops
    if request.tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": str(tool.get("name", "")),
                    "description": str(tool.get("description", "")),
                    "parameters": tool.get("inputSchema") or {"type": "object"},
                },
            }
            for tool in request.tools
        ]
        mode = (request.tool_choice or {}).get("mode", "auto")
        body["tool_choice"] = mode if mode in ("auto", "required", "none") else "auto"
    return WireRequest(body, notes)


def openai_reply(data: Any) -> ModelReply:
    """The completion's first choice; anything that is not the API's shape is `garbage`."""
    with shape_of("a chat completion"):
        choice = data["choices"][0]
        message = choice["message"]
        blocks: list[dict[str, Any]] = []
        if isinstance(message.get("content"), str) and message["content"]:
            blocks.append({"type": "text", "text": message["content"]})
        for call in message.get("tool_calls") or []:
            fn = call["function"]
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except ValueError:
                args = {"_unparsed_arguments": fn.get("arguments")}
            blocks.append(
                {
                    "type": "tool_use",
                    "id": str(call.get("id", "")),
                    "name": str(fn["name"]),
                    "input": args,
                }
            )
        if not blocks and message.get("refusal"):
            blocks.append({"type": "text", "text": str(message["refusal"])})
        finish = str(choice.get("finish_reason") or "")
        return model_reply(data, blocks, finish, FINISH, ("prompt_tokens", "completion_tokens"))
