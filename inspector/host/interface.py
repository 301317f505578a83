"""What the turn engine needs and what it tells: the model, the approver, and the live events.

The Playground, `chat` and the evals runner build on these (issue 28):

- `ChatModel`: one model request, `await model(request, on_text)` -> `ChatReply`. The real
  one is `host.model.provider_model(provider, key, ...)`, over
  `inspector.features.providers.chat.chat`; tests pass an in-process fake. It raises
  `ModelError` (with a sentence) on any provider failure; the engine ends the turn with
  outcome "model-error" and the connections stay up.
- `Approver`: asked about a call the policy does not let through on its own. It is given a
  `PendingCall` (the call's record, the tool, and why it asks) and answers with an
  `Approval`: send as is, send edited arguments, or refuse (with a note told to the model).
  It may take as long as a person takes; a Stop while it waits ends the turn.
- `HostEvent`s for a live view, sent to the engine's `on_event` as they happen:
  `TextDelta` (streamed text of the current model reply), `StepStarted` (model request n of
  the turn), `CallPending` (a call waits for the approver), `CallUpdated` (a call's record
  changed: decided, sent (its JSON-RPC id known), answered, failed), `TurnEnded` (the
  finished `TurnRecord`, whatever its outcome).

Everything here is Qt-free; the GUI wraps the engine's coroutine in a task and turns events
into signals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

from inspector.features.providers.chat_types import ChatReply, ChatRequest, TextSink
from inspector.host.records import ToolCallRecord, TurnRecord

if TYPE_CHECKING:
    from inspector.host.tool_table import HostTool

__all__ = [
    "Approval",
    "Approver",
    "AskReason",
    "CallPending",
    "CallUpdated",
    "ChatModel",
    "EventSink",
    "HostEvent",
    "PendingCall",
    "StepStarted",
    "TextDelta",
    "TurnEnded",
]


class ChatModel(Protocol):
    """One request to the model; streams text to `on_text` when given. Raises `ModelError`."""

    async def __call__(
        self, request: ChatRequest, on_text: TextSink | None = None
    ) -> ChatReply: ...


AskReason = Literal[
    "policy",  # the conversation's policy is "ask" (or the tool is not annotated read-only)
    "destructive",  # the tool is annotated destructive: always asks
    "schema",  # the arguments break the tool's inputSchema (record.schema_problems)
]


@dataclass(frozen=True, slots=True)
class PendingCall:
    """A call waiting for the approver: its record (arguments, schema problems), the tool,
    why it asks (one or more reasons) and that reason as a sentence for a person."""

    record: ToolCallRecord
    tool: HostTool
    reasons: tuple[AskReason, ...]
    why: str


@dataclass(frozen=True, slots=True)
class Approval:
    """The approver's answer. `edit` sends `arguments` instead of the model's; `refuse` tells
    the model the call was refused (with `note` when given)."""

    action: Literal["send", "edit", "refuse"]
    arguments: Any = None
    note: str = ""

    @classmethod
    def send(cls) -> Approval:
        return cls("send")

    @classmethod
    def edit(cls, arguments: Any) -> Approval:
        return cls("edit", arguments)

    @classmethod
    def refuse(cls, note: str = "") -> Approval:
        return cls("refuse", note=note)


class Approver(Protocol):
    """Decides a pending call (a dialog, a card's buttons, or a CLI flag)."""

    async def __call__(self, pending: PendingCall) -> Approval: ...


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str  # a piece of the current model reply's text, as it streams in


@dataclass(frozen=True, slots=True)
class StepStarted:
    step: int  # 1-based: the n-th model request of this turn


@dataclass(frozen=True, slots=True)
class CallPending:
    pending: PendingCall  # waits for the approver


@dataclass(frozen=True, slots=True)
class CallUpdated:
    record: ToolCallRecord  # the same object, changed (decision, request_id, result, error)


@dataclass(frozen=True, slots=True)
class TurnEnded:
    turn: TurnRecord


HostEvent: TypeAlias = TextDelta | StepStarted | CallPending | CallUpdated | TurnEnded
EventSink: TypeAlias = Callable[[HostEvent], None]
