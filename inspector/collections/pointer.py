"""JSON Pointers (RFC 6901) for assertions: parse once at load time, resolve at run time."""

from __future__ import annotations

import re
from typing import Any, Final

__all__ = ["MISSING", "parse_pointer", "resolve_pointer"]

MISSING: Final = object()  # what a pointer into nothing resolves to
_BAD_ESCAPE: Final = re.compile(r"~(?![01])")
_INDEX: Final = re.compile(r"^(0|[1-9][0-9]*)$")


def parse_pointer(text: str) -> tuple[str, ...]:
    """The reference tokens of a JSON Pointer; ValueError says what is wrong with it."""
    if text == "":
        return ()
    if not text.startswith("/"):
        raise ValueError(
            f"{text!r} is not a JSON Pointer: it must be empty (the whole result) or start "
            "with '/', e.g. /content/0/text"
        )
    if _BAD_ESCAPE.search(text):
        raise ValueError(
            f"{text!r} is not a JSON Pointer: '~' must be followed by 0 ('~') or 1 ('/')"
        )
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in text[1:].split("/"))


def resolve_pointer(document: Any, tokens: tuple[str, ...]) -> Any:
    """The value the tokens point at, or MISSING."""
    value = document
    for token in tokens:
        if isinstance(value, dict):
            if token not in value:
                return MISSING
            value = value[token]
        elif isinstance(value, list):
            if not _INDEX.match(token) or int(token) >= len(value):
                return MISSING
            value = value[int(token)]
        else:
            return MISSING
    return value
