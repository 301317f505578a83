"""The approval policy of a conversation: which tool calls go out on their own and which ask.

- `ask`: every call asks the approver;
- `read-only`: tools annotated readOnlyHint go out on their own, the others ask (annotations
  are hints from the server, not guarantees: `READ_ONLY_NOTE` says so to the person);
- `all`: every call goes out on its own;
- `none`: every call is refused, and the model is told so.

Whatever the policy (but `none`), a tool annotated destructive always asks, and so do
arguments that break the tool's inputSchema.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias, get_args

from inspector.host.interface import AskReason
from inspector.host.tool_table import HostTool

__all__ = [
    "POLICIES",
    "READ_ONLY_NOTE",
    "REFUSED_BY_POLICY",
    "Policy",
    "ask_reasons",
    "describe_reasons",
    "parse_policy",
]

Policy: TypeAlias = Literal["ask", "read-only", "all", "none"]
POLICIES: Final[tuple[Policy, ...]] = get_args(Policy)

READ_ONLY_NOTE: Final = (
    "Read-only tools are approved automatically. Annotations are hints from the server, "
    "not guarantees: a server can call a tool read-only that is not."
)
REFUSED_BY_POLICY: Final = (
    "The user does not allow tool calls in this conversation; the call was not made."
)


def parse_policy(text: str) -> Policy:
    """A policy by name; ValueError with the names when it is none of them."""
    for policy in POLICIES:
        if text == policy:
            return policy
    raise ValueError(f"unknown approval policy {text!r} (one of: {', '.join(POLICIES)})")


def ask_reasons(policy: Policy, tool: HostTool, has_problems: bool) -> tuple[AskReason, ...]:
    """Why a call of `tool` must ask the approver under `policy` (empty: it goes out on its
    own). Not asked under `none`: the engine refuses those before asking."""
    reasons: list[AskReason] = []
    if policy == "ask" or (policy == "read-only" and not tool.read_only):
        reasons.append("policy")
    if tool.destructive:
        reasons.append("destructive")
    if has_problems:
        reasons.append("schema")
    return tuple(reasons)


def describe_reasons(reasons: tuple[AskReason, ...], policy: Policy) -> str:
    """The reasons as a sentence for the person deciding."""
    parts = []
    for reason in reasons:
        if reason == "policy":
            parts.append(
                "this conversation asks before every call"
                if policy == "ask"
                else "the tool is not annotated read-only"
            )
        elif reason == "destructive":
            parts.append("the server annotates this tool as destructive (a hint)")
        else:
            parts.append("the arguments do not match the tool's input schema")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "." if text else ""
