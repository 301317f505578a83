"""A chat with tools in the OpenAI-compatible chat completions format (OpenAI, Ollama, vLLM,
llama.cpp's server, LM Studio, OpenRouter): the request body, and the reply read whole or
from the stream's chunks.

- tools go as `tools: [{type: function, function: {name, description, parameters}}]`;
- the model's calls come back as `tool_calls` (streamed: fragments by `index`);
- each tool result goes back as a `role: tool` message with its `tool_call_id` (the format
  has no error flag: a failed call's text is prefixed "Error: ");
- usage: `prompt_tokens`/`completion_tokens`, streamed when asked with
  `stream_options.include_usage`; `usage.cost` when the provider reports one.
"""

from __future__ import annotations

import json
from typing import Any, Final

from inspector.features.providers.chat_reply import ReplyBuilder
from inspector.features.providers.chat_types import ChatMessage, ChatRequest
from inspector.features.providers.reply import shape_of
from inspector.features.providers.types import ModelError

__all__ = ["FINISH", "openai_chat_body", "openai_read_chunk", "openai_read_whole"]

FINISH: Final = {"stop": "endTurn", "length": "maxTokens", "tool_calls": "toolUse"}


def _arguments_text(arguments: Any, raw: str) -> str:
    """What the model wrote, sent back as it wrote it (or the JSON of what the host kept)."""
    if raw:
        return raw
    return json.dumps(arguments if arguments is not None else {}, ensure_ascii=False)


def _message(message: ChatMessage) -> dict[str, Any]:
    if message.role == "tool":
        text = f"Error: {message.text}" if message.is_error else message.text
        return {"role": "tool", "tool_call_id": message.tool_use_id, "content": text}
    if message.role == "assistant" and message.tool_uses:
        return {
            "role": "assistant",
            "content": message.text or None,
            "tool_calls": [
                {
                    "id": use.id,
                    "type": "function",
                    "function": {
                        "name": use.name,
                        "arguments": _arguments_text(use.arguments, use.raw_arguments),
                    },
                }
                for use in message.tool_uses
            ],
        }
    return {"role": message.role, "content": message.text}


def openai_chat_body(request: ChatRequest, *, stream: bool) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    if request.system:
        messages.append({"role": "system", "content": request.system})
    messages += [_message(m) for m in request.messages]
    body: dict[str, Any] = {
        "model": request.model,
        "messages": messages,
        "max_tokens": request.max_tokens,
    }
    if request.tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": tool.input_schema or {"type": "object", "properties": {}},
                },
            }
            for tool in request.tools
        ]
    if stream:
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
    return body


def _usage(builder: ReplyBuilder, usage: Any) -> None:
    builder.add_usage_of(usage, "prompt_tokens", "completion_tokens")


def _error_in(data: Any) -> None:
    """Some servers put an error object where a completion or chunk should be."""
    if isinstance(data, dict) and isinstance(data.get("error"), dict | str):
        error = data["error"]
        said = error.get("message", error) if isinstance(error, dict) else error
        raise ModelError("server", f"the provider reported an error: {said}")


def openai_read_whole(data: Any, builder: ReplyBuilder) -> None:
    """A whole completion into `builder`; not the API's shape is ModelError('garbage')."""
    _error_in(data)
    with shape_of("a chat completion"):
        choice = data["choices"][0]
        message = choice["message"]
        content = message.get("content")
        if isinstance(content, str):
            builder.add_text(content)
        for index, call in enumerate(message.get("tool_calls") or []):
            fn = call["function"]
            builder.start_call(index, str(call.get("id") or ""), str(fn.get("name") or ""))
            arguments = fn.get("arguments")
            if isinstance(arguments, dict):  # a few local servers send the object itself
                arguments = json.dumps(arguments, ensure_ascii=False)
            builder.add_arguments(index, str(arguments or ""))
        builder.stop = str(choice.get("finish_reason") or "")
        builder.model = str(data.get("model") or "")
        _usage(builder, data.get("usage"))


def _index(builder: ReplyBuilder, call: dict[str, Any], position: int) -> int:
    """Which call a streamed fragment belongs to: its `index`; without one (some servers
    send each call whole, each at position 0), a call with a new id is a new call."""
    index = call.get("index")
    if isinstance(index, int) and not isinstance(index, bool):
        return index
    known = builder.calls.get(position)
    new_id = call.get("id")
    if known is not None and new_id and known.id and new_id != known.id:
        return max(builder.calls) + 1
    return position


def openai_read_chunk(data: Any, builder: ReplyBuilder) -> bool:
    """One streamed chunk into `builder`; True once the finish reason has come."""
    _error_in(data)
    with shape_of("a chat completion chunk"):
        if data.get("model"):
            builder.model = str(data["model"])
        _usage(builder, data.get("usage"))
        finished = False
        for choice in data.get("choices") or []:
            delta = choice.get("delta") or {}
            content = delta.get("content")
            if isinstance(content, str):
                builder.add_text(content)
            for position, call in enumerate(delta.get("tool_calls") or []):
                index = _index(builder, call, position)
                fn = call.get("function") or {}
                builder.start_call(index, str(call.get("id") or ""), str(fn.get("name") or ""))
                fragment = fn.get("arguments")
                if isinstance(fragment, dict):  # a few local servers send the object whole
                    fragment = json.dumps(fragment, ensure_ascii=False)
                if isinstance(fragment, str):
                    builder.add_arguments(index, fragment)
            if choice.get("finish_reason"):
                builder.stop = str(choice["finish_reason"])
                finished = True
        return finished
