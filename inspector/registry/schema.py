"""Read and validate a server.json against the registry's vendored, dated schema.

Qt-free. Every problem names its place as a JSON pointer (RFC 6901) and says what is wrong
in one plain sentence; values quoted from the document are shortened and never trusted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

__all__ = [
    "MAX_BYTES",
    "SCHEMA_FILE",
    "SCHEMA_ID",
    "SchemaProblem",
    "load_json",
    "pointer",
    "problems_from",
    "quote",
    "schema",
    "validate",
]

SCHEMA_FILE: Final = "server.schema.2025-12-11.json"
SCHEMA_ID: Final = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
# A server.json is a few kilobytes; a registry page of many is well under this.
MAX_BYTES: Final = 4 * 1024 * 1024
_QUOTE_MAX: Final = 60


@dataclass(frozen=True)
class SchemaProblem:
    """One thing wrong with a document: where (a JSON pointer, "" for the whole) and what."""

    pointer: str
    sentence: str

    def __str__(self) -> str:
        return f"{self.pointer or '(the whole document)'}: {self.sentence}"


@cache
def schema() -> dict[str, Any]:
    """The vendored schema (package data)."""
    text = resources.files("inspector.registry").joinpath("schemas", SCHEMA_FILE).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _validator() -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(schema(), format_checker=jsonschema.FormatChecker())


def quote(value: Any) -> str:
    """A value from the document for a sentence: JSON form, one line, shortened."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _QUOTE_MAX else text[: _QUOTE_MAX - 1] + "…"


def pointer(parts: Any) -> str:
    """An RFC 6901 JSON pointer for a path of keys and indexes."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def load_json(data: str | bytes) -> tuple[Any, list[SchemaProblem]]:
    """Parse text or bytes as JSON; (None, [problem]) when it cannot be read."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > MAX_BYTES:
        mib = MAX_BYTES // (1024 * 1024)
        return None, [SchemaProblem("", f"It is {size:,} bytes; at most {mib} MiB is read.")]
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            return None, [SchemaProblem("", f"It is not UTF-8 text (byte {exc.start}).")]
    if not data.strip():
        return None, [SchemaProblem("", "It is empty: a server.json is a JSON object.")]
    try:
        return json.loads(data), []
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        return None, [SchemaProblem("", f"It is not valid JSON ({where}): {exc.msg}.")]
    except RecursionError:
        return None, [SchemaProblem("", "It is nested too deeply to read.")]


def validate(document: Any) -> list[SchemaProblem]:
    """Every schema problem of one server.json, in document order; [] when it is valid."""
    try:
        errors = sorted(_validator().iter_errors(document), key=lambda e: list(map(str, e.path)))
    except RecursionError:
        return [SchemaProblem("", "It is nested too deeply to validate.")]
    problems: list[SchemaProblem] = []
    seen: set[SchemaProblem] = set()
    for error in errors:
        for problem in _problems(_descend(error)):
            if problem not in seen:
                seen.add(problem)
                problems.append(problem)
    return problems


def problems_from(errors: Any) -> list[SchemaProblem]:
    """The problems of any schema's validation errors (an iterable of them), in document
    order, each once: the sentences of `validate`, for another vendored schema."""
    problems: list[SchemaProblem] = []
    seen: set[SchemaProblem] = set()
    for error in sorted(errors, key=lambda e: list(map(str, e.path))):
        for problem in _problems(_descend(error)):
            if problem not in seen:
                seen.add(problem)
                problems.append(problem)
    return problems


def _is_type_mismatch(error: ValidationError) -> bool:
    """An error on a discriminating "type" key: the branch is for another kind."""
    return error.validator == "enum" and bool(error.path) and error.path[-1] == "type"


def _descend(error: ValidationError) -> ValidationError:
    """For anyOf/oneOf: the error of the branch meant (the one whose "type" matches)."""
    while error.validator in ("anyOf", "oneOf") and error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.schema_path[0] if sub.schema_path else None, []).append(sub)
        meant = [errs for errs in branches.values() if not any(map(_is_type_mismatch, errs))]
        if len(meant) != 1:
            if not meant:
                return _type_union(error)
            return error
        error = best_match(meant[0]) or meant[0][0]
    return error


def _type_union(error: ValidationError) -> ValidationError:
    """Every branch wants another "type": one enum error listing all the allowed types."""
    allowed: list[Any] = []
    first: ValidationError | None = None
    for sub in error.context or []:
        if _is_type_mismatch(sub):
            first = first or sub
            allowed.extend(c for c in _arg(sub) if c not in allowed)
    if first is None:
        return error
    return ValidationError(
        first.message,
        validator="enum",
        path=first.absolute_path,
        instance=first.instance,
        validator_value=allowed,
    )


def _arg(error: ValidationError) -> Any:
    """The schema keyword's value (jsonschema types it as possibly unset)."""
    return error.validator_value


def _problems(error: ValidationError) -> list[SchemaProblem]:
    if error.validator == "required" and isinstance(error.instance, dict):
        where = pointer(error.absolute_path)
        return [
            SchemaProblem(where + pointer([key]), f"“{key}” is required but missing.")
            for key in _arg(error)
            if key not in error.instance
        ]
    return [_problem(error)]


_JSON_TYPES: Final = {
    dict: "an object",
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "a number",
    float: "a number",
    type(None): "null",
}


def _kind(value: Any) -> str:
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _problem(error: ValidationError) -> SchemaProblem:
    where = pointer(error.absolute_path)
    keyword = error.validator
    arg = _arg(error)
    value: Any = error.instance
    if keyword == "type":
        wanted = arg if isinstance(arg, str) else " or ".join(arg)
        article = "an" if wanted[:1] in "aeiou" else "a"
        return SchemaProblem(where, f"It must be {article} {wanted}, not {_kind(value)}.")
    if keyword == "maxLength":
        return SchemaProblem(
            where, f"It is {len(value)} characters long; at most {arg} are allowed."
        )
    if keyword == "minLength":
        return SchemaProblem(where, f"It must be at least {arg} characters long.")
    if keyword == "pattern":
        return SchemaProblem(
            where, f"{quote(value)} does not have the expected form (pattern {arg})."
        )
    if keyword == "enum":
        choices = ", ".join(quote(c) for c in arg)
        return SchemaProblem(where, f"{quote(value)} is not one of: {choices}.")
    if keyword == "not" and arg == {"const": "latest"}:
        return SchemaProblem(where, "It must be a specific version, not “latest”.")
    if keyword == "format":
        return SchemaProblem(where, f"{quote(value)} is not a valid {arg}.")
    context = error.context or []
    if (
        keyword in ("anyOf", "oneOf")
        and context
        and all(s.validator == "required" for s in context)
    ):
        keys = [k for sub in context for k in _arg(sub)]
        return SchemaProblem(where, "It needs one of: " + ", ".join(f"“{k}”" for k in keys) + ".")
    if keyword in ("anyOf", "oneOf"):
        return SchemaProblem(where, f"{quote(value)} matches none of the allowed forms.")
    return SchemaProblem(where, _sentence(error.message))


def _sentence(message: str) -> str:
    text = message if len(message) <= 200 else message[:199] + "…"
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."
