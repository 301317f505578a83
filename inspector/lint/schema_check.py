"""A value checked against one definition of a version's schema, as findings."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Final

from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator

from inspector.lint.finding import Finding
from inspector.lint.schema_bundle import SchemaBundle

__all__ = [
    "MAX_FINDINGS",
    "SchemaMemo",
    "pointer",
    "schema_findings",
    "short",
    "validator_findings",
]

MAX_FINDINGS: Final = 20  # per message: a broken list of 10k tools must not flood the tab
_SHORT: Final = 160


def pointer(parts: Iterable[Any]) -> str:
    """RFC 6901 JSON Pointer of a path."""
    out = []
    for part in parts:
        out.append("/" + str(part).replace("~", "~0").replace("/", "~1"))
    return "".join(out)


def short(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _SHORT else text[: _SHORT - 1] + "…"


def _leaf(error: ValidationError) -> ValidationError:
    """For anyOf/oneOf, the error of the branch that came closest."""
    if error.context:
        best = best_match(error.context)
        if best is not None:
            return _leaf(best)
    return error


def schema_findings(
    bundle: SchemaBundle,
    definition: str,
    instance: Any,
    *,
    index: int,
    prefix: tuple[Any, ...] = (),
) -> list[Finding]:
    return validator_findings(
        bundle.validator(definition),
        instance,
        index=index,
        where=f"{bundle.version} {definition}",
        version=bundle.version,
        prefix=prefix,
    )


def validator_findings(
    validator: Validator,
    instance: Any,
    *,
    index: int,
    where: str,
    version: str,
    prefix: tuple[Any, ...] = (),
    schema_prefix: tuple[Any, ...] = (),
    limit: int = MAX_FINDINGS,
) -> list[Finding]:
    """The findings of `instance` against `validator` (at most `limit`); `prefix` and
    `schema_prefix` lead from the message and its definition to the part checked."""
    if limit <= 0 or validator.is_valid(instance):  # the common case, without building errors
        return []
    found: list[Finding] = []
    for error in validator.iter_errors(instance):
        leaf = _leaf(error)
        path = [*schema_prefix, *(p for p in leaf.absolute_schema_path if p != "$ref")]
        found.append(
            Finding(
                index=index,
                rule=f"schema.{leaf.validator}",
                message=leaf.message if len(leaf.message) <= 300 else leaf.message[:299] + "…",
                pointer=pointer((*prefix, *leaf.absolute_path)),
                value=short(leaf.instance),
                where=where + (f": {'/'.join(str(p) for p in path)}" if path else ""),
                version=version,
            )
        )
        if len(found) >= limit:
            break
    return found


class SchemaMemo:
    """Schema results of messages that differ only in free-form members (a flood of log
    notifications differs only in `data`): the rest of the message is the key, the
    findings are kept without their row. Exact: a free member has no constraint at all."""

    def __init__(self, limit: int = 2048) -> None:
        self.limit = limit
        self._seen: dict[str, list[Finding]] = {}

    def findings(
        self, bundle: SchemaBundle, definition: str, value: dict[str, Any], index: int
    ) -> list[Finding]:
        free = bundle.free_params(definition)
        params = value.get("params")
        if not free or not isinstance(params, dict):
            return schema_findings(bundle, definition, value, index=index)
        shaped = dict(value, params={k: (None if k in free else v) for k, v in params.items()})
        try:
            key = f"{bundle.version} {definition} " + json.dumps(shaped, sort_keys=True)
        except (TypeError, ValueError):
            return schema_findings(bundle, definition, value, index=index)
        known = self._seen.get(key)
        if known is None:
            if len(self._seen) >= self.limit:
                self._seen.clear()
            known = self._seen[key] = schema_findings(bundle, definition, value, index=-1)
        # A finding about the message or its params shows them as they are in this one.
        here = {"": short(value), "/params": short(params)}
        return [replace(f, index=index, value=here.get(f.pointer, f.value)) for f in known]
