"""JSON that remembers where each object and array starts, so an error in a collection
names its line: the standard library's pure-Python scanner with hooks that record each
container's offset (line numbers are counted only when an error needs one)."""

from __future__ import annotations

import json
import json.decoder
import json.scanner
from collections.abc import Callable
from typing import Any

__all__ = ["LocatedDict", "LocatedList", "line_of", "loads_located"]

# The pure-Python parts of the json module (not in its typed surface).
_DECODER_PARTS: Any = json.decoder
_SCANNER_PARTS: Any = json.scanner


class LocatedDict(dict[str, Any]):
    """A JSON object and the offset of its opening brace."""

    offset: int = 0


class LocatedList(list[Any]):
    """A JSON array and the offset of its opening bracket."""

    offset: int = 0


class _Decoder(json.JSONDecoder):
    def __init__(self) -> None:
        super().__init__(strict=True)
        plain_object = _DECODER_PARTS.JSONObject
        plain_array = _DECODER_PARTS.JSONArray

        def parse_object(
            s_and_end: tuple[str, int],
            strict: bool,
            scan_once: Callable[[str, int], tuple[Any, int]],
            object_hook: Any,
            object_pairs_hook: Any,
            memo: dict[str, str] | None = None,
        ) -> tuple[Any, int]:
            pairs, end = plain_object(s_and_end, strict, scan_once, None, list, memo)
            out = LocatedDict(pairs)
            if len(out) != len(pairs):
                keys = [k for k, _v in pairs]
                twice = next(k for i, k in enumerate(keys) if k in keys[:i])
                raise json.JSONDecodeError(
                    f"the key {twice!r} appears twice in one object", s_and_end[0], s_and_end[1] - 1
                )
            out.offset = s_and_end[1] - 1
            return out, end

        def parse_array(
            s_and_end: tuple[str, int], scan_once: Callable[[str, int], tuple[Any, int]]
        ) -> tuple[Any, int]:
            values, end = plain_array(s_and_end, scan_once)
            out = LocatedList(values)
            out.offset = s_and_end[1] - 1
            return out, end

        self.parse_object = parse_object
        self.parse_array = parse_array
        self.scan_once = _SCANNER_PARTS.py_make_scanner(self)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads_located(text: str) -> Any:
    """Parse like json.loads (strict: no NaN or Infinity); objects come back as
    LocatedDict, arrays as LocatedList. Raises json.JSONDecodeError (with lineno) or
    RecursionError (nesting too deep)."""
    decoder = _Decoder()
    decoder.parse_constant = _refuse_constant
    decoder.scan_once = _SCANNER_PARTS.py_make_scanner(decoder)
    return decoder.decode(text)


def line_of(text: str, value: Any) -> int | None:
    """The 1-based line where a located value starts (None for a plain value)."""
    offset = getattr(value, "offset", None)
    if not isinstance(offset, int):
        return None
    return text.count("\n", 0, offset) + 1
