"""The spec's rules that the schema cannot say, each named with the section it comes from.

Each rule is a function over one message and the `LintContext` the linter keeps across
messages (what the server declared, the tools' output schemas, the pages of a listing).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from jsonschema import validators
from jsonschema.exceptions import SchemaError

from inspector.lint.finding import Finding
from inspector.lint.schema_check import pointer, short

__all__ = [
    "SPEC",
    "LintContext",
    "capability_findings",
    "list_findings",
    "schema_of_tool_findings",
    "session_id_findings",
    "structured_content_findings",
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


def list_findings(
    ctx: LintContext, index: int, method: str, result: dict[str, Any], cursor: Any, version: str
) -> Iterator[Finding]:
    """Unique names across the pages of one listing, cursors that loop, tool names."""
    key = _LIST_KEYS.get(method)
    if key is None:
        return
    items_key, name_key = key
    listing = ctx.listing(method, cursor)
    items = result.get(items_key)
    if isinstance(items, list):
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            name = item.get(name_key)
            if not isinstance(name, str):
                continue
            where = pointer(("result", items_key, i, name_key))
            if name in listing.names:
                yield _finding(
                    index, "unique-names", f"{name_key} {name!r} is listed twice", where, name
                )
            listing.names.add(name)
            if (
                method == "tools/list"
                and version >= "2025-11-25"
                and not _TOOL_NAME.fullmatch(name)
            ):
                yield _finding(
                    index,
                    "tool-name-format",
                    "tool names should be 1-128 characters of A-Z a-z 0-9 _ - .",
                    where,
                    name,
                )
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


def _schema_problem(schema: Any, default_draft: str) -> str | None:
    if not isinstance(schema, dict):
        return "is not a JSON object"
    if schema.get("type") != "object":
        return 'must have "type": "object"'
    default = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    if default_draft == "draft-07":
        default = {"$schema": "http://json-schema.org/draft-07/schema#"}
    try:
        cls = validators.validator_for(schema, default=validators.validator_for(default))
        cls.check_schema(schema)
    except SchemaError as exc:
        return f"is not valid JSON Schema: {exc.message}"
    return None


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
        if not isinstance(tool, dict):
            continue
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
