"""Where a JSON pointer's value is in a JSON text: a small scanner that walks text the json
module has already read, down the pointer's way only (every other value is skipped by the json
module's C scanner), and records the span of each value on it, so that a schema problem
("/packages/0/version: ...") can select its place in the text it came from. A pointer to
something absent (a missing property) gives the nearest value that is there; a syntax error's
"line L, column C" gives that place. Qt-free."""

from __future__ import annotations

import json
import json.decoder
import re
from typing import Any, Final

from inspector.registry.schema import MAX_BYTES, pointer

__all__ = ["place_of"]

_SPACE: Final = re.compile(r"[ \t\n\r]*")
_NUMBER_OR_WORD: Final = re.compile(r"-?(?:\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|true|false|null")
_LINE_COLUMN: Final = re.compile(r"\(line (\d+), column (\d+)\)")
_DECODER: Any = json.decoder
_SCANSTRING: Any = _DECODER.scanstring  # the module's own string reader
_SKIPPER: Final = json.JSONDecoder()  # reads a value off the way at C speed


def place_of(text: str, where: str, sentence: str = "") -> tuple[int, int] | None:
    """(start, end) character offsets in `text` of the value at pointer `where` (or of its
    nearest parent there); for a syntax error, the line and column the sentence names.
    None when the text cannot be scanned (it is not JSON, or too big)."""
    found = _LINE_COLUMN.search(sentence)
    if found and not where:
        return _line_column(text, int(found.group(1)), int(found.group(2)))
    if len(text) > MAX_BYTES:
        return None
    spans: dict[str, tuple[int, int]] = {}
    target = [part.replace("~1", "/").replace("~0", "~") for part in where.split("/")[1:]]
    try:
        _value(text, _skip(text, 0), [], _Walk(target, spans))
    except (ValueError, IndexError, RecursionError):
        return None
    parts = where.split("/")
    while parts:
        span = spans.get("/".join(parts))
        if span is not None:
            return span
        parts.pop()
    return spans.get("")


def _line_column(text: str, line: int, column: int) -> tuple[int, int]:
    lines = text.splitlines(keepends=True)
    start = sum(len(one) for one in lines[: max(line - 1, 0)])
    offset = min(start + max(column - 1, 0), len(text))
    end = offset + 1 if offset < len(text) else offset
    return offset, end


def _skip(text: str, at: int) -> int:
    match = _SPACE.match(text, at)
    return match.end() if match else at


class _Walk:
    """The pointer looked for, and the spans of the values on its way."""

    def __init__(self, target: list[str], spans: dict[str, tuple[int, int]]) -> None:
        self.target = target
        self.spans = spans

    def on_the_way(self, path: list[Any]) -> bool:
        return len(path) <= len(self.target) and all(
            str(part) == self.target[i] for i, part in enumerate(path)
        )


def _value(text: str, at: int, path: list[Any], walk: _Walk) -> int:
    """Scan the value starting at `at`; record its span when it is on the way to the
    pointer looked for (any other value is skipped by the json module's own fast scanner);
    return where it ends."""
    if not walk.on_the_way(path):
        _, end = _SKIPPER.raw_decode(text, at)
        return int(end)
    char = text[at]
    if char == "{":
        end = _object(text, at + 1, path, walk)
    elif char == "[":
        end = _array(text, at + 1, path, walk)
    elif char == '"':
        _, end = _SCANSTRING(text, at + 1, True)
    else:
        match = _NUMBER_OR_WORD.match(text, at)
        if match is None:
            raise ValueError(f"no JSON value at {at}")
        end = match.end()
    walk.spans[pointer(path)] = (at, end)
    return int(end)


def _object(text: str, at: int, path: list[Any], walk: _Walk) -> int:
    at = _skip(text, at)
    if text[at] == "}":
        return at + 1
    while True:
        key, at = _SCANSTRING(text, at + 1, True)
        at = _skip(text, _skip(text, at) + 1)  # past the colon
        at = _skip(text, _value(text, at, [*path, key], walk))
        if text[at] == "}":
            return at + 1
        at = _skip(text, at + 1)  # past the comma


def _array(text: str, at: int, path: list[Any], walk: _Walk) -> int:
    at = _skip(text, at)
    if text[at] == "]":
        return at + 1
    index = 0
    while True:
        at = _skip(text, _value(text, at, [*path, index], walk))
        index += 1
        if text[at] == "]":
            return at + 1
        at = _skip(text, at + 1)
