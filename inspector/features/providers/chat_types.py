"""A conversation with a model that may call tools, in provider-neutral terms.

The host (inspector/host) speaks these; `chat.py` turns them into the OpenAI-compatible or
Anthropic wire format and back. Tool arguments the model wrote are kept raw as well as parsed,
so arguments that are not JSON are shown and reported, never lost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from inspector.features.providers.types import Usage

__all__ = ["ChatMessage", "ChatReply", "ChatRequest", "TextSink", "ToolSpec", "ToolUse"]

TextSink = Callable[[str], None]  # receives the reply's text as it streams in, piece by piece


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool offered to the model: its (qualified) name, description and JSON Schema."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ToolUse:
    """A tool call the model asked for.

    `arguments` is the parsed JSON (normally an object); None when `raw_arguments` is not
    JSON, which the host reports to the model and the person rather than guessing."""

    id: str
    name: str
    arguments: Any
    raw_arguments: str


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One message of the conversation.

    - user: `text`;
    - assistant: `text` and the `tool_uses` it asked for;
    - tool: the result of one tool use (`tool_use_id`), as `text`, `is_error` when it failed
      or was refused."""

    role: Literal["user", "assistant", "tool"]
    text: str = ""
    tool_uses: tuple[ToolUse, ...] = ()
    tool_use_id: str = ""
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class ChatRequest:
    model: str
    system: str
    messages: tuple[ChatMessage, ...]
    tools: tuple[ToolSpec, ...] = ()
    max_tokens: int = 4096


@dataclass(frozen=True, slots=True)
class ChatReply:
    """The model's answer to one request: text, the tool calls it asks for, and its costs.

    `stop_reason` is the provider's, mapped to MCP words where they exist (endTurn,
    maxTokens, toolUse); `cost` only when the provider reported one (e.g. OpenRouter's
    `usage.cost`)."""

    text: str
    tool_uses: tuple[ToolUse, ...]
    stop_reason: str
    model: str
    usage: Usage = field(default_factory=Usage)
    cost: float | None = None
    latency: float = 0.0  # seconds, first byte sent to last byte read
