"""Finding a needle in the JSON-escaped texts of a session file, without decoding them.

A frame's text is stored in its line as a JSON string. A substring of the text appears in
the file as the JSON escape of that substring, character by character (JSON escapes form
a prefix-free code), so searching the file's bytes for the escaped needle finds exactly the
texts that hold the needle, provided a hit starts on a character of the text: not in the
middle of an escape sequence (`n` inside `\\n`), and inside the text's span. A character
may be escaped in more than one way (`é` or `\\u00e9`, whichever `ensure_ascii` the writer
used), so the needle becomes a small regular expression of alternatives; when the search
ignores case, each character's alternatives are every character whose lower case it is.
"""

from __future__ import annotations

import json
import mmap
import re
from functools import cache
from typing import Final

from inspector.traffic.filter import caseless_key

__all__ = ["FindPlan", "escaped_pattern", "mid_escape"]

_BACKSLASH: Final = 0x5C
_U: Final = 0x75


# The characters whose lower case is one character of which they are neither the upper
# nor the title case (ϴ, ẞ, Ω, K, Å: compatibility signs), by that lower case.
_ODD_UPPERS: Final = {"\u03f4": "θ", "\u1e9e": "ß", "\u2126": "ω", "\u212a": "k", "\u212b": "å"}


@cache
def _uppers_of(low: str) -> list[str]:
    """Every character other than `low` whose lower case is `low`."""
    out = [
        c
        for c in dict.fromkeys([low.upper(), low.title()])
        if len(c) == 1 and c != low and c.lower() == low
    ]
    out += [c for c, lowered in _ODD_UPPERS.items() if lowered == low]
    if low in ("i", "\u0307"):  # U+0130 (İ) lowers to "i" + U+0307
        out.append("\u0130")
    return out


def _forms(ch: str) -> list[bytes]:
    """The ways a JSON writer may put `ch` in a string: as our writer does (UTF-8, short
    escapes), and as `ensure_ascii` does (\\uXXXX, hex in either case)."""
    plain = json.encoder.encode_basestring(ch)[1:-1].encode("utf-8")
    out = [re.escape(plain)]
    ascii_form = json.dumps(ch)[1:-1]
    if ascii_form.encode() != plain:
        out.append(
            b"".join(
                re.escape(c.encode()) if c not in "abcdef" else f"[{c}{c.upper()}]".encode()
                for c in ascii_form
            )
        )
    return out


def escaped_pattern(needle: str, fold: bool) -> re.Pattern[bytes]:
    """A bytes pattern matching the JSON escape of `needle` (of any text whose lower case
    holds it, with `fold`), in either escaping style."""
    parts: list[bytes] = []
    i = 0
    while i < len(needle):
        ch = needle[i]
        chars = [ch, *_uppers_of(ch)] if fold else [ch]
        alternatives = [form for c in chars for form in _forms(c)]
        if fold and needle[i : i + 2] == "i\u0307":  # İ lowers to these two
            alternatives = [_one_form("i") + _one_form("\u0307"), *_forms("\u0130")]
            i += 1
        unique = list(dict.fromkeys(alternatives))
        parts.append(unique[0] if len(unique) == 1 else b"(?:" + b"|".join(unique) + b")")
        i += 1
    return re.compile(b"".join(parts))


def _one_form(ch: str) -> bytes:
    """Any of the ways to write `ch` (a group of alternatives)."""
    forms = _forms(ch)
    return forms[0] if len(forms) == 1 else b"(?:" + b"|".join(forms) + b")"


def mid_escape(data: bytes | mmap.mmap, text_start: int, pos: int) -> bool:
    """Does a hit at `pos` start inside an escape sequence of the JSON string whose first
    character is at `text_start`? (`data`: the file's bytes there.)"""
    low = max(text_start, pos - 5)
    if data.rfind(b"\\", low, pos) < 0:
        return False
    # An odd run of backslashes just before pos: pos is the escaped character.
    run = 0
    i = pos - 1
    while i >= text_start and data[i] == _BACKSLASH:
        run += 1
        i -= 1
    if run % 2:
        return True
    # Inside \uXXXX: a real (unescaped) backslash followed by u, 2 to 5 bytes before pos.
    for k in range(2, 6):
        q = pos - k
        if q < text_start:
            break
        if data[q] == _BACKSLASH and data[q + 1] == _U:
            run = 0
            i = q
            while i >= text_start and data[i] == _BACKSLASH:
                run += 1
                i -= 1
            if run % 2:
                return True
    return False


# Characters outside ASCII whose lower case holds an ASCII letter: a text holding one
# matches a needle with that letter when case is ignored (written raw or escaped).
_TO_ASCII: Final = {"k": "\u212a", "i": "\u0130"}


class FindPlan:
    """How to find a needle in a file's escaped texts: one literal in the bytes (lowered
    first when case is ignored and the needle is ASCII), else a pattern of alternatives,
    with a literal that a block must hold to be searched at all (`prefilter`)."""

    def __init__(self, needle: str) -> None:
        self.fold = fold = needle == needle.lower()
        escaped = json.encoder.encode_basestring(needle)[1:-1]
        self.literal = escaped.encode("utf-8")
        self.lower = fold and needle.isascii() and any(c.isalpha() for c in needle)
        self._needle = needle
        self._pattern: re.Pattern[bytes] | None = None
        self.simple = needle.isascii()
        self.prefilter: bytes | None = self.literal if self.simple else _ascii_run(needle, fold)
        # Where the prefilter sits in a match (not simple): at most `back` bytes after its
        # start, `ahead` bytes before its end (a character escapes to 12 bytes at most).
        self.anchor: tuple[int, int] | None = None
        if not self.simple and self.prefilter is not None:
            at = needle.find(self.prefilter.decode())
            if at >= 0:
                after = len(needle) - at - len(self.prefilter)
                self.anchor = (12 * at, 12 * after)
        # Ignoring case: the needle's run of caseless characters, as escaped (" 12345 ").
        key = caseless_key(needle) if fold else ""
        escaped_key = json.encoder.encode_basestring(key)[1:-1] if key.isascii() else ""
        self.caseless: bytes | None = escaped_key.encode() if len(escaped_key) >= 3 else None
        self.special: list[bytes] = []
        if self.lower:
            for letter, other in _TO_ASCII.items():
                if letter in needle:
                    escape = json.dumps(other)[1:-1]
                    self.special += [other.encode(), escape.encode(), escape.upper().encode()]

    @property
    def pattern(self) -> re.Pattern[bytes]:
        """The pattern of alternatives (built on first use: folding case takes a table)."""
        if self._pattern is None:
            self._pattern = escaped_pattern(self._needle, self.fold)
        return self._pattern

    def needs_pattern(self, hay: bytes) -> bool:
        """Must this block be searched with the pattern (not the literal)?"""
        if not self.simple:
            return True
        return any(hay.find(form) >= 0 for form in self.special)


def _ascii_run(needle: str, fold: bool) -> bytes | None:
    """The longest run of ASCII characters of the needle that every escape of a match
    holds as is (lowered when case is ignored): letters, digits, a few signs."""
    best = ""
    run = ""
    for ch in needle + "\x00":
        if ch.isascii() and (ch.isalnum() or ch in " -_./:") and ch not in "ki":
            run += ch
            continue
        if len(run) > len(best):
            best = run
        run = ""
    if len(best) < 2:
        return None
    return best.lower().encode() if fold else best.encode()
