"""An in-process `ChatModel` for the turn engine's tests: it answers from a script (a reply,
a `ModelError` to raise, or a function of the request) and keeps every request it was sent.

    model = ScriptedModel(uses(("demo__add", {"a": 1, "b": 2})), says("3"))
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from inspector.features.providers.chat_types import ChatReply, ChatRequest, TextSink, ToolUse
from inspector.features.providers.types import ModelError, Usage

__all__ = ["ScriptedModel", "says", "uses"]

Step = ChatReply | ModelError | Callable[[ChatRequest], ChatReply]


def says(text: str, *, tokens: tuple[int, int] = (10, 5), cost: float | None = None) -> ChatReply:
    return ChatReply(text, (), "endTurn", "scripted", Usage(*tokens), cost, 0.01)


def uses(*calls: tuple[str, Any] | tuple[str, Any, str], text: str = "") -> ChatReply:
    """A reply asking for tools: (name, arguments) or (name, None, raw text that is no JSON)."""
    tool_uses = []
    for n, call in enumerate(calls):
        name, arguments = call[0], call[1]
        raw = call[2] if len(call) > 2 else json.dumps(arguments)  # type: ignore[misc]
        tool_uses.append(ToolUse(f"call-{n}", name, arguments, raw))
    return ChatReply(text, tuple(tool_uses), "toolUse", "scripted", Usage(10, 5), None, 0.01)


class ScriptedModel:
    """Answers each request with the next step; the last step repeats (a model that loops).
    `hang=True`: never answers (until cancelled), for Stop."""

    def __init__(self, *steps: Step, hang: bool = False) -> None:
        self.steps = list(steps)
        self.requests: list[ChatRequest] = []
        self.hang = hang
        self.cancelled = False

    async def __call__(self, request: ChatRequest, on_text: TextSink | None = None) -> ChatReply:
        self.requests.append(request)
        if self.hang:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                self.cancelled = True
                raise
        step = self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]
        if isinstance(step, ModelError):
            raise step
        reply = step(request) if callable(step) else step
        if on_text is not None and reply.text:
            for piece in reply.text.split(" "):
                on_text(piece + " ")
        return reply
