"""What a form built from a JSON Schema shows, Qt-free: field specs, defaults, coercion, errors.

`build_form(schema)` turns an object schema (a tool's inputSchema, a prompt's arguments, an
elicitation's requestedSchema) into a tree of `FieldSpec`s that a widget layer renders. What
the form cannot express (a remote `$ref`, several types, a complex oneOf/allOf, a map of
additionalProperties) becomes a `json` field with the reason, so the rest of the form still
works and nothing is lost. Validation lives in `schema_validation` (re-exported here).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

from inspector.features.forms.secret_fields import looks_secret
from inspector.features.forms.validation import (
    FieldError,
    Path,
    ValidationReport,
    path_str,
    validate_values,
    validator_class,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_ITEMS",
    "MAX_PROPERTIES",
    "UNSET",
    "Choice",
    "FieldError",
    "FieldKind",
    "FieldSpec",
    "FormPlan",
    "Path",
    "ValidationReport",
    "build_form",
    "format_number",
    "initial_value",
    "parse_number",
    "path_str",
    "split_known",
    "validate_values",
    "validator_class",
]

FieldKind: TypeAlias = Literal[
    "string", "number", "integer", "boolean", "enum", "multi_enum", "array", "object", "json"
]


class _Unset:
    """A field the user left empty: omitted from the values (distinct from null)."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Final = _Unset()

_MAX_REF_DEPTH: Final = 8
MAX_DEPTH: Final = 10  # deeper objects and arrays are edited as JSON
MAX_PROPERTIES: Final = 150  # an object with more properties is edited as JSON
MAX_ITEMS: Final = 200  # an array value with more items is edited as JSON
_LONG_TEXT_NAME: Final = re.compile(
    r"^(text|body|content|contents|description|message|prompt|code|script|sql|"
    r"markdown|html|notes?|comment|instructions|template|source|snippet|yaml|json|xml)$",
    re.IGNORECASE,
)
# Keys that only describe a schema: merging them never changes what it accepts.
_ANNOTATIONS: Final = {"title", "description", "default", "examples", "$comment", "deprecated"}


@dataclass(frozen=True)
class Choice:
    value: Any
    label: str


@dataclass
class FieldSpec:
    name: str  # the property name; "" for the root, "[]" for array items
    kind: FieldKind
    schema: dict[str, Any]  # the (resolved) sub-schema
    title: str = ""
    description: str = ""
    required: bool = False
    default: Any = UNSET
    nullable: bool = False
    format: str | None = None
    multiline: bool = False
    secret: bool = False  # format: password, or writeOnly: mask it, never remember it
    read_only: bool = False  # a const: shown, not editable
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: bool = False
    exclusive_maximum: bool = False
    step: float | None = None  # multipleOf
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    choices: list[Choice] = field(default_factory=list)
    item: FieldSpec | None = None
    min_items: int | None = None
    max_items: int | None = None
    properties: list[FieldSpec] = field(default_factory=list)
    extra_keys: bool = False  # the object accepts keys beyond its properties
    why_json: str | None = None  # why a `json` field is not a typed one
    keep_empty: bool = False  # an array item: an empty editor still counts as a value

    @property
    def label(self) -> str:
        return self.title or self.name

    def child(self, name: str) -> FieldSpec | None:
        return next((p for p in self.properties if p.name == name), None)

    def walk(self) -> Iterator[FieldSpec]:
        yield self
        for prop in self.properties:
            yield from prop.walk()
        if self.item is not None:
            yield from self.item.walk()


@dataclass
class FormPlan:
    root: FieldSpec | None  # None: the schema is not an object form; JSON only
    warnings: list[str] = field(default_factory=list)  # what the form leaves to JSON, and why
    why_json_only: str | None = None


# --------------------------------------------------------------------------- building


def build_form(schema: Any) -> FormPlan:
    if schema is None or schema == {} or schema is True:
        schema = {"type": "object"}
    if not isinstance(schema, dict):
        why = f"the schema is a {type(schema).__name__}, not an object"
        return FormPlan(None, [why], why)
    builder = _Builder(schema)
    root = builder.spec("", schema, required=True)
    if root.kind != "object":
        why = root.why_json or f"the arguments are a {root.kind}, not an object"
        return FormPlan(None, [*builder.warnings, why], why)
    return FormPlan(root, builder.warnings)


class _Builder:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.warnings: list[str] = []
        self.depth = 0

    def warn(self, where: str, why: str) -> None:
        self.warnings.append(f"{where or 'arguments'}: {why}")

    # -- $ref ----------------------------------------------------------------
    def resolve(self, schema: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
        """Follow local `#/...` refs (a few levels, no cycles); returns (schema, why not)."""
        seen: set[str] = set()
        current = schema
        for _ in range(_MAX_REF_DEPTH):
            ref = current.get("$ref")
            if ref is None:
                return current, None
            if not isinstance(ref, str):
                return current, "a $ref that is not a string"
            if not ref.startswith("#"):
                return current, f"$ref {ref[:80]!r} points outside the schema (never fetched)"
            if ref in seen:
                return current, f"$ref {ref!r} refers to itself"
            seen.add(ref)
            target = _pointer(self.root, ref[1:])
            if not isinstance(target, dict):
                return current, f"$ref {ref!r} does not resolve"
            siblings = {k: v for k, v in current.items() if k != "$ref"}
            if set(siblings) - _ANNOTATIONS:
                return current, f"$ref {ref!r} with other keywords beside it"
            current = {**target, **siblings}
        return current, "$ref chain too deep"

    # -- one field -----------------------------------------------------------
    def spec(self, name: str, raw: Any, *, required: bool, where: str = "") -> FieldSpec:
        if self.depth >= MAX_DEPTH:
            why = f"nested deeper than {MAX_DEPTH} levels"
            self.warn(where, why)
            schema = raw if isinstance(raw, dict) else {}
            return self._json(name, schema, required, why, quiet=True)
        self.depth += 1
        try:
            return self._spec(name, raw, required=required, where=where)
        finally:
            self.depth -= 1

    def _spec(self, name: str, raw: Any, *, required: bool, where: str) -> FieldSpec:
        if raw is True or raw == {}:
            return self._json(name, {}, required, "any value (no schema)", quiet=True)
        if not isinstance(raw, dict):
            return self._json(name, {}, required, f"the schema is a {type(raw).__name__}")
        schema, why = self.resolve(raw)
        if why is not None:
            self.warn(where, why)
            return self._json(name, raw, required, why, quiet=True)
        schema, nullable, why = self._simplify(schema)
        if why is not None:
            self.warn(where, why)
            return self._json(name, schema, required, why, quiet=True)
        spec = _field(name, schema, required, nullable=nullable)
        spec.secret = looks_secret("", schema)
        if "const" in schema:
            spec.kind = "enum"
            spec.choices = [Choice(schema["const"], _label(schema["const"]))]
            spec.read_only = True
            if spec.default is UNSET:
                spec.default = schema["const"]
            return spec
        choices = _choices(schema)
        if choices is not None:
            spec.kind = "enum"
            spec.choices = choices
            if any(c.value is None for c in choices):
                spec.nullable = False  # null is one of the choices
            return spec
        kind = _type_of(schema)
        if kind == "string":
            self._string(spec, schema)
        elif kind == "number" or kind == "integer":
            spec.kind = "integer" if kind == "integer" else "number"
            self._number(spec, schema)
        elif kind == "boolean":
            spec.kind = "boolean"
        elif kind == "array":
            self._array(spec, schema, where)
        elif kind == "object":
            self._object(spec, schema, where)
        else:
            why = "no type" if kind is None else f"type {kind!r}"
            return self._json(name, schema, required, why, quiet=kind is None, nullable=nullable)
        return spec

    def _json(
        self,
        name: str,
        schema: dict[str, Any],
        required: bool,
        why: str,
        *,
        quiet: bool = False,
        nullable: bool = False,
    ) -> FieldSpec:
        spec = _field(name, schema, required, nullable=nullable)
        spec.why_json = why
        return spec

    def _simplify(self, schema: dict[str, Any]) -> tuple[dict[str, Any], bool, str | None]:
        """Reduce nullable and single-branch combinators; (schema, nullable, why not)."""
        nullable = False
        types = schema.get("type")
        if isinstance(types, list):
            named = [t for t in types if t != "null"]
            nullable = len(named) < len(types)
            if len(named) == 1:
                schema = {**schema, "type": named[0]}
            elif not named:
                return schema, False, "type null only"
            else:
                return schema, nullable, f"several types ({', '.join(map(str, named))})"
        if "allOf" in schema:
            parts = schema["allOf"]
            if not (isinstance(parts, list) and len(parts) == 1 and isinstance(parts[0], dict)):
                return schema, nullable, "allOf with several schemas"
            inner, why = self.resolve(parts[0])
            if why is not None:
                return schema, nullable, why
            rest = {k: v for k, v in schema.items() if k != "allOf"}
            if set(rest) - _ANNOTATIONS:
                return schema, nullable, "allOf beside other keywords"
            schema = {**inner, **rest}
        for key in ("anyOf", "oneOf"):
            if key not in schema:
                continue
            branches = schema[key]
            if not isinstance(branches, list) or not branches:
                return schema, nullable, f"an empty {key}"
            if _choices(schema) is not None:
                continue  # titled enum: a list of {const, title}
            resolved = []
            for branch in branches:
                if not isinstance(branch, dict):
                    return schema, nullable, f"{key} with a non-object branch"
                inner, why = self.resolve(branch)
                if why is not None:
                    return schema, nullable, why
                resolved.append(inner)
            others = [b for b in resolved if not _is_null_schema(b)]
            if len(others) == 1 and len(resolved) == 2:
                rest = {k: v for k, v in schema.items() if k != key}
                if set(rest) - _ANNOTATIONS:
                    return schema, True, f"{key} beside other keywords"
                inner, _nullable, why = self._simplify({**others[0], **rest})
                return inner, True, why
            if len(resolved) == 1:
                rest = {k: v for k, v in schema.items() if k != key}
                return self._simplify({**resolved[0], **rest})
            return schema, nullable, f"{key} with {len(resolved)} alternatives"
        return schema, nullable, None

    def _string(self, spec: FieldSpec, schema: dict[str, Any]) -> None:
        spec.kind = "string"
        fmt = schema.get("format")
        spec.format = fmt if isinstance(fmt, str) else None
        spec.min_length = _int(schema.get("minLength"))
        spec.max_length = _int(schema.get("maxLength"))
        pattern = schema.get("pattern")
        spec.pattern = pattern if isinstance(pattern, str) else None
        if spec.format == "password":
            spec.secret = True
        spec.multiline = _wants_multiline(spec.name, schema, spec)

    def _number(self, spec: FieldSpec, schema: dict[str, Any]) -> None:
        spec.minimum = _num(schema.get("minimum"))
        spec.maximum = _num(schema.get("maximum"))
        exclusive_min = schema.get("exclusiveMinimum")
        exclusive_max = schema.get("exclusiveMaximum")
        if _num(exclusive_min) is not None:  # draft 6+: a number
            spec.minimum, spec.exclusive_minimum = _num(exclusive_min), True
        elif exclusive_min is True:  # draft 4: a flag on minimum
            spec.exclusive_minimum = True
        if _num(exclusive_max) is not None:
            spec.maximum, spec.exclusive_maximum = _num(exclusive_max), True
        elif exclusive_max is True:
            spec.exclusive_maximum = True
        step = _num(schema.get("multipleOf"))
        spec.step = step if step is not None and step > 0 else None

    def _array(self, spec: FieldSpec, schema: dict[str, Any], where: str) -> None:
        spec.min_items = _int(schema.get("minItems"))
        spec.max_items = _int(schema.get("maxItems"))
        if "prefixItems" in schema or isinstance(schema.get("items"), list):
            spec.kind = "json"
            spec.why_json = "a tuple (prefixItems)"
            self.warn(where, spec.why_json)
            return
        items = schema.get("items", {})
        if isinstance(items, dict):
            resolved, why = self.resolve(items)
            choices = _choices(resolved) if why is None else None
            if choices is not None:
                spec.kind = "multi_enum"
                spec.choices = choices
                return
        spec.kind = "array"
        spec.item = self.spec("[]", items, required=True, where=f"{where}[]")
        spec.item.keep_empty = True

    def _object(self, spec: FieldSpec, schema: dict[str, Any], where: str) -> None:
        properties = schema.get("properties", {})
        if not isinstance(properties, dict):
            properties = {}
        required = schema.get("required", [])
        required_set = (
            {r for r in required if isinstance(r, str)} if isinstance(required, list) else set()
        )
        additional = schema.get("additionalProperties", True)
        pattern_props = schema.get("patternProperties")
        spec.extra_keys = additional is not False or bool(pattern_props)
        if len(properties) > MAX_PROPERTIES:
            spec.kind = "json"
            spec.why_json = f"{len(properties)} properties: too many for a form"
            if where:
                self.warn(where, spec.why_json)
            return
        if not properties and (isinstance(additional, dict) or pattern_props):
            spec.kind = "json"
            spec.why_json = (
                "a map of additionalProperties" if not pattern_props else "patternProperties"
            )
            if where:  # the root says so through FormPlan.why_json_only
                self.warn(where, spec.why_json)
            return
        spec.kind = "object"
        if isinstance(additional, dict) or pattern_props:
            what = "patternProperties" if pattern_props else "additionalProperties"
            self.warn(where, f"{what}: keys beyond the listed ones can be added in the JSON view")
        for name, sub in properties.items():
            child_where = f"{where}.{name}" if where else name
            spec.properties.append(
                self.spec(name, sub, required=name in required_set, where=child_where)
            )


def _pointer(root: Any, pointer: str) -> Any:
    if pointer in ("", "/"):
        return root
    if not pointer.startswith("/"):
        return None
    current = root
    for part in pointer[1:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(current, dict) and part in current:
            current = current[part]
        elif isinstance(current, list) and part.isdigit() and int(part) < len(current):
            current = current[int(part)]
        else:
            return None
    return current


def _is_null_schema(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "null" or ("const" in schema and schema["const"] is None)


def _type_of(schema: dict[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind
    if "properties" in schema or "additionalProperties" in schema:
        return "object"
    if "items" in schema:
        return "array"
    if any(k in schema for k in ("minLength", "maxLength", "pattern", "format")):
        return "string"
    if any(k in schema for k in ("minimum", "maximum", "multipleOf")):
        return "number"
    return None


def _choices(schema: dict[str, Any]) -> list[Choice] | None:
    """enum (with the legacy enumNames), or oneOf/anyOf of {const, title}."""
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        names = schema.get("enumNames")
        if isinstance(names, list) and len(names) == len(enum):
            return [Choice(v, str(n)) for v, n in zip(enum, names, strict=True)]
        return [Choice(v, _label(v)) for v in enum]
    for key in ("oneOf", "anyOf"):
        branches = schema.get(key)
        if (
            isinstance(branches, list)
            and branches
            and all(isinstance(b, dict) and "const" in b for b in branches)
        ):
            return [
                Choice(b["const"], _str(b.get("title")) or _label(b["const"])) for b in branches
            ]
    return None


def _wants_multiline(name: str, schema: dict[str, Any], spec: FieldSpec) -> bool:
    if schema.get("x-multiline") is True or spec.format in ("textarea", "multiline"):
        return True
    if spec.format is not None or spec.secret:
        return False
    if spec.max_length is not None and spec.max_length <= 120:
        return False
    media = schema.get("contentMediaType")
    if isinstance(media, str) and (media.startswith("text/") or media.endswith("json")):
        return True
    if spec.max_length is not None and spec.max_length > 500:
        return True
    default = schema.get("default")
    if isinstance(default, str) and "\n" in default:
        return True
    return bool(_LONG_TEXT_NAME.match(name))


def _field(name: str, schema: dict[str, Any], required: bool, *, nullable: bool) -> FieldSpec:
    """A field as the schema declares it (a JSON editor until a kind is found for it)."""
    return FieldSpec(
        name=name,
        kind="json",
        schema=schema,
        title=_str(schema.get("title")),
        description=_str(schema.get("description")),
        required=required,
        default=schema.get("default", UNSET),
        nullable=nullable,
    )


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _label(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


# --------------------------------------------------------------------------- values


def initial_value(spec: FieldSpec) -> Any:
    """What the field shows before the user types: its default (objects: their children's)."""
    if spec.default is not UNSET:
        return spec.default
    if spec.kind == "object":
        values = {}
        for prop in spec.properties:
            value = initial_value(prop)
            if value is not UNSET:
                values[prop.name] = value
        if values or spec.required:
            return values
    return UNSET


def split_known(spec: FieldSpec, values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the values the form has fields for, the extra keys only the JSON view shows)."""
    names = {p.name for p in spec.properties}
    known = {k: v for k, v in values.items() if k in names}
    extras = {k: v for k, v in values.items() if k not in names}
    return known, extras


_NUMBER_TEXT: Final = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def parse_number(text: str, integer: bool) -> Any:
    """The value typed in a number field: UNSET when empty, an int or float when it parses,
    else the text itself (validation then says what is wrong, and "Send anyway" can still
    send it to test the server's own validation)."""
    stripped = text.strip()
    if not stripped:
        return UNSET
    if not _NUMBER_TEXT.match(stripped):
        return stripped
    try:
        if re.fullmatch(r"[+-]?\d+", stripped):
            return int(stripped)
        value = float(stripped)
    except (ValueError, OverflowError):
        return stripped
    if not math.isfinite(value):
        return stripped
    if integer and value.is_integer() and abs(value) < 2**63:
        return int(value)
    return value


def format_number(value: Any) -> str:
    if isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if not value.is_integer() or abs(value) >= 1e16 else f"{value:.1f}"
    return str(value)
