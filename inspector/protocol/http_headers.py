"""Request metadata headers of the 2026-07-28 streamable HTTP transport, without IO.

spec 2026-07-28 transports/streamable-http "Request Metadata": every POST carries
MCP-Protocol-Version and Mcp-Method; tools/call, resources/read and prompts/get carry
Mcp-Name; tool arguments whose schema says `x-mcp-header` are mirrored into
Mcp-Param-{Name}. Values outside visible ASCII are sent as `=?base64?...?=`.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "HeaderProblem",
    "ToolHeaderSpec",
    "encode_header_value",
    "parse_tool_headers",
    "request_headers",
]

_TCHAR: Final = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
_SAFE_VALUE: Final = re.compile(r"^[\x20-\x7e\t]*$")
_MAX_SAFE_INT: Final = 2**53 - 1
_NAME_METHODS: Final = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}


def encode_header_value(value: str) -> str:
    """The spec's Value Encoding: plain when safe ASCII, else the base64 sentinel."""
    needs_b64 = (
        not _SAFE_VALUE.match(value)
        or value != value.strip(" \t")
        or (value.startswith("=?base64?") and value.endswith("?="))
    )
    if not needs_b64:
        return value
    return "=?base64?" + base64.b64encode(value.encode("utf-8")).decode("ascii") + "?="


@dataclass(frozen=True, slots=True)
class HeaderProblem:
    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass(frozen=True, slots=True)
class ToolHeaderSpec:
    """What a tool's inputSchema says about x-mcp-header. `problems` non-empty = invalid tool."""

    headers: tuple[tuple[tuple[str, ...], str], ...]  # (property path, header name part)
    problems: tuple[HeaderProblem, ...]

    @property
    def valid(self) -> bool:
        return not self.problems

    def describe_problems(self) -> str:
        return "; ".join(str(p) for p in self.problems)


def parse_tool_headers(input_schema: Any) -> ToolHeaderSpec:
    """Find every x-mcp-header annotation and check the spec's constraints."""
    headers: list[tuple[tuple[str, ...], str]] = []
    problems: list[HeaderProblem] = []
    if not isinstance(input_schema, dict):
        return ToolHeaderSpec((), ())
    reachable: set[int] = set()
    for path, node in _static_properties(input_schema, ()):
        reachable.add(id(node))
        if "x-mcp-header" not in node:
            continue
        name = node["x-mcp-header"]
        where = "/".join(path)
        if not isinstance(name, str) or not name:
            problems.append(HeaderProblem(where, "x-mcp-header must be a non-empty string"))
            continue
        if not _TCHAR.match(name):
            problems.append(
                HeaderProblem(where, f"x-mcp-header {name!r} is not a valid HTTP field name")
            )
            continue
        kind = node.get("type")
        if kind not in ("string", "integer", "boolean"):
            problems.append(
                HeaderProblem(
                    where,
                    f"x-mcp-header on a property of type {kind!r} "
                    "(only string, integer and boolean are allowed)",
                )
            )
            continue
        if any(existing.lower() == name.lower() for _, existing in headers):
            problems.append(HeaderProblem(where, f"x-mcp-header {name!r} is used twice"))
            continue
        headers.append((path, name))
    for path, node in _all_annotated(input_schema, ()):
        if id(node) not in reachable:
            problems.append(
                HeaderProblem(
                    "/".join(path) or "(root)",
                    "x-mcp-header is only allowed on properties reachable through "
                    "'properties' alone (not items, oneOf/anyOf/allOf, $ref, if/then/else)",
                )
            )
    return ToolHeaderSpec(tuple(headers), tuple(problems))


def _static_properties(
    schema: dict[str, Any], path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return
    for key, sub in props.items():
        if isinstance(sub, dict):
            yield (*path, str(key)), sub
            yield from _static_properties(sub, (*path, str(key)))


def _all_annotated(node: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(node, dict):
        if "x-mcp-header" in node and path:
            yield path, node
        for key, sub in node.items():
            yield from _all_annotated(sub, (*path, str(key)))
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _all_annotated(sub, (*path, str(i)))


def _param_value(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) > _MAX_SAFE_INT:
            return None
        return str(value)
    if isinstance(value, float) and value.is_integer() and abs(value) <= _MAX_SAFE_INT:
        return str(int(value))
    if isinstance(value, str):
        return encode_header_value(value)
    return None


def request_headers(
    method: str,
    params: dict[str, Any] | None,
    protocol_version: str,
    tool_spec: ToolHeaderSpec | None = None,
) -> dict[str, str]:
    """The headers a modern POST of this request carries."""
    headers = {"MCP-Protocol-Version": protocol_version, "Mcp-Method": method}
    field = _NAME_METHODS.get(method)
    if field is not None and params is not None:
        value = params.get(field)
        if isinstance(value, str):
            headers["Mcp-Name"] = encode_header_value(value)
    if method == "tools/call" and tool_spec is not None and params is not None:
        arguments = params.get("arguments")
        for path, name in tool_spec.headers:
            node: Any = arguments
            for key in path:
                node = node.get(key) if isinstance(node, dict) else None
            encoded = _param_value(node)
            if encoded is not None:
                headers[f"Mcp-Param-{name}"] = encoded
    return headers
