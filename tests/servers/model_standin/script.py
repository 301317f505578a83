"""The stand-in's script: rules read from JSON, and the one that answers a request, chosen
from the conversation in the request alone (see the package docstring for the format)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Format = Literal["openai", "anthropic"]

WHEN_KEYS = {
    "lastUserContains",
    "lastIsToolResult",
    "toolResultContains",
    "toolResultsAtLeast",
    "toolOffered",
    "systemContains",
    "format",
}
FAULT_KEYS = {
    "delay",
    "status",
    "retryAfter",
    "message",
    "malformedJson",
    "brokenStream",
    "cutStream",
    "hugeBytes",
    "ignoreStream",
    "errorEvent",
}


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: Any = None
    raw_arguments: str | None = None  # sent as written (not JSON, for a fault)


@dataclass(frozen=True)
class Rule:
    name: str = ""
    when: dict[str, Any] = field(default_factory=dict)
    text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    cost: float | None = None
    fault: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Script:
    rules: tuple[Rule, ...] = ()
    default: Rule = field(default_factory=Rule)

    @classmethod
    def load(cls, source: str | Path | dict[str, Any]) -> Script:
        data = source if isinstance(source, dict) else json.loads(Path(source).read_text())
        if not isinstance(data, dict):
            raise ValueError("a stand-in script is a JSON object with `rules`")
        rules = tuple(_rule(r, f"rules[{i}]") for i, r in enumerate(data.get("rules") or []))
        default = _rule({"reply": data["default"]}, "default") if "default" in data else Rule()
        return cls(rules, default)


def _rule(data: Any, where: str) -> Rule:
    if not isinstance(data, dict):
        raise ValueError(f"{where}: a rule is an object")
    when = data.get("when") or {}
    fault = data.get("fault") or {}
    reply = data.get("reply") or {}
    unknown = (set(when) - WHEN_KEYS) | (set(fault) - FAULT_KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    calls = tuple(
        ToolCall(str(c["name"]), c.get("arguments", {}), c.get("rawArguments"))
        for c in reply.get("toolCalls") or []
    )
    cost = reply.get("cost")
    return Rule(str(data.get("name", "")), when, reply.get("text"), calls, cost, fault)


# ------------------------------------------------------------ the conversation, read
@dataclass
class Seen:
    """What the rules look at, read from either wire format's request."""

    format: Format
    system: str = ""
    last_user: str = ""
    last_is_tool_result: bool = False
    last_tool_result: str = ""
    results_since_user: int = 0
    tools: list[str] = field(default_factory=list)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            _text_of(p.get("text", p.get("content", ""))) for p in content if isinstance(p, dict)
        )
    return ""


def read_request(fmt: Format, body: dict[str, Any]) -> Seen:
    seen = Seen(fmt)
    if fmt == "openai":
        for tool in body.get("tools") or []:
            seen.tools.append(str((tool.get("function") or {}).get("name", "")))
        for message in body.get("messages") or []:
            role = message.get("role")
            if role in ("system", "developer"):
                seen.system += _text_of(message.get("content"))
            elif role == "user":
                seen.last_user, seen.results_since_user = _text_of(message.get("content")), 0
                seen.last_is_tool_result = False
            elif role == "tool":
                seen.last_tool_result = _text_of(message.get("content"))
                seen.results_since_user += 1
                seen.last_is_tool_result = True
            else:
                seen.last_is_tool_result = False
        return seen
    seen.system = _text_of(body.get("system") or "")
    seen.tools = [str(t.get("name", "")) for t in body.get("tools") or []]
    for message in body.get("messages") or []:
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        if message.get("role") != "user":
            seen.last_is_tool_result = False
            continue
        for block in blocks:
            if block.get("type") == "tool_result":
                seen.last_tool_result = _text_of(block.get("content"))
                seen.results_since_user += 1
                seen.last_is_tool_result = True
            elif block.get("type") == "text":
                seen.last_user, seen.results_since_user = str(block.get("text", "")), 0
                seen.last_is_tool_result = False
    return seen


def holds(when: dict[str, Any], seen: Seen) -> bool:
    checks = {
        "lastUserContains": lambda v: str(v).lower() in seen.last_user.lower(),
        "lastIsToolResult": lambda v: bool(v) == seen.last_is_tool_result,
        "toolResultContains": lambda v: (
            seen.last_is_tool_result and str(v) in seen.last_tool_result
        ),
        "toolResultsAtLeast": lambda v: seen.results_since_user >= int(v),
        "toolOffered": lambda v: resolve(str(v), seen.tools) in seen.tools,
        "systemContains": lambda v: str(v).lower() in seen.system.lower(),
        "format": lambda v: v == seen.format,
    }
    return all(checks[key](value) for key, value in when.items())


def resolve(name: str, offered: list[str]) -> str:
    """`name` as offered: itself, or the one offered tool called "<tab>__name"."""
    if name in offered:
        return name
    matches = [t for t in offered if t.endswith("__" + name)]
    return matches[0] if len(matches) == 1 else name


def choose(script: Script, seen: Seen) -> Rule:
    return next((r for r in script.rules if holds(r.when, seen)), script.default)


def reply_text(rule: Rule, seen: Seen) -> str:
    if rule.fault.get("hugeBytes"):
        return "x" * int(rule.fault["hugeBytes"])
    if rule.text is not None:
        return rule.text.replace("{lastUser}", seen.last_user).replace(
            "{toolResult}", seen.last_tool_result
        )
    if rule.tool_calls:
        return ""
    if seen.last_is_tool_result:
        return f"The tool said: {seen.last_tool_result}"
    return f"You said: {seen.last_user}"
