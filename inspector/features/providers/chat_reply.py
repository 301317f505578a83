"""A model's chat reply put together from what either wire format gives, whole or streamed:
the text pieces, the tool calls (their argument fragments joined), the stop reason, the
token counts and the cost the provider reported.

Tool arguments that are not JSON are no error here: the `ToolUse` keeps them raw with
`arguments` None, and the host tells the model and the person.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from inspector.features.providers.chat_types import ChatReply, TextSink, ToolUse
from inspector.features.providers.types import Usage

__all__ = ["ReplyBuilder", "parse_arguments", "reported_cost"]


def parse_arguments(raw: str) -> Any:
    """The JSON of `raw`; None when it is not JSON. Nothing at all (some local servers send
    "" for a tool without parameters) is an empty object."""
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except ValueError:
        return None


def reported_cost(usage: Any) -> float | None:
    """The cost a provider put in its usage (OpenRouter's `usage.cost`), else None."""
    if not isinstance(usage, dict):
        return None
    cost = usage.get("cost")
    if isinstance(cost, int | float) and not isinstance(cost, bool) and cost >= 0:
        return float(cost)
    return None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(slots=True)
class _Call:
    id: str = ""
    name: str = ""
    raw: list[str] = field(default_factory=list)
    done_arguments: Any = None  # arguments already parsed (a whole Anthropic reply)
    has_done: bool = False


@dataclass(slots=True)
class ReplyBuilder:
    """Collects a reply; `on_text` gets each text piece as it is added."""

    on_text: TextSink | None = None
    text: list[str] = field(default_factory=list)
    calls: dict[int, _Call] = field(default_factory=dict)  # by the wire format's index
    stop: str = ""
    model: str = ""
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost: float | None = None

    def add_text(self, piece: str) -> None:
        if not piece:
            return
        self.text.append(piece)
        if self.on_text is not None:
            self.on_text(piece)

    def call(self, index: int) -> _Call:
        return self.calls.setdefault(index, _Call())

    def start_call(self, index: int, call_id: str, name: str) -> None:
        call = self.call(index)
        call.id = call_id or call.id
        call.name = name or call.name

    def add_arguments(self, index: int, fragment: str) -> None:
        self.call(index).raw.append(fragment)

    def whole_call(self, index: int, call_id: str, name: str, arguments: Any) -> None:
        """A tool call given whole, its arguments already JSON (Anthropic's `input`)."""
        self.start_call(index, call_id, name)
        call = self.call(index)
        call.done_arguments = arguments
        call.has_done = True

    def add_usage(self, input_tokens: Any = None, output_tokens: Any = None) -> None:
        if _count(input_tokens) is not None:
            self.input_tokens = _count(input_tokens)
        if _count(output_tokens) is not None:
            self.output_tokens = _count(output_tokens)

    def add_usage_of(self, usage: Any, input_key: str, output_key: str) -> None:
        """A wire format's usage object: its token counts (under that format's key names)
        and the cost it reports, if any; not an object: nothing."""
        if isinstance(usage, dict):
            self.add_usage(usage.get(input_key), usage.get(output_key))
            cost = reported_cost(usage)
            if cost is not None:
                self.cost = cost

    def tool_uses(self) -> tuple[ToolUse, ...]:
        uses = []
        for index in sorted(self.calls):
            call = self.calls[index]
            raw = "".join(call.raw)
            if call.has_done and not raw:
                arguments = call.done_arguments
                raw = json.dumps(arguments, ensure_ascii=False)
            else:
                arguments = parse_arguments(raw)
            uses.append(ToolUse(call.id or f"call_{index}", call.name, arguments, raw))
        return tuple(uses)

    def reply(self, stop_reasons: dict[str, str], latency: float) -> ChatReply:
        return ChatReply(
            text="".join(self.text),
            tool_uses=self.tool_uses(),
            stop_reason=stop_reasons.get(self.stop, self.stop),
            model=self.model,
            usage=Usage(self.input_tokens, self.output_tokens),
            cost=self.cost,
            latency=latency,
        )
