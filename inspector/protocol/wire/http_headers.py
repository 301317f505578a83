"""Request metadata headers of the 2026-07-28 streamable HTTP transport, without IO.

spec 2026-07-28 transports/streamable-http "Request Metadata": every POST carries
MCP-Protocol-Version and Mcp-Method; tools/call, resources/read and prompts/get carry
Mcp-Name; tool arguments whose schema says `x-mcp-header` are mirrored into
Mcp-Param-{Name}. Values that are not plain visible ASCII are sent as `=?base64?...?=`.
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
# Visible ASCII and space. A tab is a control character: spec "Value Encoding" sends
# values with control characters as base64.
_SAFE_VALUE: Final = re.compile(r"^[\x20-\x7e]*$")
_SENTINEL_HEAD: Final = "=?base64?"
_SENTINEL_TAIL: Final = "?="
_MAX_SAFE_INT: Final = 2**53 - 1
_NAME_METHODS: Final = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}


def encode_header_value(value: str) -> str:
    """The spec's Value Encoding: plain when safe ASCII, else the base64 sentinel.

    Base64 when the value has a character outside 0x20-0x7E (non-ASCII, control
    characters, CR/LF, tab), leading or trailing spaces, or looks like the sentinel itself.
    """
    needs_b64 = (
        not _SAFE_VALUE.match(value)
        or value != value.strip(" ")
        or (value.startswith(_SENTINEL_HEAD) and value.endswith(_SENTINEL_TAIL))
    )
    if not needs_b64:
        return value
    return _SENTINEL_HEAD + base64.b64encode(value.encode("utf-8")).decode("ascii") + _SENTINEL_TAIL


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
    """Find every x-mcp-header annotation and check the spec's constraints.

    spec 2026-07-28 streamable-http "Schema Extension": a non-empty token, on a string,
    integer or boolean property, case-insensitively unique, on a property reachable from
    the root through `properties` keys alone. The walk enters schema positions only
    (never instance data such as `default`, `const`, `enum` or `examples`), and does not
    follow `$ref`: a referenced definition is not statically reachable.
    """
    headers: list[tuple[tuple[str, ...], str]] = []
    problems: list[HeaderProblem] = []
    if not isinstance(input_schema, dict):
        return ToolHeaderSpec((), ())
    for path, where, node in _schema_positions(input_schema):
        if "x-mcp-header" not in node:
            continue
        name = node["x-mcp-header"]
        if not path:
            problems.append(
                HeaderProblem(
                    where,
                    "x-mcp-header is only allowed on properties reachable through "
                    "'properties' alone (not the root, items, oneOf/anyOf/allOf/not, $ref, "
                    "$defs, if/then/else, additionalProperties...)",
                )
            )
            continue
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
    # The walk is depth-first from a stack; report and mirror in document order.
    headers.sort(key=lambda item: _order(input_schema, item[0]))
    return ToolHeaderSpec(tuple(headers), tuple(problems))


def _order(schema: dict[str, Any], path: tuple[str, ...]) -> tuple[int, ...]:
    out: list[int] = []
    node: Any = schema
    for key in path:
        props = node.get("properties") if isinstance(node, dict) else None
        keys = list(props) if isinstance(props, dict) else []
        out.append(keys.index(key) if key in keys else len(keys))
        node = props.get(key) if isinstance(props, dict) else None
    return tuple(out)


# JSON Schema keywords whose values are schema positions (2020-12 and draft-07), by shape.
_SUB_ONE: Final = frozenset(
    {
        "items",
        "additionalItems",
        "contains",
        "unevaluatedItems",
        "additionalProperties",
        "unevaluatedProperties",
        "propertyNames",
        "not",
        "if",
        "then",
        "else",
        "contentSchema",
    }
)
_SUB_LIST: Final = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})
_SUB_MAP: Final = frozenset(
    {"patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"}
)


def _schema_positions(
    root: dict[str, Any],
) -> Iterator[tuple[tuple[str, ...] | None, str, dict[str, Any]]]:
    """(properties path, or None once off the pure-properties chain; a readable location;
    the schema) for every schema position. Iterative, so a deep schema cannot overflow."""
    stack: list[tuple[tuple[str, ...] | None, str, Any]] = [((), "(root)", root)]
    while stack:
        path, where, node = stack.pop()
        if not isinstance(node, dict):
            continue
        yield path, where, node
        prefix = "" if where == "(root)" else where + "/"
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    sub_path = (*path, str(name)) if path is not None else None
                    stack.append((sub_path, f"{prefix}{name}", sub))
            elif key in _SUB_ONE and isinstance(value, dict):
                stack.append((None, f"{prefix}{key}", value))
            elif key in _SUB_LIST and isinstance(value, list):
                for i, sub in enumerate(value):
                    stack.append((None, f"{prefix}{key}/{i}", sub))
            elif key in _SUB_MAP and isinstance(value, dict):
                for name, sub in value.items():
                    stack.append((None, f"{prefix}{key}/{name}", sub))


def _param_value(value: Any) -> str | None:
    """spec "Value Encoding", type conversion: booleans lower case, integers in decimal.

    An integer outside the JavaScript-safe range breaks the schema's contract, but the
    header still carries its exact decimal value (never a rounded float): leaving the
    header out would only make a conforming server answer "header missing".
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        try:
            return str(value)
        except ValueError:  # beyond Python's int-to-str digit limit
            return None
    if isinstance(value, float):
        if value.is_integer() and abs(value) <= _MAX_SAFE_INT:
            return str(int(value))
        return repr(value)
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
