"""A tab's custom name, made safe to show and to keep: what the user typed in Rename, or
what a settings file (edited, old, or hostile) says a tab was called.

Control characters (a pasted newline, a NUL, a tab) and the bidirectional overrides that
can make a title read backwards become spaces; runs of spaces become one; a name longer
than `MAX_NAME` is cut (with "…"), since a tab title, a tooltip and a dialog title all show
it; nothing left (empty, only spaces): no custom name, the tab's automatic name is used.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

__all__ = ["MAX_NAME", "clean_tab_name"]

MAX_NAME: Final = 120
_BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
_SPACES: Final = re.compile(r"\s+")


def _visible(ch: str) -> str:
    if ch in _BIDI or unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs"):
        return " "
    return ch


def clean_tab_name(name: object) -> str | None:
    """The name to show and keep, or None (not a string, or nothing visible in it)."""
    if not isinstance(name, str):
        return None
    text = _SPACES.sub(" ", "".join(_visible(ch) for ch in name[: MAX_NAME * 4])).strip()
    if not text:
        return None
    if len(text) > MAX_NAME:
        text = text[: MAX_NAME - 1].rstrip() + "…"
    return text
