"""A server's sampling/createMessage request, read leniently for the sampling dialog.

Qt-free. The dialog shows what the server sent (every field the spec defines, and what
is wrong with it) and builds the CreateMessageResult the user approves. The same
request arrives as a legacy server request or a modern `inputRequests` entry.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "DEFAULT_MODEL",
    "STOP_REASONS",
    "SamplingMessage",
    "SamplingRequest",
    "block_text",
    "parse_sampling_request",
    "sampling_result",
    "transcript",
]

DEFAULT_MODEL: Final = "mcp-inspector-qt (human)"
# spec 2025-11-25 CreateMessageResult.stopReason: the standard values (an open string).
STOP_REASONS: Final = ("endTurn", "stopSequence", "maxTokens", "toolUse")
ROLES: Final = ("assistant", "user")
INCLUDE_CONTEXT: Final = ("none", "thisServer", "allServers")


@dataclass(frozen=True, slots=True)
class SamplingMessage:
    role: str
    blocks: list[dict[str, Any]]  # content as a list (a single block is wrapped)


@dataclass(frozen=True, slots=True)
class SamplingRequest:
    messages: list[SamplingMessage]
    system_prompt: str | None = None
    max_tokens: int | None = None
    hints: list[str] = field(default_factory=list)
    cost_priority: float | None = None
    speed_priority: float | None = None
    intelligence_priority: float | None = None
    include_context: str | None = None
    temperature: float | None = None
    stop_sequences: list[str] = field(default_factory=list)
    tools: list[dict[str, Any]] = field(default_factory=list)
    tool_choice: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def suggested_model(self) -> str:
        """The first model hint (the spec says hints are evaluated in order), else ours."""
        return self.hints[0] if self.hints else DEFAULT_MODEL


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def parse_sampling_request(params: dict[str, Any]) -> SamplingRequest:
    """Read the request; whatever does not fit the spec is kept in `problems`, not raised."""
    problems: list[str] = []
    messages: list[SamplingMessage] = []
    raw_messages = params.get("messages")
    if not isinstance(raw_messages, list):
        problems.append("messages is missing or not a list")
        raw_messages = []
    for i, item in enumerate(raw_messages):
        if not isinstance(item, dict):
            problems.append(f"messages[{i}] is not an object")
            continue
        role = item.get("role")
        if role not in ROLES:
            problems.append(f"messages[{i}].role is {role!r} (expected user or assistant)")
        content = item.get("content")
        if isinstance(content, dict):
            blocks = [content]
        elif isinstance(content, list):
            blocks = [b if isinstance(b, dict) else {"type": "?", "value": b} for b in content]
        else:
            problems.append(f"messages[{i}].content is not a content block")
            blocks = [{"type": "?", "value": content}]
        messages.append(SamplingMessage(str(role), blocks))

    system_prompt = params.get("systemPrompt")
    if system_prompt is not None and not isinstance(system_prompt, str):
        problems.append("systemPrompt is not a string")
        system_prompt = json.dumps(system_prompt, ensure_ascii=False)

    max_tokens = params.get("maxTokens")
    if max_tokens is None:
        problems.append("maxTokens is missing (the spec requires it)")
    elif isinstance(max_tokens, bool) or not isinstance(max_tokens, int):
        problems.append(f"maxTokens is {max_tokens!r}, not an integer")
        max_tokens = None

    hints: list[str] = []
    priorities: dict[str, float | None] = {}
    prefs = params.get("modelPreferences")
    if prefs is not None and not isinstance(prefs, dict):
        problems.append("modelPreferences is not an object")
        prefs = None
    if isinstance(prefs, dict):
        raw_hints = prefs.get("hints")
        if isinstance(raw_hints, list):
            for hint in raw_hints:
                name = hint.get("name") if isinstance(hint, dict) else None
                if isinstance(name, str) and name:
                    hints.append(name)
        for key in ("costPriority", "speedPriority", "intelligencePriority"):
            value = prefs.get(key)
            number = _number(value)
            if value is not None and (number is None or not 0 <= number <= 1):
                problems.append(f"modelPreferences.{key} is {value!r} (expected 0 to 1)")
            priorities[key] = number

    include = params.get("includeContext")
    if include is not None and include not in INCLUDE_CONTEXT:
        problems.append(f"includeContext is {include!r}")
    temperature = _number(params.get("temperature"))
    stops = params.get("stopSequences")
    stop_sequences = [s for s in stops if isinstance(s, str)] if isinstance(stops, list) else []
    tools = params.get("tools")
    tool_list = [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else []
    choice = params.get("toolChoice")
    metadata = params.get("metadata")
    return SamplingRequest(
        messages=messages,
        system_prompt=system_prompt,
        max_tokens=max_tokens,
        hints=hints,
        cost_priority=priorities.get("costPriority"),
        speed_priority=priorities.get("speedPriority"),
        intelligence_priority=priorities.get("intelligencePriority"),
        include_context=include if isinstance(include, str) else None,
        temperature=temperature,
        stop_sequences=stop_sequences,
        tools=tool_list,
        tool_choice=choice if isinstance(choice, dict) else None,
        metadata=metadata if isinstance(metadata, dict) else None,
        problems=problems,
    )


def block_text(block: dict[str, Any]) -> str:
    """One content block as plain text (the fallback rendering; never HTML)."""
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    if kind in ("image", "audio"):
        data = block.get("data")
        size = len(data) * 3 // 4 if isinstance(data, str) else 0
        return f"[{kind}: {block.get('mimeType', '?')}, about {size:,} bytes]"
    if kind == "tool_use":
        args = json.dumps(block.get("input"), ensure_ascii=False)
        return f"[tool use {block.get('id', '?')}: {block.get('name', '?')}({args})]"
    if kind == "tool_result":
        inner = block.get("content")
        parts = (
            [block_text(b) for b in inner if isinstance(b, dict)] if isinstance(inner, list) else []
        )
        error = " (error)" if block.get("isError") else ""
        return f"[tool result {block.get('toolUseId', '?')}{error}]\n" + "\n".join(parts)
    if kind == "resource":
        resource = block.get("resource")
        if isinstance(resource, dict):
            if isinstance(resource.get("text"), str):
                return f"[resource {resource.get('uri', '?')}]\n{resource['text']}"
            return f"[resource {resource.get('uri', '?')}: binary]"
    if kind == "resource_link":
        return f"[resource link {block.get('uri', '?')}]"
    return json.dumps(block, ensure_ascii=False)


def transcript(request: SamplingRequest) -> str:
    """The conversation as plain text, one message after another."""
    parts = []
    for message in request.messages:
        body = "\n".join(block_text(b) for b in message.blocks)
        parts.append(f"── {message.role} ──\n{body}")
    return "\n\n".join(parts)


def sampling_result(
    text: str, *, role: str = "assistant", model: str = DEFAULT_MODEL, stop_reason: str = ""
) -> dict[str, Any]:
    """The CreateMessageResult for a text reply (stopReason left out when empty)."""
    result: dict[str, Any] = {
        "role": role,
        "content": {"type": "text", "text": text},
        "model": model or DEFAULT_MODEL,
    }
    if stop_reason:
        result["stopReason"] = stop_reason
    return result
