"""Reading what authorization servers answer (metadata documents, registration and token
responses): the JSON object of a body, string lists of a document, and a status for an
error sentence. Lenient on purpose: a malformed field is treated as absent, and the step
that needs it says so in plain words."""

from __future__ import annotations

import json
from typing import Any

import httpx

__all__ = ["describe_status", "json_object", "str_tuple"]


def str_tuple(value: Any) -> tuple[str, ...] | None:
    """The strings of a JSON list (others dropped); None when it is not a list."""
    if isinstance(value, list):
        return tuple(v for v in value if isinstance(v, str))
    return None


def json_object(response: httpx.Response) -> dict[str, Any] | None:
    """The body as a JSON object; None when it is not JSON or not an object."""
    try:
        value = json.loads(response.content)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def describe_status(response: httpx.Response) -> str:
    return f"HTTP {response.status_code} {response.reason_phrase}".strip()
