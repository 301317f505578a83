"""The arguments a model chose for a tool, checked before they are sent: JSON at all, an
object, and valid against the tool's inputSchema (the forms' validator,
inspector/features/forms/validation.py, with its drafts and refused remote $refs)."""

from __future__ import annotations

from typing import Any

from inspector.features.forms.validation import validate_values

__all__ = ["schema_problems"]


def schema_problems(schema: dict[str, Any], arguments: Any) -> list[str]:
    """Each way `arguments` break `schema`, as "where: what" sentences (empty: none).

    Arguments that are not an object are one problem; a schema that cannot be checked is
    not the model's fault and gives none (the server decides)."""
    if not isinstance(arguments, dict):
        return ["(arguments): not a JSON object"]
    report = validate_values(schema, arguments)
    if report.schema_problem is not None:
        return []
    return [str(error) for error in report.errors]
