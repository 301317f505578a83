"""What a host conversation keeps: each turn, each tool call with its decision and result.

Plain data with a versioned JSON form: the Playground shows it live, the session file keeps it
(and shows it again offline), `chat --json` prints it, and evals judge it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

__all__ = ["CONVERSATION_VERSION", "Conversation", "Decision", "ToolCallRecord", "TurnRecord"]

CONVERSATION_VERSION: Final = 1

Decision = Literal[
    "sent",  # sent as the model wrote it
    "edited",  # sent after the person changed the arguments
    "refused",  # the person or the policy refused it; the model was told so
    "unknown-tool",  # the model named a tool that is not offered; the model was told so
    "invalid-arguments",  # not JSON, or the schema check refused it; the model was told so
    "stopped",  # the turn was stopped before it was sent
]


@dataclass(slots=True)
class ToolCallRecord:
    """One tool call the model asked for, and what became of it."""

    qualified: str  # the name the model saw: "tab__tool"
    tab: str  # the tab (server) it went to; "" when no tab has it
    tool: str  # the server's own tool name
    arguments: Any  # what was sent (or would have been): parsed JSON, None if not JSON
    raw_arguments: str  # what the model wrote
    decision: Decision = "sent"
    schema_problems: list[str] = field(default_factory=list)  # against the tool's inputSchema
    result: dict[str, Any] | None = None  # the CallToolResult as the server sent it
    is_error: bool = False  # isError, a JSON-RPC error, a timeout, or a refusal
    error: str = ""  # the sentence for a failure
    started_at: float = 0.0  # wall clock, seconds since the epoch
    elapsed: float = 0.0  # seconds
    request_id: str | int | None = None  # the JSON-RPC id, to find its rows in the traffic log

    def to_json(self) -> dict[str, Any]:
        return {
            "qualified": self.qualified,
            "tab": self.tab,
            "tool": self.tool,
            "arguments": self.arguments,
            "rawArguments": self.raw_arguments,
            "decision": self.decision,
            "schemaProblems": list(self.schema_problems),
            "result": self.result,
            "isError": self.is_error,
            "error": self.error,
            "startedAt": self.started_at,
            "elapsedMs": round(self.elapsed * 1000, 1),
            "requestId": self.request_id,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ToolCallRecord:
        result = data.get("result")
        problems = data.get("schemaProblems")
        request_id = data.get("requestId")
        return cls(
            qualified=str(data.get("qualified", "")),
            tab=str(data.get("tab", "")),
            tool=str(data.get("tool", "")),
            arguments=data.get("arguments"),
            raw_arguments=str(data.get("rawArguments", "")),
            decision=data.get("decision", "sent"),
            schema_problems=[str(p) for p in problems] if isinstance(problems, list) else [],
            result=result if isinstance(result, dict) else None,
            is_error=bool(data.get("isError", False)),
            error=str(data.get("error", "")),
            started_at=_number(data.get("startedAt")),
            elapsed=_number(data.get("elapsedMs")) / 1000,
            request_id=request_id if isinstance(request_id, str | int) else None,
        )


@dataclass(slots=True)
class TurnRecord:
    """One user message and everything the model did until it answered (or was stopped)."""

    user_text: str
    final_text: str = ""
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    steps: int = 0  # model requests made in this turn
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost: float | None = None  # only when the provider reported it
    latency: float = 0.0  # seconds spent waiting for the model, summed over steps
    outcome: str = "answered"  # answered | step-limit | stopped | model-error
    error: str = ""  # the sentence for step-limit, stopped or model-error

    def to_json(self) -> dict[str, Any]:
        return {
            "userText": self.user_text,
            "finalText": self.final_text,
            "toolCalls": [call.to_json() for call in self.tool_calls],
            "steps": self.steps,
            "inputTokens": self.input_tokens,
            "outputTokens": self.output_tokens,
            "cost": self.cost,
            "latencyMs": round(self.latency * 1000, 1),
            "outcome": self.outcome,
            "error": self.error,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnRecord:
        calls = data.get("toolCalls")
        return cls(
            user_text=str(data.get("userText", "")),
            final_text=str(data.get("finalText", "")),
            tool_calls=[ToolCallRecord.from_json(c) for c in calls or [] if isinstance(c, dict)],
            steps=int(_number(data.get("steps"))),
            input_tokens=_int_or_none(data.get("inputTokens")),
            output_tokens=_int_or_none(data.get("outputTokens")),
            cost=data["cost"] if isinstance(data.get("cost"), int | float) else None,
            latency=_number(data.get("latencyMs")) / 1000,
            outcome=str(data.get("outcome", "answered")),
            error=str(data.get("error", "")),
        )


@dataclass(slots=True)
class Conversation:
    """A playground or `chat` conversation: its settings and its turns."""

    provider: str = ""  # the provider's label
    model: str = ""
    system_prompt: str = ""
    include_instructions: bool = True
    tabs: list[str] = field(default_factory=list)  # the tabs (servers) taking part
    policy: str = "ask"  # ask | read-only | all | none
    max_steps: int = 10
    turns: list[TurnRecord] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": CONVERSATION_VERSION,
            "provider": self.provider,
            "model": self.model,
            "systemPrompt": self.system_prompt,
            "includeInstructions": self.include_instructions,
            "tabs": list(self.tabs),
            "policy": self.policy,
            "maxSteps": self.max_steps,
            "turns": [turn.to_json() for turn in self.turns],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Conversation:
        """Read a saved conversation; a newer version is an error, as session files are."""
        version = data.get("version")
        if not isinstance(version, int) or version > CONVERSATION_VERSION:
            raise ValueError(f"conversation version {version!r} is not one this app reads")
        tabs = data.get("tabs")
        turns = data.get("turns")
        return cls(
            provider=str(data.get("provider", "")),
            model=str(data.get("model", "")),
            system_prompt=str(data.get("systemPrompt", "")),
            include_instructions=bool(data.get("includeInstructions", True)),
            tabs=[str(t) for t in tabs] if isinstance(tabs, list) else [],
            policy=str(data.get("policy", "ask")),
            max_steps=int(_number(data.get("maxSteps", 10))),
            turns=[TurnRecord.from_json(t) for t in turns or [] if isinstance(t, dict)],
        )


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
