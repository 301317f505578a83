"""What the palette lists: a plain entry per thing a person can run or open (no Qt).

The window builds them (inspector/ui/shell/palette_sources.py); the palette only shows,
matches and runs them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

__all__ = ["MAX_TITLE", "PaletteEntry", "plain_title"]

MAX_TITLE: Final = 200  # a server's name can be anything: one line, this long at most


def plain_title(text: str) -> str:
    """A title as one line of plain text: whitespace and control characters become
    single spaces, and a very long one is cut (a server's names are not trusted)."""
    if len(text) <= MAX_TITLE and text.isprintable() and "  " not in text and text == text.strip():
        return text  # the common case, checked in C
    cleaned = "".join(ch if ch.isprintable() else " " for ch in text[: MAX_TITLE * 2])
    line = " ".join(cleaned.split())
    return line if len(line) <= MAX_TITLE else line[: MAX_TITLE - 1] + "…"


@dataclass(frozen=True, slots=True)
class PaletteEntry:
    """One row: `title` is what is matched and shown, `kind` says what it is ("Action",
    "Tool", "Tab", "Session"...), `shortcut` its keys (or ""), `detail` a tooltip, `run`
    what Enter does."""

    title: str
    kind: str
    run: Callable[[], object]
    shortcut: str = ""
    detail: str = ""
