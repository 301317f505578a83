"""JSON Schema validation for forms and results, Qt-free: errors mapped to field paths.

The draft comes from `$schema` (2020-12 when absent, as the MCP spec says). The registry
refuses every remote `$ref` (nothing is ever fetched); common formats (date, date-time, uri,
email) are checked without optional packages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Final, TypeAlias
from urllib.parse import urlsplit

import jsonschema
import referencing
import referencing.exceptions
from jsonschema import (
    Draft4Validator,
    Draft6Validator,
    Draft7Validator,
    Draft201909Validator,
    Draft202012Validator,
)
from jsonschema.exceptions import SchemaError, ValidationError
from jsonschema.protocols import Validator

__all__ = [
    "FieldError",
    "Path",
    "ValidationReport",
    "path_str",
    "validate_values",
    "validator_class",
]

Path: TypeAlias = tuple[str | int, ...]


def path_str(path: Path) -> str:
    """("assignee", "email") -> "assignee.email"; ("tags", 0) -> "tags[0]"."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text or "(arguments)"


@dataclass(frozen=True)
class FieldError:
    path: Path
    message: str

    @property
    def where(self) -> str:
        return path_str(self.path)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class ValidationReport:
    errors: list[FieldError] = field(default_factory=list)
    schema_problem: str | None = None  # the schema itself is broken: not validated

    @property
    def ok(self) -> bool:
        return not self.errors


_DRAFTS: Final[dict[str, type[Validator]]] = {
    "draft-04": Draft4Validator,
    "draft-06": Draft6Validator,
    "draft-07": Draft7Validator,
    "2019-09": Draft201909Validator,
    "2020-12": Draft202012Validator,
}


def validator_class(schema: Any) -> type[Validator]:
    """The draft named by `$schema`; 2020-12 when absent or unknown (the MCP default)."""
    uri = schema.get("$schema") if isinstance(schema, dict) else None
    if isinstance(uri, str):
        for marker, cls in _DRAFTS.items():
            if marker in uri:
                return cls
    return Draft202012Validator


def _refuse(uri: str) -> referencing.Resource[Any]:
    raise referencing.exceptions.NoSuchResource(uri)


_REGISTRY: Final[referencing.Registry[Any]] = referencing.Registry(retrieve=_refuse)  # type: ignore[call-arg]


def _format_checker(cls: type[Validator]) -> jsonschema.FormatChecker:
    checker = jsonschema.FormatChecker(list(cls.FORMAT_CHECKER.checkers))
    # The common formats, without optional packages (rfc3339-validator, rfc3987).
    checker.checks("date-time", raises=ValueError)(_is_date_time)
    checker.checks("date", raises=ValueError)(_is_date)
    checker.checks("uri", raises=ValueError)(_is_uri)
    return checker


def _is_date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if not re.match(
        r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$", value
    ):
        return False
    datetime.fromisoformat(value.replace("z", "Z").replace("Z", "+00:00"))
    return True


def _is_date(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if not re.match(r"^\d{4}-\d{2}-\d{2}$", value):
        return False
    date.fromisoformat(value)
    return True


def _is_uri(value: object) -> bool:
    if not isinstance(value, str):
        return True
    parts = urlsplit(value)
    return bool(re.match(r"^[A-Za-z][A-Za-z0-9+.-]*$", parts.scheme)) and " " not in value


def validate_values(schema: Any, values: Any, *, limit: int = 50) -> ValidationReport:
    """Validate `values` against `schema`; errors point at the field they belong to."""
    if not isinstance(schema, dict):
        return ValidationReport(schema_problem="the schema is not an object")
    cls = validator_class(schema)
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        return ValidationReport(schema_problem=_short(f"not a valid JSON Schema: {exc.message}"))
    except RecursionError:
        return ValidationReport(schema_problem="the schema is nested too deeply to check")
    validator = cls(schema, registry=_REGISTRY, format_checker=_format_checker(cls))
    report = ValidationReport()
    seen: set[FieldError] = set()
    try:
        for error in validator.iter_errors(values):
            # jsonschema gives a "required" error per missing name, and each becomes a
            # FieldError per missing name: keep each once.
            for found in _field_errors(error):
                if found not in seen:
                    seen.add(found)
                    report.errors.append(found)
            if len(report.errors) >= limit:
                break
    except referencing.exceptions.Unresolvable as exc:
        report.schema_problem = _short(f"a $ref could not be resolved (never fetched): {exc}")
    except (RecursionError, re.error) as exc:
        report.schema_problem = _short(f"the schema could not be checked: {exc}")
    report.errors.sort(key=lambda e: [str(p) for p in e.path])
    return report


_FORMAT_NAMES: Final = {
    "email": "email address",
    "date": "date (YYYY-MM-DD)",
    "date-time": "date and time (e.g. 2025-01-31T09:30:00Z)",
    "uri": "URI (scheme:...)",
    "time": "time (HH:MM:SS)",
}


def _field_errors(error: ValidationError) -> list[FieldError]:
    path: Path = tuple(error.absolute_path)
    instance = error.instance
    if error.validator == "required" and isinstance(instance, dict):
        names = error.validator_value if isinstance(error.validator_value, list) else []
        missing = [n for n in names if isinstance(n, str) and n not in instance]
        if missing:
            return [FieldError((*path, n), "required") for n in missing]
    if error.validator == "dependentRequired" and isinstance(instance, dict):
        return [FieldError(path, _short(error.message))]
    if error.validator == "format":
        what = _FORMAT_NAMES.get(str(error.validator_value), str(error.validator_value))
        return [FieldError(path, f"not a valid {what}")]
    if error.validator in ("anyOf", "oneOf") and error.context:
        best = jsonschema.exceptions.best_match(error.context)
        if best is not None:
            return [FieldError(path, _short(best.message))]
    return [FieldError(path, _short(error.message))]


def _short(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
