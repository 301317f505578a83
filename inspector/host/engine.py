"""The turn engine: one user message, the model, its tool calls and their results, until the
model answers, the step limit is reached, or the person stops it.

    engine = TurnEngine(model, table, Conversation(policy="read-only"), approver=ask_person,
                        on_event=view.show)
    turn = await engine.run_turn("What is the weather in Paris?")
    engine.stop()  # from elsewhere: cancels the model request or tool call in flight

Each tool call the model asks for becomes a `ToolCallRecord` (qualified name, arguments,
decision, schema problems, result, the JSON-RPC id of its `tools/call` for the traffic log).
Nothing the model or a server does crashes a turn: an unknown tool, arguments that are not
JSON, a call refused, an `isError` result, a JSON-RPC error, a timeout or a closed connection
go back to the model as a tool result with `is_error`. A provider failure (`ModelError`) ends
the turn with outcome "model-error" and its sentence; the connections stay up. A server's
sampling or elicitation request during a call goes to the connection's own responder: the
engine only awaits the call, never blocks the loop.

The engine keeps the conversation's history (`history`), so the next `run_turn` continues
it, and appends each `TurnRecord` to `conversation.turns`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Mapping
from typing import Any, Final, TypeVar

from inspector.core.server_connection import SessionError
from inspector.features.asks.sampling import block_text
from inspector.features.providers.chat_types import ChatMessage, ChatReply, ChatRequest, ToolUse
from inspector.features.providers.types import ModelError
from inspector.host.arguments import schema_problems
from inspector.host.interface import (
    Approval,
    Approver,
    CallPending,
    CallUpdated,
    ChatModel,
    EventSink,
    HostEvent,
    PendingCall,
    StepStarted,
    TextDelta,
    TurnEnded,
)
from inspector.host.policy import (
    REFUSED_BY_POLICY,
    Policy,
    ask_reasons,
    describe_reasons,
    parse_policy,
)
from inspector.host.records import Conversation, ToolCallRecord, TurnRecord
from inspector.host.tool_table import HostTool, ToolTable

__all__ = [
    "MAX_CALLS_PER_STEP",
    "MAX_INSTRUCTIONS",
    "MAX_RESULT_CHARS",
    "TurnEngine",
    "result_text",
    "system_text",
]

log = logging.getLogger(__name__)

MAX_RESULT_CHARS: Final = 50_000  # of one tool result, as the model is sent it
MAX_CALLS_PER_STEP: Final = 32  # tool calls of one model reply carried out; the rest refused
MAX_INSTRUCTIONS: Final = 20_000  # characters of one server's instructions in the prompt
T = TypeVar("T")


class _Stopped(Exception):
    """The person stopped the turn."""


class TurnEngine:
    """Runs the turns of one conversation over a tool table (see the module docstring).

    `instructions`: each tab's server instructions, included in the system prompt when the
    conversation says so (None: taken from the table's connections). `tool_timeout`: seconds
    a tool call may take (None: the connection's default)."""

    def __init__(
        self,
        model: ChatModel,
        tools: ToolTable,
        conversation: Conversation | None = None,
        *,
        approver: Approver | None = None,
        on_event: EventSink | None = None,
        instructions: Mapping[str, str] | None = None,
        tool_timeout: float | None = None,
        max_tokens: int = 4096,
    ) -> None:
        self.model = model
        self.tools = tools
        self.conversation = conversation if conversation is not None else Conversation()
        self.approver = approver
        self.on_event = on_event
        self.instructions = dict(instructions) if instructions is not None else _instructions(tools)
        self.tool_timeout = tool_timeout
        self.max_tokens = max_tokens
        self.history: list[ChatMessage] = []
        self.model_error: ModelError | None = None  # what ended the last turn, if the model did
        self._stopping = False
        self._inner: asyncio.Future[Any] | None = None
        self._running = False

    # ------------------------------------------------------------------ control
    @property
    def running(self) -> bool:
        return self._running

    @property
    def stopping(self) -> bool:
        """A stop was asked and the turn has not ended yet."""
        return self._stopping

    def stop(self) -> None:
        """Stop the running turn: the model request or tool call in flight is cancelled (a
        tool call with notifications/cancelled), a pending approval is withdrawn, and the
        turn ends with outcome "stopped". Nothing happens when no turn runs."""
        if not self._running:
            return
        self._stopping = True
        inner = self._inner
        if inner is not None and not inner.done():
            inner.cancel()

    def system_prompt(self) -> str:
        """The system prompt the model is sent: the conversation's, then (when included)
        each server's instructions."""
        return system_text(
            self.conversation.system_prompt,
            self.instructions if self.conversation.include_instructions else {},
        )

    # ------------------------------------------------------------------ a turn
    async def run_turn(self, user_text: str) -> TurnRecord:
        """Run one user turn to its end; the record is also appended to the conversation."""
        if self._running:
            raise RuntimeError("a turn is already running in this conversation")
        self._running = True
        self._stopping = False
        self.model_error = None
        turn = TurnRecord(user_text)
        self.conversation.turns.append(turn)
        self.history.append(ChatMessage("user", user_text))
        try:
            await self._steps(turn)
        except _Stopped:
            turn.outcome = "stopped"
            turn.error = "Stopped by the user."
        except ModelError as exc:
            self.model_error = exc
            turn.outcome = "model-error"
            turn.error = f"The model request failed: {exc}"
        finally:
            self._running = False
            self._stopping = False
            self._inner = None
        self._emit(TurnEnded(turn))
        return turn

    async def _steps(self, turn: TurnRecord) -> None:
        policy = _policy(self.conversation.policy)
        max_steps = max(1, self.conversation.max_steps)
        while True:
            if turn.steps >= max_steps:
                turn.outcome = "step-limit"
                turn.error = (
                    f"The model was still calling tools after {turn.steps} step(s); the turn "
                    f"stopped at the step limit ({max_steps})."
                )
                return
            turn.steps += 1
            self._emit(StepStarted(turn.steps))
            reply = await self._ask_model(turn)
            uses = reply.tool_uses
            self.history.append(ChatMessage("assistant", reply.text, uses))
            if not uses:
                turn.final_text = reply.text
                turn.outcome = "answered"
                return
            turn.final_text = reply.text  # text said along the way; replaced by the answer
            for index, use in enumerate(uses):
                if self._stopping:
                    self._answer_rest(turn, uses[index:], "stopped", "Stopped by the user.")
                    raise _Stopped
                if index >= MAX_CALLS_PER_STEP:
                    self._answer_rest(
                        turn,
                        uses[index:],
                        "refused",
                        f"Only {MAX_CALLS_PER_STEP} tool calls are carried out per reply.",
                    )
                    break
                try:
                    await self._tool_call(turn, use, policy)
                except _Stopped:
                    self._answer_rest(turn, uses[index + 1 :], "stopped", "Stopped by the user.")
                    raise

    async def _ask_model(self, turn: TurnRecord) -> ChatReply:
        request = ChatRequest(
            model=self.conversation.model,
            system=self.system_prompt(),
            messages=tuple(self.history),
            tools=self.tools.specs(),
            max_tokens=self.max_tokens,
        )
        on_text = None
        if self.on_event is not None:
            sink = self.on_event

            def on_text(text: str) -> None:
                sink(TextDelta(text))

        started = time.monotonic()
        reply = await self._interruptible(self.model(request, on_text))
        latency = reply.latency or (time.monotonic() - started)
        turn.latency += latency
        usage = reply.usage
        if usage.input_tokens is not None:
            turn.input_tokens = (turn.input_tokens or 0) + usage.input_tokens
        if usage.output_tokens is not None:
            turn.output_tokens = (turn.output_tokens or 0) + usage.output_tokens
        if reply.cost is not None:
            turn.cost = (turn.cost or 0.0) + reply.cost
        return reply

    # ------------------------------------------------------------------ one call
    async def _tool_call(self, turn: TurnRecord, use: ToolUse, policy: Policy) -> None:
        tool, record = self._record_call(turn, use)
        if tool is None:
            self._refuse(record, use, "unknown-tool", self._unknown_tool_text(use.name))
            return
        if record.arguments is None:
            self._refuse(
                record,
                use,
                "invalid-arguments",
                f"The arguments of {use.name} are not JSON: {_clip(use.raw_arguments, 200)!r}. "
                "Send a JSON object.",
            )
            return
        if not isinstance(record.arguments, dict):
            self._refuse(
                record,
                use,
                "invalid-arguments",
                f"The arguments of {use.name} must be a JSON object, not "
                f"{type(record.arguments).__name__}.",
            )
            return
        record.schema_problems = schema_problems(tool.input_schema, record.arguments)
        if policy == "none":
            self._refuse(record, use, "refused", REFUSED_BY_POLICY)
            return
        reasons = ask_reasons(policy, tool, bool(record.schema_problems))
        if reasons:
            approval = await self._approve(
                PendingCall(record, tool, reasons, describe_reasons(reasons, policy))
            )
            if approval.action == "refuse":
                self._refused_by_person(record, use, approval)
                return
            if approval.action == "edit":
                record.arguments = approval.arguments
                record.decision = "edited"
                if not isinstance(record.arguments, dict):
                    self._refuse(
                        record,
                        use,
                        "invalid-arguments",
                        "The edited arguments are not a JSON object.",
                    )
                    return
                record.schema_problems = schema_problems(tool.input_schema, record.arguments)
        await self._send(record, tool, use)

    async def _approve(self, pending: PendingCall) -> Approval:
        if self.approver is None:
            return Approval.refuse("No one is there to approve tool calls.")
        self._emit(CallPending(pending))
        return await self._interruptible(self.approver(pending))

    async def _send(self, record: ToolCallRecord, tool: HostTool, use: ToolUse) -> None:
        conn = tool.connection
        if conn is None:
            self._refuse(record, use, "refused", f"The server {tool.tab!r} is not connected.")
            return
        started = time.monotonic()
        record.started_at = time.time()
        try:
            await self._interruptible(conn.learn_tool(tool.name))
            call = conn.start_tool_call(
                tool.name,
                record.arguments,
                timeout="default" if self.tool_timeout is None else self.tool_timeout,
            )
        except SessionError as exc:
            self._failed(record, use, started, str(exc))
            return
        record.request_id = conn.request_id(call)
        self._emit(CallUpdated(record))
        try:
            result = await self._interruptible(call.result())
        except _Stopped:
            call.cancel("stopped by the user")
            record.decision = "stopped"
            self._failed(record, use, started, "Stopped by the user.")
            raise
        except SessionError as exc:
            self._failed(record, use, started, str(exc))
            return
        record.elapsed = time.monotonic() - started
        record.result = result
        record.is_error = result.get("isError") is True
        text = result_text(result)
        if record.is_error:
            record.error = _clip(text, 500) or "The tool reported an error."
        self._answer(use, text, record.is_error)
        self._emit(CallUpdated(record))

    # ------------------------------------------------------------------ answers
    def _refuse(self, record: ToolCallRecord, use: ToolUse, decision: Any, text: str) -> None:
        record.decision = decision
        record.is_error = True
        record.error = text
        self._answer(use, text, True)
        self._emit(CallUpdated(record))

    def _refused_by_person(self, record: ToolCallRecord, use: ToolUse, approval: Approval) -> None:
        note = f" {approval.note}" if approval.note else ""
        if record.schema_problems:
            problems = "; ".join(record.schema_problems[:10])
            self._refuse(
                record,
                use,
                "invalid-arguments",
                f"The call was not made: its arguments do not match the input schema of "
                f"{use.name}: {problems}.{note}",
            )
        else:
            self._refuse(record, use, "refused", f"The user refused this tool call.{note}")

    def _failed(self, record: ToolCallRecord, use: ToolUse, started: float, why: str) -> None:
        record.elapsed = time.monotonic() - started
        record.is_error = True
        record.error = why
        self._answer(use, f"The tool call failed: {why}", True)
        self._emit(CallUpdated(record))

    def _answer(self, use: ToolUse, text: str, is_error: bool) -> None:
        self.history.append(ChatMessage("tool", text, tool_use_id=use.id, is_error=is_error))

    def _answer_rest(
        self, turn: TurnRecord, uses: tuple[ToolUse, ...], decision: Any, why: str
    ) -> None:
        """Tool uses not carried out still get a result each (providers require one)."""
        for use in uses:
            _tool, record = self._record_call(turn, use)
            self._refuse(record, use, decision, why)

    def _record_call(
        self, turn: TurnRecord, use: ToolUse
    ) -> tuple[HostTool | None, ToolCallRecord]:
        """The tool a use names (None: no such tool) and the use's record, started now and
        added to the turn's calls."""
        tool = self.tools.get(use.name)
        record = ToolCallRecord(
            qualified=use.name,
            tab=tool.tab if tool is not None else "",
            tool=tool.name if tool is not None else "",
            arguments=_arguments_of(use),
            raw_arguments=use.raw_arguments,
            started_at=time.time(),
        )
        turn.tool_calls.append(record)
        return tool, record

    def _unknown_tool_text(self, name: str) -> str:
        names = [tool.qualified for tool in self.tools]
        shown = ", ".join(names[:30]) + (", ..." if len(names) > 30 else "")
        return f"There is no tool named {_clip(name, 80)!r}. The tools are: {shown or '(none)'}."

    # ------------------------------------------------------------------ plumbing
    async def _interruptible(self, awaitable: Awaitable[T]) -> T:
        """Await `awaitable` so that `stop()` can cancel it (then `_Stopped` is raised)."""
        if self._stopping:
            if asyncio.iscoroutine(awaitable):
                awaitable.close()
            raise _Stopped
        inner = asyncio.ensure_future(awaitable)
        self._inner = inner
        try:
            return await inner
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self.stopping and (task is None or task.cancelling() == 0):
                raise _Stopped from None
            raise
        finally:
            self._inner = None
            if not inner.done():
                inner.cancel()

    def _emit(self, event: HostEvent) -> None:
        if self.on_event is None:
            return
        try:
            self.on_event(event)
        except Exception:  # a live view's bug must not end the turn
            log.exception("a host event listener failed")


def system_text(prompt: str, instructions: Mapping[str, str]) -> str:
    """The system prompt, then each server's instructions under its tab's name."""
    parts = [prompt.strip()] if prompt.strip() else []
    for tab, text in instructions.items():
        text = text.strip()
        if len(text) > MAX_INSTRUCTIONS:
            text = (
                text[:MAX_INSTRUCTIONS] + f"\n[... {len(text) - MAX_INSTRUCTIONS:,} characters cut]"
            )
        if text:
            parts.append(f"Instructions from the MCP server {tab!r}:\n{text}")
    return "\n\n".join(parts)


def result_text(result: dict[str, Any]) -> str:
    """A CallToolResult as the text the model is sent: its content blocks (structured
    content when there are none), clipped at `MAX_RESULT_CHARS`."""
    content = result.get("content")
    parts = (
        [block_text(b) for b in content if isinstance(b, dict)] if isinstance(content, list) else []
    )
    text = "\n".join(p for p in parts if p)
    if not text and "structuredContent" in result:
        text = json.dumps(result["structuredContent"], ensure_ascii=False)
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + f"\n[... {len(text) - MAX_RESULT_CHARS:,} characters cut]"
    return text


def _instructions(tools: ToolTable) -> dict[str, str]:
    found: dict[str, str] = {}
    for tool in tools:
        conn = tool.connection
        if tool.tab in found or conn is None:
            continue
        text = conn.instructions
        if isinstance(text, str) and text.strip():
            found[tool.tab] = text
    return found


def _policy(text: str) -> Policy:
    try:
        return parse_policy(text)
    except ValueError:
        log.warning("unknown approval policy %r: asking before every call", text)
        return "ask"


def _arguments_of(use: ToolUse) -> Any:
    """The parsed arguments; an empty text means no arguments ({})."""
    if use.arguments is None and not use.raw_arguments.strip():
        return {}
    return use.arguments


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
