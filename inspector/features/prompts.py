"""Prompts, Qt-free: a form schema from a prompt's arguments, the arguments to send, and
a prompts/get result read as a conversation (every bad shape kept and described).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Conversation",
    "PromptMessage",
    "arguments_schema",
    "arguments_to_send",
    "parse_get_prompt_result",
]


def arguments_schema(raw_prompt: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A JSON Schema (an object of strings) for the prompt's arguments, and what is wrong
    with the declared arguments. spec PromptArgument: name, title, description, required;
    arguments are always strings."""
    problems: list[str] = []
    properties: dict[str, Any] = {}
    required: list[str] = []
    arguments = raw_prompt.get("arguments")
    if arguments is None:
        return {"type": "object", "properties": {}}, problems
    if not isinstance(arguments, list):
        return {"type": "object", "properties": {}}, ["'arguments' is not a list"]
    for i, arg in enumerate(arguments):
        if not isinstance(arg, dict):
            problems.append(f"arguments[{i}] is not an object")
            continue
        name = arg.get("name")
        if not isinstance(name, str) or not name:
            problems.append(f"arguments[{i}] has no name")
            continue
        if name in properties:
            problems.append(f"argument {name!r} is declared twice")
            continue
        prop: dict[str, Any] = {"type": "string"}
        title, description = arg.get("title"), arg.get("description")
        if isinstance(title, str) and title:
            prop["title"] = title
        if isinstance(description, str) and description:
            prop["description"] = description
        properties[name] = prop
        req = arg.get("required")
        if req is True:
            required.append(name)
        elif req is not None and not isinstance(req, bool):
            problems.append(f"argument {name!r}: 'required' is not a boolean")
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema, problems


def arguments_to_send(values: dict[str, Any], *, as_typed: bool = False) -> dict[str, Any]:
    """The `arguments` of prompts/get: non-empty strings. With `as_typed` (Send anyway),
    values go as they are, to test the server's own validation."""
    if as_typed:
        return dict(values)
    out: dict[str, Any] = {}
    for name, value in values.items():
        if value is None or value == "":
            continue
        out[name] = value if isinstance(value, str) else str(value)
    return out


@dataclass
class PromptMessage:
    index: int
    role: str  # "user", "assistant", or what the server sent (flagged)
    blocks: list[dict[str, Any]]
    problems: list[str] = field(default_factory=list)


@dataclass
class Conversation:
    description: str | None
    messages: list[PromptMessage]
    problems: list[str]

    @property
    def all_problems(self) -> list[str]:
        out = list(self.problems)
        for m in self.messages:
            out.extend(f"messages[{m.index}]: {p}" for p in m.problems)
        return out


_ROLES = ("user", "assistant")


def parse_get_prompt_result(result: Any) -> Conversation:
    if not isinstance(result, dict):
        return Conversation(None, [], [f"the result is {type(result).__name__}, not an object"])
    problems: list[str] = []
    description = result.get("description")
    if description is not None and not isinstance(description, str):
        problems.append("'description' is not a string")
        description = None
    raw = result.get("messages")
    if raw is None:
        return Conversation(description, [], [*problems, "the result has no 'messages'"])
    if not isinstance(raw, list):
        return Conversation(description, [], [*problems, "'messages' is not a list"])
    if not raw:
        problems.append("'messages' is empty")
    return Conversation(description, [_message(i, m) for i, m in enumerate(raw)], problems)


def _message(index: int, raw: Any) -> PromptMessage:
    if not isinstance(raw, dict):
        return PromptMessage(
            index,
            "?",
            [{"type": "text", "text": repr(raw)[:2000]}],
            [f"not an object but {type(raw).__name__}"],
        )
    problems: list[str] = []
    role = raw.get("role")
    if not isinstance(role, str):
        problems.append("no role" if role is None else "'role' is not a string")
        role = "?"
    elif role not in _ROLES:
        problems.append(f"unknown role {role!r}")
    content = raw.get("content")
    blocks: list[dict[str, Any]]
    if isinstance(content, dict):
        blocks = [content]
    elif isinstance(content, list):  # some servers send a list; the spec says one block
        blocks = [b if isinstance(b, dict) else {"type": "?", "value": b} for b in content]
        problems.append("'content' is a list; the spec allows one content block per message")
    elif content is None:
        blocks = []
        problems.append("no content")
    else:
        blocks = [{"type": "text", "text": str(content)}]
        problems.append(f"'content' is a {type(content).__name__}, not a content block")
    return PromptMessage(index, role, blocks, problems)
