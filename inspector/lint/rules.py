"""The spec's rules that the schema cannot say, each named with the section it comes from.

Each rule is a function over one message and the `LintContext` the linter keeps across
messages (what the server declared, the tools' output schemas, the pages of a listing).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from jsonschema import validators
from jsonschema.protocols import Validator

from inspector.lint.finding import Finding
from inspector.lint.schema_check import pointer, short

__all__ = [
    "SPEC",
    "LintContext",
    "capability_findings",
    "cursor_findings",
    "list_findings",
    "list_item_findings",
    "list_key",
    "schema_of_tool_findings",
    "session_id_findings",
    "structured_content_findings",
    "tool_schema_findings",
]

# rule id -> the spec section it comes from
SPEC: Final[dict[str, str]] = {
    "tool-name-format": "2025-11-25 server/tools § Tool names",
    "unique-names": "server/tools, server/prompts, server/resources: names identify items",
    "cursor-loop": "utilities/pagination: a cursor is an opaque position; it must move on",
    "input-schema-invalid": "server/tools § Tool: inputSchema is a JSON Schema",
    "output-schema-invalid": "server/tools § Output schema: outputSchema is a JSON Schema",
    "structured-content-schema": "server/tools § Output schema: results MUST conform",
    "structured-content-missing": "server/tools § Output schema: MUST provide structured results",
    "response-to-notification": "basic § Notifications: the receiver MUST NOT send a response",
    "undeclared-capability": "basic/lifecycle § Capability negotiation",
    "session-id-ascii": "basic/transports § Session management: visible ASCII (0x21-0x7E)",
    "discover-missing": "2026-07-28 server/discover: servers MUST implement it",
    "unknown-method": "schema.json: the version's ServerRequest/ServerNotification",
}

_TOOL_NAME: Final = re.compile(r"[A-Za-z0-9_.\-]{1,128}")
_VISIBLE_ASCII: Final = re.compile(r"[\x21-\x7e]+")
_LIST_KEYS: Final[dict[str, tuple[str, str]]] = {
    "tools/list": ("tools", "name"),
    "prompts/list": ("prompts", "name"),
    "resources/list": ("resources", "uri"),
    "resources/templates/list": ("resourceTemplates", "uriTemplate"),
}
# notification -> (capability, flag that must be true; "" = the capability alone)
_NOTIFICATION_CAPS: Final[dict[str, tuple[str, str]]] = {
    "notifications/message": ("logging", ""),
    "notifications/tools/list_changed": ("tools", "listChanged"),
    "notifications/prompts/list_changed": ("prompts", "listChanged"),
    "notifications/resources/list_changed": ("resources", "listChanged"),
    "notifications/resources/updated": ("resources", "subscribe"),
}


@dataclass
class _Listing:
    names: set[str] = field(default_factory=set)
    cursors: set[str] = field(default_factory=set)


@dataclass
class LintContext:
    """What the linter remembers between messages of one session."""

    capabilities: dict[str, Any] | None = None  # the server's, once it said them
    output_schemas: dict[str, Any] = field(default_factory=dict)  # tool -> outputSchema
    listings: dict[str, _Listing] = field(default_factory=dict)  # method -> current listing
    notifications_sent: int = 0  # notifications we sent so far
    session_ids: set[str] = field(default_factory=set)  # judged already

    def listing(self, method: str, cursor: Any) -> _Listing:
        """The listing a page belongs to: a request without a cursor starts a new one."""
        current = self.listings.get(method)
        if current is None or cursor is None:
            current = self.listings[method] = _Listing()
        return current


def _finding(index: int, rule: str, message: str, ptr: str = "", value: Any = None) -> Finding:
    return Finding(
        index=index,
        rule=rule,
        message=message,
        pointer=ptr,
        value="" if value is None else short(value),
        where=SPEC.get(rule, ""),
    )


def list_key(method: str) -> str:
    """The member of a listing's result that holds its items (`tools`, ...)."""
    return _LIST_KEYS[method][0]


def list_findings(
    ctx: LintContext, index: int, method: str, result: dict[str, Any], cursor: Any, version: str
) -> Iterator[Finding]:
    """Unique names across the pages of one listing, cursors that loop, tool names."""
    key = _LIST_KEYS.get(method)
    if key is None:
        return
    listing = ctx.listing(method, cursor)
    items = result.get(key[0])
    if isinstance(items, list):
        for i, item in enumerate(items):
            yield from list_item_findings(listing, index, method, i, item, version)
    yield from cursor_findings(listing, index, result, cursor)


def list_item_findings(
    listing: _Listing, index: int, method: str, i: int, item: Any, version: str
) -> Iterator[Finding]:
    """The name of item `i` of a listing: listed before? a valid tool name?"""
    items_key, name_key = _LIST_KEYS[method]
    if not isinstance(item, dict):
        return
    name = item.get(name_key)
    if not isinstance(name, str):
        return
    where = pointer(("result", items_key, i, name_key))
    if name in listing.names:
        yield _finding(index, "unique-names", f"{name_key} {name!r} is listed twice", where, name)
    listing.names.add(name)
    if method == "tools/list" and version >= "2025-11-25" and not _TOOL_NAME.fullmatch(name):
        yield _finding(
            index,
            "tool-name-format",
            "tool names should be 1-128 characters of A-Z a-z 0-9 _ - .",
            where,
            name,
        )


def cursor_findings(
    listing: _Listing, index: int, result: dict[str, Any], cursor: Any
) -> Iterator[Finding]:
    """A page whose nextCursor repeats a cursor of its listing."""
    next_cursor = result.get("nextCursor")
    if isinstance(next_cursor, str):
        if next_cursor == cursor or next_cursor in listing.cursors:
            yield _finding(
                index,
                "cursor-loop",
                "nextCursor repeats a cursor of this listing: paging would never end",
                "/result/nextCursor",
                next_cursor,
            )
        listing.cursors.add(next_cursor)
    if isinstance(cursor, str):
        listing.cursors.add(cursor)


_DRAFT_URIS: Final = {
    "draft-07": "http://json-schema.org/draft-07/schema#",
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
}
_PROBLEMS_KEPT: Final = 4096
_problems: dict[str, str | None] = {}  # (draft, schema as canonical JSON) -> its problem


@functools.cache
def _meta_validator(cls: type[Validator]) -> Validator:
    """The validator of `cls`'s meta-schema, compiled once (what `cls.check_schema` builds
    on every call)."""
    meta_cls = validators.validator_for(cls.META_SCHEMA, default=cls)
    return meta_cls(cls.META_SCHEMA, format_checker=meta_cls.FORMAT_CHECKER)


def _schema_problem(schema: Any, default_draft: str) -> str | None:
    """What makes `schema` unfit as a tool's input or output schema (None: nothing).
    Remembered by the schema's text: a catalog repeats its schemas, and a gateway's
    thousands of tools share a few."""
    if not isinstance(schema, dict):
        return "is not a JSON object"
    if schema.get("type") != "object":
        return 'must have "type": "object"'
    try:
        key = default_draft + " " + json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return _meta_problem(schema, default_draft)
    if key in _problems:
        return _problems[key]
    if len(_problems) >= _PROBLEMS_KEPT:
        _problems.clear()
    found = _problems[key] = _meta_problem(schema, default_draft)
    return found


def _meta_problem(schema: dict[str, Any], default_draft: str) -> str | None:
    if not isinstance(schema.get("$schema", ""), str):
        return 'is not valid JSON Schema: "$schema" must be a URI string'
    default = validators.validator_for(
        {"$schema": _DRAFT_URIS.get(default_draft, _DRAFT_URIS["2020-12"])}
    )
    cls = validators.validator_for(schema, default=default)
    try:
        error = next(iter(_meta_validator(cls).iter_errors(schema)), None)
    except RecursionError:
        return "is nested too deeply to check"
    # The message `cls.check_schema` would raise with.
    return None if error is None else f"is not valid JSON Schema: {error.message}"


def schema_of_tool_findings(
    ctx: LintContext, index: int, result: dict[str, Any], draft: str
) -> Iterator[Finding]:
    """inputSchema/outputSchema of each listed tool are valid JSON Schema (2020-12 unless
    they say otherwise in the modern era and 2025-11-25; draft-07 before); remembers the
    output schemas for the tools' results."""
    tools = result.get("tools")
    if not isinstance(tools, list):
        return
    for i, tool in enumerate(tools):
        yield from tool_schema_findings(ctx, index, i, tool, draft)


def tool_schema_findings(
    ctx: LintContext, index: int, i: int, tool: Any, draft: str
) -> Iterator[Finding]:
    """The schemas of tool `i` of a listing."""
    if not isinstance(tool, dict):
        return
    for key, rule in (
        ("inputSchema", "input-schema-invalid"),
        ("outputSchema", "output-schema-invalid"),
    ):
        if key not in tool:
            continue
        problem = _schema_problem(tool[key], draft)
        if problem:
            yield _finding(
                index, rule, f"{key} {problem}", pointer(("result", "tools", i, key)), tool[key]
            )
        elif key == "outputSchema" and isinstance(tool.get("name"), str):
            ctx.output_schemas[tool["name"]] = tool[key]


def structured_content_findings(
    ctx: LintContext, index: int, tool: Any, result: dict[str, Any], draft: str
) -> Iterator[Finding]:
    schema = ctx.output_schemas.get(tool) if isinstance(tool, str) else None
    if (
        schema is None
        or result.get("isError") is True
        or result.get("resultType")
        not in (
            None,
            "complete",
        )
    ):
        return
    if "structuredContent" not in result:
        yield _finding(
            index,
            "structured-content-missing",
            f"tool {tool!r} declares an outputSchema but returned no structuredContent",
            "/result",
        )
        return
    default = validators.validator_for(
        {"$schema": "http://json-schema.org/draft-07/schema#"}
        if draft == "draft-07"
        else {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    )
    cls = validators.validator_for(schema, default=default)
    for error in list(cls(schema).iter_errors(result["structuredContent"]))[:10]:
        yield _finding(
            index,
            "structured-content-schema",
            f"structuredContent breaks the outputSchema of {tool!r}: {error.message[:200]}",
            pointer(("result", "structuredContent", *error.absolute_path)),
            error.instance,
        )


def capability_findings(ctx: LintContext, index: int, method: str) -> Iterator[Finding]:
    caps = ctx.capabilities
    need = _NOTIFICATION_CAPS.get(method)
    if caps is None or need is None:
        return
    cap, flag = need
    declared = caps.get(cap)
    if not isinstance(declared, dict) or (flag and declared.get(flag) is not True):
        wanted = f"{cap}.{flag}" if flag else cap
        yield _finding(
            index,
            "undeclared-capability",
            f"{method} sent, but the server did not declare {wanted}",
            "/method",
            method,
        )


def session_id_findings(ctx: LintContext, index: int, headers: dict[str, str]) -> Iterator[Finding]:
    """Each session id is judged once (every exchange of the session repeats it)."""
    for name, value in headers.items():
        if name.lower() != "mcp-session-id":
            continue
        if len(value) == 9 and value.endswith("…"):
            # The transport keeps only the head of a long session id (a log must not let
            # anyone hijack the session): check what is left; `check` sees it whole.
            value = value[:8]
        if value in ctx.session_ids:
            continue
        ctx.session_ids.add(value)
        if not _VISIBLE_ASCII.fullmatch(value):
            yield _finding(
                index,
                "session-id-ascii",
                "Mcp-Session-Id must be visible ASCII only (0x21 to 0x7E)",
                "",
                value,
            )
