"""`mcp-inspector-qt chat`: a model uses the server's tools for one user turn, headless; the
transcript is printed (server and model text escaped for the terminal), or with `--json` the
conversation (each tool call with its name, arguments, result and timing, then the final
text; the format of docs/session-format.md's conversations).

Exit codes: 0 the model answered, 1 the step limit came first, 2 usage, 3 the server could
not be reached (or the connection was lost), 4 the model provider failed, 5 a timeout
(connecting, or the model request), 130 / 143 interrupted (the turn stopped, what ran is
printed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence

from inspector.cli.errors import diag, guarded
from inspector.cli.host_session import (
    EXIT_CONNECTION,
    EXIT_TIMEOUT,
    approver_from_args,
    conversation_from_args,
    host_server,
    model_from_args,
)
from inspector.cli.interrupts import Interrupts
from inspector.cli.reports import print_json, print_text
from inspector.common.terminal_text import terminal_text
from inspector.features.providers.chat_types import ChatMessage
from inspector.host.engine import TurnEngine, result_text
from inspector.host.model import ProviderModel
from inspector.host.records import ToolCallRecord, TurnRecord

__all__ = ["run", "transcript_lines"]

EXIT_STEP_LIMIT = 1
EXIT_MODEL = 4


def transcript_lines(turn: TurnRecord, messages: Sequence[ChatMessage] = ()) -> list[str]:
    """The turn as a person reads it (not yet escaped: `print_text` escapes each line).
    `messages`: the turn's part of the engine's history, for what the model said along the
    way (before its tool calls); without them, the calls and the final text."""
    lines = [_entry("user: ", turn.user_text)]
    calls = iter(turn.tool_calls)
    said_last = False
    for message in messages:
        if message.role != "assistant":
            continue
        if message.text:
            lines.append(_entry("assistant: ", message.text))
        said_last = not message.tool_uses and bool(message.text)
        for _use in message.tool_uses:
            call = next(calls, None)
            if call is not None:
                lines.extend(_call_lines(call))
    for call in calls:  # without the history (or past its end)
        lines.extend(_call_lines(call))
    if turn.final_text and not said_last:
        lines.append(_entry("assistant: ", turn.final_text))
    lines.append(_summary(turn))
    return lines


def _entry(head: str, text: str, indent: str = "  ") -> str:
    """`head` and `text`, each further line of `text` indented: a line a server or the
    model wrote never starts at the margin, where it could pass for one of ours."""
    return head + text.replace("\n", "\n" + indent)


def _call_lines(call: ToolCallRecord) -> list[str]:
    args = (
        json.dumps(call.arguments, ensure_ascii=False)
        if call.arguments is not None
        else call.raw_arguments
    )
    lines = [_entry("tool call: ", f"{call.qualified} {args}")]  # the name is the model's
    where = f"request id {call.request_id}, " if call.request_id is not None else ""
    if call.schema_problems:
        problems = "; ".join(call.schema_problems)
        lines.append(_entry("  ! arguments break the input schema: ", problems, "    "))
    if call.result is not None:
        mark = "✗ error" if call.is_error else "→"
        lines.append(f"  {mark} ({where}{call.elapsed * 1000:.0f} ms, {call.decision}):")
        lines.extend("    " + line for line in result_text(call.result).split("\n"))
    else:
        lines.append(_entry(f"  ✗ {call.decision}: ", call.error, "    "))
    return lines


def _summary(turn: TurnRecord) -> str:
    def n(v: int | None) -> str:
        return "?" if v is None else f"{v:,}"

    parts = [
        turn.outcome,
        f"{turn.steps} step(s)",
        f"{len(turn.tool_calls)} tool call(s)",
        f"{n(turn.input_tokens)} tokens in, {n(turn.output_tokens)} out",
        f"model {turn.latency:.2f} s",
    ]
    if turn.cost is not None:
        parts.append(f"cost {turn.cost:.6g}")
    return "-- " + " · ".join(parts)


async def _run(ns: argparse.Namespace, model: ProviderModel) -> int:
    with Interrupts() as interrupts:
        async with host_server(ns, model) as server:
            conversation = conversation_from_args(ns, model, server.tab)
            engine = TurnEngine(
                model,
                server.table,
                conversation,
                approver=approver_from_args(ns),
                tool_timeout=ns.timeout,
            )
            interrupts.on_stop = engine.stop
            turn = await engine.run_turn(ns.prompt)
            messages = engine.history[1:]  # this turn's: after the user's message
            lost = server.conn.closed
        if ns.json:
            print_json(conversation.to_json())
        else:
            for line in transcript_lines(turn, messages):
                for part in terminal_text(line, keep="\n").split("\n"):
                    print_text(part)
        if interrupts.signum is not None:
            return 128 + interrupts.signum
        if lost is not None:
            diag(f"error: the connection to the server was lost: {lost.reason}")
            return EXIT_CONNECTION
        if turn.outcome == "model-error":
            diag(f"error: {turn.error}")
            error = engine.model_error
            return EXIT_TIMEOUT if error is not None and error.kind == "timeout" else EXIT_MODEL
        if turn.outcome == "step-limit":
            diag(f"error: {turn.error}")
            return EXIT_STEP_LIMIT
        return 0


def _main(ns: argparse.Namespace) -> int:
    if ns.server_command and ns.server_command[0] == "--":
        ns.server_command = ns.server_command[1:]
    if not ns.prompt:
        from inspector.cli.errors import UsageError

        raise UsageError("--prompt TEXT is required (the user's message)")
    model = model_from_args(ns)
    return asyncio.run(_run(ns, model))


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt chat", parser, lambda: _main(ns))
