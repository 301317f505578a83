"""Tools of the demo server: definitions, a small argument validator and implementations.

Tools talk to the session through a :class:`ToolContext`, so the same code serves both protocol
eras: in the legacy era ``ask`` sends a server request and waits for the client's answer; in the
modern era it returns the matching ``inputResponses`` entry or raises :class:`NeedInput`.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from inspector.common.log_levels import LOG_LEVELS
from inspector.demo.png import bar_chart_png

JSONObject = dict[str, Any]


class Cancelled(Exception):
    """The request was cancelled (or the connection closed); send no response."""


class ToolFailure(Exception):
    """Becomes a JSON-RPC error response (-32603) instead of a tool result."""


class AskFailed(Exception):
    """The client rejected, failed or never answered a server request."""


class MissingCapability(Exception):
    def __init__(self, capability: str) -> None:
        super().__init__(f"the client did not declare the {capability!r} capability")
        self.capability = capability


class NeedInput(Exception):
    """Modern era: the tool needs the client to fulfil an input request first."""

    def __init__(self, key: str, method: str, params: JSONObject) -> None:
        super().__init__(f"input required: {key}")
        self.key = key
        self.method = method
        self.params = params


class ToolContext(Protocol):
    modern: bool
    protocol_version: str

    def progress(self, progress: float, total: float | None, message: str | None) -> None: ...

    def log(self, level: str, data: Any, logger: str = "demo") -> None: ...

    def sleep(self, seconds: float) -> None:
        """Sleep, raising Cancelled as soon as the request is cancelled."""

    def ask(self, key: str, method: str, params: JSONObject) -> JSONObject:
        """Sampling or elicitation: the client's result object."""

    def toggle_bonus_tool(self) -> bool:
        """Show or hide the bonus tool; returns whether it is now listed."""


def text(value: str) -> JSONObject:
    return {"type": "text", "text": value}


def error_result(message: str) -> JSONObject:
    return {"content": [text(message)], "isError": True}


# --------------------------------------------------------------------------- validation

_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}


def validate(schema: JSONObject, value: Any, path: str = "arguments") -> list[str]:
    """Check ``value`` against the subset of JSON Schema used by the demo tools."""
    kind = schema.get("type")
    if isinstance(kind, str) and not _TYPES.get(kind, lambda _: True)(value):
        return [f"{path}: expected {kind}, got {type(value).__name__}"]
    problems: list[str] = []
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{path}: must be one of {schema['enum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            problems.append(f"{path}: shorter than {schema['minLength']} characters")
        if schema.get("format") == "email" and not _EMAIL_RE.match(value):
            problems.append(f"{path}: not an email address")
        if schema.get("format") == "date":
            try:
                date.fromisoformat(value)
            except ValueError:
                problems.append(f"{path}: not a date (YYYY-MM-DD)")
    if _TYPES["number"](value):
        if "minimum" in schema and value < schema["minimum"]:
            problems.append(f"{path}: less than {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            problems.append(f"{path}: greater than {schema['maximum']}")
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                problems.append(f"{path}.{name}: required")
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                problems.extend(validate(sub, value[name], f"{path}.{name}"))
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            problems.append(f"{path}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            problems.append(f"{path}: more than {schema['maxItems']} items")
        for i, item in enumerate(value):
            problems.extend(validate(schema.get("items", {}), item, f"{path}[{i}]"))
    return problems


# --------------------------------------------------------------------------- implementations


def _echo(ctx: ToolContext, args: JSONObject) -> JSONObject:
    ctx.log("debug", {"tool": "echo", "length": len(args["message"])})
    return {"content": [text(args["message"])]}


def _add(ctx: ToolContext, args: JSONObject) -> JSONObject:
    total = args["a"] + args["b"]
    structured = {"a": args["a"], "b": args["b"], "sum": total}
    return {"content": [text(json.dumps(structured))], "structuredContent": structured}


_ticket_ids = itertools.count(101)


def _create_ticket(ctx: ToolContext, args: JSONObject) -> JSONObject:
    ticket = {"id": f"TCK-{next(_ticket_ids)}", "priority": "medium", "tags": [], **args}
    ctx.log("info", {"created": ticket["id"]}, logger="tickets")
    summary = f"Created {ticket['id']}: {ticket['title']} (priority {ticket['priority']})"
    return {
        "content": [text(summary), text(json.dumps(ticket, indent=2))],
        "structuredContent": ticket,
    }


def _render_chart(ctx: ToolContext, args: JSONObject) -> JSONObject:
    values = [float(v) for v in args.get("values", [3, 1, 4, 1, 5, 9, 2, 6])]
    if any(v < 0 for v in values):
        return error_result("render_chart draws bars, so values must not be negative.")
    png = bar_chart_png(values)
    title = args.get("title") or "Bar chart"
    return {
        "content": [
            text(f"{title}: {len(values)} bars, max {max(values, default=0):g}"),
            {"type": "image", "mimeType": "image/png", "data": base64.b64encode(png).decode()},
        ]
    }


_fail_calls = itertools.count(1)


def _fail_sometimes(ctx: ToolContext, args: JSONObject) -> JSONObject:
    call = next(_fail_calls)
    mode = args.get("mode", "auto")
    if mode == "fail" or (mode == "auto" and call % 2 == 1):
        return error_result(
            f"Call #{call} failed on purpose: this is a tool execution error (isError: true), "
            "not a protocol error. The JSON-RPC response itself succeeded."
        )
    return {"content": [text(f"Call #{call} succeeded. Call again to see a failure.")]}


def _explode(ctx: ToolContext, args: JSONObject) -> JSONObject:
    raise ToolFailure("The explode tool always fails with a JSON-RPC internal error (-32603).")


def _slow_count(ctx: ToolContext, args: JSONObject) -> JSONObject:
    steps = int(args.get("steps", 5))
    delay = int(args.get("delay_ms", 300)) / 1000
    for step in range(1, steps + 1):
        ctx.sleep(delay)
        ctx.progress(step, steps, f"Counted {step} of {steps}")
        ctx.log("debug", f"slow_count step {step}/{steps}", logger="slow_count")
    return {"content": [text(f"Counted to {steps}.")]}


def _content_text(content: Any) -> str:
    blocks = content if isinstance(content, list) else [content]
    parts = [
        str(b.get("text")) if b.get("type") == "text" else f"[{b.get('type')} content]"
        for b in blocks
        if isinstance(b, dict)
    ]
    return "\n".join(parts) or "(no content)"


def _ask_llm(ctx: ToolContext, args: JSONObject) -> JSONObject:
    params: JSONObject = {
        "messages": [{"role": "user", "content": text(args["question"])}],
        "systemPrompt": "You are a concise assistant helping someone explore MCP.",
        "maxTokens": int(args.get("maxTokens", 200)),
        "modelPreferences": {"hints": [{"name": "claude"}], "speedPriority": 0.5},
    }
    result = ctx.ask("llm_answer", "sampling/createMessage", params)
    answer = _content_text(result.get("content"))
    model = result.get("model", "an unnamed model")
    return {"content": [text(f"{model} answered:\n\n{answer}")]}


ASK_USER_SCHEMA: JSONObject = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "description": "What should we call you?"},
        "age": {"type": "integer", "title": "Age", "minimum": 0, "maximum": 150},
        "subscribe": {
            "type": "boolean",
            "title": "Subscribe to the newsletter",
            "default": False,
        },
    },
    "required": ["name"],
}


def _ask_user(ctx: ToolContext, args: JSONObject) -> JSONObject:
    params: JSONObject = {
        "message": args.get("message") or "Tell the demo server a little about yourself.",
        "requestedSchema": ASK_USER_SCHEMA,
    }
    if ctx.protocol_version >= "2025-11-25":
        params = {"mode": "form", **params}
    result = ctx.ask("user_details", "elicitation/create", params)
    action = result.get("action")
    if action != "accept":
        return {"content": [text(f"The user chose {action!r}; nothing was shared.")]}
    content = result.get("content")
    fields = content if isinstance(content, dict) else {}
    problems = validate(ASK_USER_SCHEMA, fields, "content")
    if problems:
        return error_result("The form data does not match the schema: " + "; ".join(problems))
    subscribed = "subscribed" if fields.get("subscribe") else "not subscribed"
    age = f", age {fields['age']}" if "age" in fields else ""
    return {
        "content": [text(f"Hello, {fields['name']}{age} ({subscribed}).")],
        "structuredContent": fields,
    }


def _log_burst(ctx: ToolContext, args: JSONObject) -> JSONObject:
    count = int(args.get("count", 8))
    for i in range(count):
        level = LOG_LEVELS[i % len(LOG_LEVELS)]
        ctx.log(level, {"message": f"log message {i + 1} of {count}", "level": level}, "burst")
    return {"content": [text(f"Emitted {count} log messages (only those at or above the level).")]}


def _toggle_bonus(ctx: ToolContext, args: JSONObject) -> JSONObject:
    shown = ctx.toggle_bonus_tool()
    state = "added to" if shown else "removed from"
    return {"content": [text(f"The 'reverse' tool was {state} the list; list_changed was sent.")]}


def _reverse(ctx: ToolContext, args: JSONObject) -> JSONObject:
    return {"content": [text(args["text"][::-1])]}


# --------------------------------------------------------------------------- definitions


@dataclass(frozen=True)
class ToolSpec:
    definition: JSONObject
    run: Callable[[ToolContext, JSONObject], JSONObject]

    @property
    def name(self) -> str:
        return str(self.definition["name"])


def _hints(read_only: bool, destructive: bool, idempotent: bool, open_world: bool) -> JSONObject:
    return {
        "readOnlyHint": read_only,
        "destructiveHint": destructive,
        "idempotentHint": idempotent,
        "openWorldHint": open_world,
    }


def _tool(
    name: str,
    title: str,
    description: str,
    properties: JSONObject,
    required: list[str],
    annotations: JSONObject,
    run: Callable[[ToolContext, JSONObject], JSONObject],
    **extra: Any,
) -> ToolSpec:
    schema: JSONObject = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    definition = {
        "name": name,
        "title": title,
        "description": description,
        "inputSchema": schema,
        "annotations": annotations,
        **extra,
    }
    return ToolSpec(definition, run)


_PURE = _hints(True, False, True, False)
_STR: JSONObject = {"type": "string"}
_NUM: JSONObject = {"type": "number"}

TOOLS: list[ToolSpec] = [
    _tool(
        "echo",
        "Echo",
        "Returns the message unchanged.",
        {"message": {**_STR, "description": "Text to echo back"}},
        ["message"],
        _PURE,
        _echo,
    ),
    _tool(
        "add",
        "Add two numbers",
        "Adds a and b; the result is also structured content.",
        {"a": {**_NUM, "description": "First addend"}, "b": {**_NUM, "description": "Second"}},
        ["a", "b"],
        _PURE,
        _add,
        outputSchema={
            "type": "object",
            "properties": {"a": _NUM, "b": _NUM, "sum": _NUM},
            "required": ["a", "b", "sum"],
        },
    ),
    _tool(
        "create_ticket",
        "Create a ticket",
        "Files a (pretend) ticket. The form is nested.",
        {
            "title": {**_STR, "minLength": 3, "description": "Short summary"},
            "priority": {**_STR, "enum": ["low", "medium", "high"], "default": "medium"},
            "tags": {"type": "array", "items": _STR, "description": "Labels"},
            "assignee": {
                "type": "object",
                "description": "Who should work on it",
                "properties": {"name": _STR, "email": {**_STR, "format": "email"}},
                "required": ["name"],
            },
            "due": {**_STR, "format": "date", "description": "Due date (YYYY-MM-DD)"},
        },
        ["title"],
        _hints(False, False, False, False),
        _create_ticket,
    ),
    _tool(
        "render_chart",
        "Render a chart",
        "Draws a bar chart and returns it as a PNG image.",
        {
            "values": {
                "type": "array",
                "items": _NUM,
                "minItems": 1,
                "maxItems": 24,
                "default": [3, 1, 4, 1, 5, 9, 2, 6],
            },
            "title": {**_STR, "description": "Caption for the chart"},
        },
        [],
        _PURE,
        _render_chart,
    ),
    _tool(
        "fail_sometimes",
        "Fail sometimes",
        "Every other call returns a tool error (isError: true) with an explanation.",
        {"mode": {**_STR, "enum": ["auto", "fail", "succeed"], "default": "auto"}},
        [],
        _hints(True, False, False, False),
        _fail_sometimes,
    ),
    _tool(
        "explode",
        "Explode",
        "Always answers with a JSON-RPC error (-32603).",
        {},
        [],
        _PURE,
        _explode,
    ),
    _tool(
        "slow_count",
        "Count slowly",
        "Counts with a delay, sending progress per step. Cancel it half way.",
        {
            "steps": {"type": "integer", "minimum": 1, "maximum": 50, "default": 5},
            "delay_ms": {"type": "integer", "minimum": 0, "maximum": 5000, "default": 300},
        },
        [],
        _PURE,
        _slow_count,
    ),
    _tool(
        "ask_llm",
        "Ask the client's LLM",
        "Asks the client to sample an LLM (sampling).",
        {
            "question": {**_STR, "description": "What to ask", "default": "What is MCP?"},
            "maxTokens": {"type": "integer", "minimum": 1, "maximum": 4000, "default": 200},
        },
        ["question"],
        _hints(True, False, False, True),
        _ask_llm,
    ),
    _tool(
        "ask_user",
        "Ask the user",
        "Asks the user to fill in a small form (elicitation).",
        {"message": {**_STR, "description": "Text shown above the form"}},
        [],
        _hints(True, False, False, True),
        _ask_user,
    ),
    _tool(
        "log_burst",
        "Log burst",
        "Emits log messages at every level (notifications/message).",
        {"count": {"type": "integer", "minimum": 1, "maximum": 100, "default": 8}},
        [],
        _PURE,
        _log_burst,
    ),
    _tool(
        "toggle_bonus_tool",
        "Toggle bonus tool",
        "Adds or removes the 'reverse' tool and sends notifications/tools/list_changed.",
        {},
        [],
        _hints(False, False, False, False),
        _toggle_bonus,
    ),
]

BONUS_TOOL = _tool(
    "reverse",
    "Reverse text",
    "Reverses a string (a bonus tool).",
    {"text": _STR},
    ["text"],
    _PURE,
    _reverse,
)


def tool_specs(bonus: bool) -> list[ToolSpec]:
    return [*TOOLS, BONUS_TOOL] if bonus else list(TOOLS)


def find_tool(name: str, bonus: bool) -> ToolSpec | None:
    return next((t for t in tool_specs(bonus) if t.name == name), None)
