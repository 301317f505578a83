"""RFC 6570 URI templates of MCP resource templates: variables, checks and expansion.

Expansion is the `uritemplate` library's (python-hyper). It is lenient with malformed
templates (an unclosed brace stays a literal), so a template is also checked here against
the RFC's grammar, and what is wrong is reported next to the expansion, never hidden:
a debugger shows a server's broken template and still lets the user try it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from uritemplate import URITemplate

__all__ = [
    "ExpandedUri",
    "TemplateVariable",
    "UriTemplate",
    "variables_schema",
]

# RFC 6570 §2.2: operators; "=,!@|" are reserved for future extensions.
_OPERATORS: Final = "+#./;?&"
_RESERVED_OPERATORS: Final = "=,!@|"
# RFC 6570 §2.3: varname = varchar *( ["."] varchar ); varchar = ALPHA / DIGIT / "_" / pct-encoded
_VARNAME: Final = re.compile(
    r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*"
)
_VARSPEC: Final = re.compile(rf"(?P<name>{_VARNAME.pattern})(?:(?P<explode>\*)|:(?P<prefix>\d+))?")
_EXPRESSION: Final = re.compile(r"\{([^{}]*)\}")
# Operators whose variables are usually optional parts (query, continuation, fragment).
_OPTIONAL_OPERATORS: Final = frozenset("?&#")


@dataclass(frozen=True, slots=True)
class TemplateVariable:
    name: str
    operator: str  # "" for simple string expansion
    explode: bool = False
    prefix: int | None = None

    @property
    def optional(self) -> bool:
        return self.operator in _OPTIONAL_OPERATORS


@dataclass(frozen=True, slots=True)
class ExpandedUri:
    uri: str
    missing: tuple[str, ...]  # required variables left empty


class UriTemplate:
    """One template: its variables in order of first use, its problems, and expansion."""

    def __init__(self, template: str) -> None:
        self.template = template
        self.problems: list[str] = []
        self.variables: list[TemplateVariable] = []
        self._parse()
        self._compiled: URITemplate | None = None
        try:
            self._compiled = URITemplate(template)
        except (ValueError, TypeError) as exc:  # e.g. "{a:abc}": the library gives up
            self.problems.append(f"cannot expand this template: {exc}")

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def names(self) -> list[str]:
        return [v.name for v in self.variables]

    def variable(self, name: str) -> TemplateVariable | None:
        return next((v for v in self.variables if v.name == name), None)

    def _parse(self) -> None:
        seen: set[str] = set()
        depth_problem = _brace_problem(self.template)
        if depth_problem:
            self.problems.append(depth_problem)
        for match in _EXPRESSION.finditer(self.template):
            body = match.group(1)
            where = f"expression {match.group(0)!r}"
            if not body:
                self.problems.append(f"{where} is empty")
                continue
            operator = ""
            if body[0] in _OPERATORS:
                operator, body = body[0], body[1:]
            elif body[0] in _RESERVED_OPERATORS:
                self.problems.append(f"{where} uses the reserved operator {body[0]!r}")
                continue
            for spec in body.split(","):
                parsed = _VARSPEC.fullmatch(spec)
                if parsed is None:
                    self.problems.append(f"{where}: {spec!r} is not a valid variable")
                    continue
                prefix = parsed.group("prefix")
                if prefix is not None and not 0 < int(prefix) < 10000:
                    self.problems.append(f"{where}: prefix length {prefix} is not 1-9999")
                name = parsed.group("name")
                if name in seen:
                    continue
                seen.add(name)
                self.variables.append(
                    TemplateVariable(
                        name,
                        operator,
                        explode=parsed.group("explode") is not None,
                        prefix=int(prefix) if prefix is not None else None,
                    )
                )

    def expand(self, values: dict[str, Any]) -> ExpandedUri:
        """Expand with the given values; empty strings and lists count as undefined (RFC 6570
        §2.3), so an optional query part disappears instead of becoming "?q=".

        Values are strings, lists of strings, or dicts of strings (explode); other scalars
        are turned into their JSON-ish text.
        """
        clean: dict[str, Any] = {}
        for name in self.names:
            value = _clean(values.get(name))
            if value is not None:
                clean[name] = value
        missing = tuple(v.name for v in self.variables if not v.optional and v.name not in clean)
        if self._compiled is None:
            return ExpandedUri(self.template, missing)
        try:
            uri = self._compiled.expand(clean)
        except (ValueError, TypeError, KeyError) as exc:
            self.problems.append(f"expansion failed: {exc}")
            return ExpandedUri(self.template, missing)
        return ExpandedUri(uri, missing)


def variables_schema(
    template: UriTemplate, descriptions: dict[str, str] | None = None
) -> dict[str, Any]:
    """A JSON Schema for a form with one field per template variable.

    Exploded variables ({/path*}) take a list; the others a string. Variables outside a
    query or fragment are required: an empty path segment rarely names a resource.
    """
    properties: dict[str, Any] = {}
    required: list[str] = []
    for var in template.variables:
        prop: dict[str, Any]
        if var.explode:
            prop = {"type": "array", "items": {"type": "string"}}
        else:
            prop = {"type": "string"}
            if var.prefix is not None:
                prop["maxLength"] = var.prefix
        hint = _OPERATOR_HINTS.get(var.operator)
        description = (descriptions or {}).get(var.name) or hint
        if description:
            prop["description"] = description
        properties[var.name] = prop
        if not var.optional:
            required.append(var.name)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


_OPERATOR_HINTS: Final = {
    "+": "reserved expansion: '/', '?' and '#' are kept as typed",
    "#": "fragment",
    ".": "label (after a dot)",
    "/": "path segment",
    ";": "path parameter",
    "?": "query parameter",
    "&": "query continuation",
}


def _clean(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, str):
        return value or None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        items = [str(v) for v in value if v is not None and v != ""]
        return items or None
    if isinstance(value, dict):
        pairs = {str(k): str(v) for k, v in value.items() if v is not None and v != ""}
        return pairs or None
    return str(value)


def _brace_problem(template: str) -> str | None:
    depth = 0
    for i, ch in enumerate(template):
        if ch == "{":
            if depth:
                return f"a '{{' inside an expression at position {i}"
            depth = 1
        elif ch == "}":
            if not depth:
                return f"an unmatched '}}' at position {i}"
            depth = 0
    return "an unclosed '{'" if depth else None
