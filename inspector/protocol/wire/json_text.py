"""JSON text at its edges: what Python's `json` gets wrong for a wire protocol.

- RFC 8259 whitespace is space, tab, LF and CR only (`str.strip()` removes far more);
- text with lone surrogates (a server may send `"\\ud800"`) cannot be encoded as UTF-8,
  so it is written back as the same ASCII escape;
- a number beyond a double (`1e400`) decodes as infinity, which `json.dumps` writes as
  `Infinity` (not JSON); it is written as `1e999`, which every parser reads back as the
  same infinity; NaN cannot come from JSON and is refused;
- a value nested deeper than the recursion limit cannot be decoded or dumped, yet the
  frame's top-level `id` can still be read, with a scanner that never recurses.

No IO here.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections.abc import Callable
from itertools import accumulate
from typing import Any, Final, cast

__all__ = [
    "JSON_WHITESPACE",
    "dumps",
    "excerpt",
    "has_lone_surrogate",
    "split_array",
    "top_level_member",
]

JSON_WHITESPACE: Final = " \t\n\r"

_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_WS: Final = re.compile(r"[ \t\n\r]*")
_SCALAR_END: Final = re.compile(r"[,}\] \t\n\r]")
_BRACKETS_OR_QUOTE: Final = re.compile(r'[\[\]{}]+|"')
_DELTA: Final = {"[": 1, "{": 1, "]": -1, "}": -1}
# json.decoder.scanstring(text, index after the opening quote) -> (string, end); untyped.
_scanstring = cast(Callable[[str, int], tuple[str, int]], json.decoder.scanstring)  # type: ignore[attr-defined]


def has_lone_surrogate(text: str) -> bool:
    """Does `text` hold a surrogate code point (which UTF-8 cannot encode)?"""
    return _SURROGATE.search(text) is not None


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _finite_copy(value: Any, depth: int = 0) -> Any:
    """`value` with infinities replaced by a marker string (NaN refused)."""
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError("it holds NaN, which JSON has no way to write")
        if math.isinf(value):
            return _POS_INF if value > 0 else _NEG_INF
        return value
    if isinstance(value, dict):
        return {k: _finite_copy(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite_copy(v, depth + 1) for v in value]
    return value


# Markers no JSON string can equal once dumped: json.dumps escapes the control characters.
_POS_INF: Final = "\x00\x01+inf\x01\x00"
_NEG_INF: Final = "\x00\x01-inf\x01\x00"
_POS_INF_TEXT: Final = json.dumps(_POS_INF)
_NEG_INF_TEXT: Final = json.dumps(_NEG_INF)


def dumps(value: Any) -> str:
    """Compact JSON that is valid UTF-8 and strict JSON, and parses back to `value`."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        # A non-finite float (an infinity decoded from 1e400) or NaN.
        text = json.dumps(_finite_copy(value), ensure_ascii=False, separators=(",", ":"))
        text = text.replace(_POS_INF_TEXT, "1e999").replace(_NEG_INF_TEXT, "-1e999")
    if _SURROGATE.search(text) is not None:
        # Only inside strings can json.dumps leave a raw character: escape it there.
        text = _SURROGATE.sub(_escape_surrogate, text)
    return text


def excerpt(value: Any, limit: int = 40) -> str:
    """A short JSON rendering of `value` for a message; never raises."""
    try:
        return json.dumps(value, ensure_ascii=False)[:limit]
    except RecursionError:
        return "(nested too deeply to show)"
    except (TypeError, ValueError):
        return repr(value)[:limit]


def top_level_member(text: str, name: str) -> tuple[bool, Any]:
    """(found, value) of member `name` of the top-level object in `text`, decoding nothing
    else. The last occurrence counts (as with json.loads). Never raises: (False, None)
    when the text is not an object this scanner can walk, or the member cannot be decoded.
    """
    return _scan_member(text, name)


def _skip_ws(text: str, i: int) -> int:
    match = _WS.match(text, i)
    return match.end() if match is not None else i


def _scan_member(text: str, name: str) -> tuple[bool, Any]:
    decoder = json.JSONDecoder()
    found, value = False, None
    try:
        i = _skip_ws(text, 0)
        if text[i] != "{":
            return False, None
        i = _skip_ws(text, i + 1)
        while text[i] == '"':
            key, i = _scanstring(text, i + 1)
            i = _skip_ws(text, i)
            if text[i] != ":":
                break
            i = _skip_ws(text, i + 1)
            if key == name:
                try:
                    value, i = decoder.raw_decode(text, i)
                    found = True
                except RecursionError:
                    found, value = False, None
                    i = _skip_value(text, i)
            else:
                i = _skip_value(text, i)
            i = _skip_ws(text, i)
            if text[i] != ",":
                break
            i = _skip_ws(text, i + 1)
    except (ValueError, IndexError, RecursionError):
        pass  # the text breaks off or goes wrong here: what was read before counts
    return found, value


def _skip_value(text: str, i: int) -> int:
    """The offset just after the JSON value starting at `i`, without recursion (runs of
    brackets are counted in C: a frame nested 100,000 deep costs milliseconds)."""
    first = text[i]
    if first == '"':
        return int(_scanstring(text, i + 1)[1])
    if first not in "[{":
        match = _SCALAR_END.search(text, i)
        return match.start() if match is not None else len(text)
    depth = 0
    while True:
        match = _BRACKETS_OR_QUOTE.search(text, i)
        if match is None:
            raise ValueError("unterminated value")
        token = match.group()
        if token == '"':
            i = int(_scanstring(text, match.end())[1])
            continue
        depths = list(accumulate(map(_DELTA.__getitem__, token), initial=depth))
        with contextlib.suppress(ValueError):
            return match.start() + depths.index(0, 1)
        depth = depths[-1]
        i = match.end()


def split_array(text: str) -> list[str] | None:
    """The exact text of each member of the top-level JSON array in `text` (a JSON-RPC
    batch), so each can be shown and parsed as sent; None when `text` is not an array
    this can split (the caller already knows it decodes)."""
    try:
        i = _skip_ws(text, 0)
        if text[i] != "[":
            return None
        i = _skip_ws(text, i + 1)
        members: list[str] = []
        if text[i] == "]":
            return members
        while True:
            end = _skip_value(text, i)
            members.append(text[i:end])
            i = _skip_ws(text, end)
            if text[i] == "]":
                return members
            if text[i] != ",":
                return None
            i = _skip_ws(text, i + 1)
    except (ValueError, IndexError):
        return None
