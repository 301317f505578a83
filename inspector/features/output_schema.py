"""Does a tool result keep the promise of its tool's outputSchema? The one sentence the
headless commands (`cli`, `test`, `replay`) flag a broken promise with, as the Python and
TypeScript SDK clients do: a tool that declares an outputSchema must send structuredContent
that validates against it (a result with `isError: true` is not checked).

Light: the validator (jsonschema) is loaded only for a tool that declares an outputSchema.
"""

from __future__ import annotations

from typing import Any

__all__ = ["output_schema_violation"]

_SHOWN = 5  # validation errors named in the sentence


def output_schema_violation(tool: dict[str, Any] | None, result: Any) -> str | None:
    """What is wrong with `result` against `tool`'s outputSchema, or None (no definition,
    no outputSchema, an error result, or a result that validates)."""
    schema = tool.get("outputSchema") if isinstance(tool, dict) else None
    if not isinstance(schema, dict) or not isinstance(result, dict):
        return None
    if result.get("isError") is True:
        return None
    from inspector.features.tool_calls import check_result  # loads jsonschema

    check = check_result(result, schema)
    if check.schema_problem is not None:
        return f"its outputSchema cannot be checked: {check.schema_problem}"
    errors = check.structured_errors
    if not errors:
        return None
    if not check.has_structured:
        return errors[0].message
    parts = [f"{e.where}: {e.message}" if e.path else e.message for e in errors[:_SHOWN]]
    more = f" (and {len(errors) - _SHOWN} more)" if len(errors) > _SHOWN else ""
    return f"structuredContent breaks the tool's outputSchema: {'; '.join(parts)}{more}"
