"""A chat with tools in the Anthropic Messages format: the request body, and the reply read
whole or from the stream's events.

- tools go as `tools: [{name, description, input_schema}]`;
- the model's calls come back as `tool_use` content blocks (streamed: `input_json_delta`
  fragments per block);
- tool results go back as `tool_result` blocks (with `is_error`) in the next user message:
  consecutive results, and a user text after them, share one user message as the API
  requires;
- usage: `input_tokens` from `message_start`, `output_tokens` from `message_delta`.
"""

from __future__ import annotations

from typing import Any, Final

from inspector.features.providers.chat_reply import ReplyBuilder
from inspector.features.providers.chat_types import ChatMessage, ChatRequest
from inspector.features.providers.reply import shape_of
from inspector.features.providers.types import ModelError

__all__ = ["STOP", "anthropic_chat_body", "anthropic_read_event", "anthropic_read_whole"]

STOP: Final = {
    "end_turn": "endTurn",
    "max_tokens": "maxTokens",
    "stop_sequence": "stopSequence",
    "tool_use": "toolUse",
}


def _blocks(message: ChatMessage) -> list[dict[str, Any]]:
    if message.role == "tool":
        result: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": message.tool_use_id,
            "content": message.text,
        }
        if message.is_error:
            result["is_error"] = True
        return [result]
    blocks: list[dict[str, Any]] = []
    if message.text:  # the API refuses an empty text block
        blocks.append({"type": "text", "text": message.text})
    for use in message.tool_uses:
        arguments = use.arguments if isinstance(use.arguments, dict) else {}
        blocks.append({"type": "tool_use", "id": use.id, "name": use.name, "input": arguments})
    return blocks


def _messages(messages: tuple[ChatMessage, ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for message in messages:
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message) or [{"type": "text", "text": "(empty)"}]
        if out and out[-1]["role"] == role:
            out[-1]["content"] += blocks
        else:
            out.append({"role": role, "content": blocks})
    return out


def anthropic_chat_body(request: ChatRequest, *, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": _messages(request.messages),
    }
    if request.system:
        body["system"] = request.system
    if request.tools:
        body["tools"] = [
            {
                "name": tool.name,
                "description": tool.description,
                "input_schema": tool.input_schema or {"type": "object", "properties": {}},
            }
            for tool in request.tools
        ]
    if stream:
        body["stream"] = True
    return body


def _usage(builder: ReplyBuilder, usage: Any) -> None:
    builder.add_usage_of(usage, "input_tokens", "output_tokens")


def _error_in(data: Any) -> None:
    if isinstance(data, dict) and data.get("type") == "error":
        error = data.get("error")
        said = error.get("message", error) if isinstance(error, dict) else error
        kind = error.get("type") if isinstance(error, dict) else ""
        if kind == "overloaded_error":
            raise ModelError("server", f"the provider is overloaded: {said}")
        raise ModelError("server", f"the provider reported an error: {said}")


def anthropic_read_whole(data: Any, builder: ReplyBuilder) -> None:
    _error_in(data)
    with shape_of("a Messages API message"):
        if data.get("type") != "message":
            raise KeyError("type is not 'message'")
        for index, block in enumerate(data["content"]):
            if block["type"] == "text":
                builder.add_text(str(block["text"]))
            elif block["type"] == "tool_use":
                builder.whole_call(index, str(block["id"]), str(block["name"]), block["input"])
        builder.stop = str(data.get("stop_reason") or "")
        builder.model = str(data.get("model") or "")
        _usage(builder, data.get("usage"))


def anthropic_read_event(event: str, data: Any, builder: ReplyBuilder) -> bool:
    """One streamed event into `builder`; True at `message_stop`."""
    kind = data.get("type", event) if isinstance(data, dict) else event
    if kind == "error":
        _error_in({"type": "error", "error": data.get("error") if isinstance(data, dict) else ""})
    with shape_of(f"a Messages API {kind or 'stream'} event"):
        if kind == "message_start":
            message = data["message"]
            builder.model = str(message.get("model") or "")
            _usage(builder, message.get("usage"))
        elif kind == "content_block_start":
            block = data["content_block"]
            if block["type"] == "tool_use":
                builder.start_call(int(data["index"]), str(block["id"]), str(block["name"]))
        elif kind == "content_block_delta":
            delta = data["delta"]
            if delta["type"] == "text_delta":
                builder.add_text(str(delta["text"]))
            elif delta["type"] == "input_json_delta":
                builder.add_arguments(int(data["index"]), str(delta["partial_json"]))
        elif kind == "message_delta":
            stop = (data.get("delta") or {}).get("stop_reason")
            if stop:
                builder.stop = str(stop)
            _usage(builder, data.get("usage"))
        return kind == "message_stop"
