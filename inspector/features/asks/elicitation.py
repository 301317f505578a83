"""Elicitation requests, read leniently for the elicitation dialog (form and URL modes).

Qt-free. `requestedSchema` is a restricted JSON Schema (spec 2025-06-18 and later:
a flat object of primitive properties): strings (with formats and lengths), numbers
and integers (with bounds), booleans, and single or multi select enums (untitled,
titled via oneOf/anyOf const+title, or the legacy enumNames). `parse_form` lists the
fields and says what falls outside that subset (the form still shows it, as JSON);
the form itself (and its validation) is the shared schema form. `check_url` decides
whether a URL-mode elicitation's URL may be opened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias
from urllib.parse import urlsplit

import jsonschema

__all__ = [
    "ElicitField",
    "ElicitForm",
    "FieldKind",
    "check_url",
    "parse_form",
]

FieldKind: TypeAlias = Literal["string", "number", "integer", "boolean", "enum", "multi", "json"]


@dataclass(frozen=True, slots=True)
class ElicitField:
    name: str
    kind: FieldKind
    title: str
    description: str = ""
    required: bool = False
    default: Any = None
    options: list[tuple[str, str]] = field(default_factory=list)  # (value, label)
    format: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    minimum: float | None = None
    maximum: float | None = None
    min_items: int | None = None
    max_items: int | None = None

    @property
    def label(self) -> str:
        return self.title or self.name


@dataclass(frozen=True, slots=True)
class ElicitForm:
    fields: list[ElicitField]
    problems: list[str]
    schema: dict[str, Any]

    def defaults(self) -> dict[str, Any]:
        """The values the form starts with (spec: clients pre-fill `default`)."""
        return {f.name: f.default for f in self.fields if f.default is not None}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _titled(options: Any) -> list[tuple[str, str]] | None:
    """oneOf/anyOf [{const, title}] -> [(value, label)], or None if it is not that shape."""
    if not isinstance(options, list) or not options:
        return None
    out: list[tuple[str, str]] = []
    for option in options:
        if not isinstance(option, dict) or "const" not in option:
            return None
        value = str(option["const"])
        title = option.get("title")
        out.append((value, str(title) if title is not None else value))
    return out


def _plain(values: Any, names: Any = None) -> list[tuple[str, str]] | None:
    if not isinstance(values, list) or not values:
        return None
    labels = names if isinstance(names, list) and len(names) == len(values) else values
    return [(str(v), str(n)) for v, n in zip(values, labels, strict=True)]


def parse_form(schema: Any) -> ElicitForm:
    problems: list[str] = []
    if not isinstance(schema, dict):
        return ElicitForm([], ["requestedSchema is missing or not an object"], {})
    if schema.get("type") != "object":
        problems.append(f"requestedSchema.type is {schema.get('type')!r} (expected 'object')")
    props = schema.get("properties")
    if not isinstance(props, dict):
        problems.append("requestedSchema.properties is missing or not an object")
        props = {}
    required_raw = schema.get("required")
    required = (
        {r for r in required_raw if isinstance(r, str)} if isinstance(required_raw, list) else set()
    )
    fields: list[ElicitField] = []
    for name, prop in props.items():
        fields.append(_field(str(name), prop, str(name) in required, problems))
    for name in sorted(required - set(props)):
        problems.append(f"{name!r} is required but not among the properties")
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        problems.append(f"requestedSchema is not valid JSON Schema: {exc.message}")
    return ElicitForm(fields, problems, schema)


def _field(name: str, prop: Any, required: bool, problems: list[str]) -> ElicitField:
    if not isinstance(prop, dict):
        problems.append(f"{name}: the property schema is not an object; enter JSON")
        return ElicitField(name, "json", name, required=required)
    title = prop.get("title") if isinstance(prop.get("title"), str) else ""
    desc = prop.get("description") if isinstance(prop.get("description"), str) else ""
    default = prop.get("default")
    kind = prop.get("type")
    common: dict[str, Any] = {"title": title, "description": desc, "required": required}
    if kind == "array":
        raw_items = prop.get("items")
        items: dict[str, Any] = raw_items if isinstance(raw_items, dict) else {}
        options = (
            _titled(items.get("anyOf")) or _titled(items.get("oneOf")) or _plain(items.get("enum"))
        )
        if options is None:
            problems.append(f"{name}: an array without enum items is outside the spec; enter JSON")
            return ElicitField(name, "json", default=default, **common)
        if default is not None and not (
            isinstance(default, list) and all(isinstance(d, str) for d in default)
        ):
            problems.append(f"{name}: the default {default!r} is not a list of strings; ignored")
            default = None
        return ElicitField(
            name,
            "multi",
            default=default,
            options=options,
            min_items=_int(prop.get("minItems")),
            max_items=_int(prop.get("maxItems")),
            **common,
        )
    options = (
        _titled(prop.get("oneOf"))
        or _titled(prop.get("anyOf"))
        or _plain(prop.get("enum"), prop.get("enumNames"))
    )
    if options is not None:
        if default is not None and str(default) not in {v for v, _ in options}:
            problems.append(f"{name}: the default {default!r} is not one of the options; ignored")
            default = None
        return ElicitField(name, "enum", default=default, options=options, **common)
    if kind == "string":
        if default is not None and not isinstance(default, str):
            problems.append(f"{name}: the default {default!r} is not a string; ignored")
            default = None
        fmt = prop.get("format")
        return ElicitField(
            name,
            "string",
            default=default,
            format=fmt if isinstance(fmt, str) else None,
            min_length=_int(prop.get("minLength")),
            max_length=_int(prop.get("maxLength")),
            **common,
        )
    if kind in ("number", "integer"):
        if default is not None and _num(default) is None:
            problems.append(f"{name}: the default {default!r} is not a number; ignored")
            default = None
        return ElicitField(
            name,
            "integer" if kind == "integer" else "number",
            default=default,
            minimum=_num(prop.get("minimum")),
            maximum=_num(prop.get("maximum")),
            **common,
        )
    if kind == "boolean":
        if default is not None and not isinstance(default, bool):
            problems.append(f"{name}: the default {default!r} is not a boolean; ignored")
            default = None
        return ElicitField(name, "boolean", default=default, **common)
    problems.append(f"{name}: type {kind!r} is outside the elicitation subset; enter JSON")
    return ElicitField(name, "json", default=default, **common)


def check_url(url: Any) -> str | None:
    """Why a URL-mode elicitation's URL must not be opened, or None when it may be.

    Only http(s) URLs with a host are opened (DESIGN.md security: open only http(s)).
    """
    if not isinstance(url, str) or not url.strip():
        return "the server sent no URL"
    if any(ch.isspace() or ord(ch) < 32 for ch in url.strip()):
        return "the URL contains spaces or control characters"
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https"):
        shown = parts.scheme or "none"
        return f"only http and https URLs are opened (this one's scheme is {shown!r})"
    if not parts.hostname:
        return "the URL has no host"
    return None
