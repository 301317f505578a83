"""Emoji in server text when no font has them: shown as their code points, not boxes.

Qt falls back through the system's fonts for characters the chosen font lacks; with no
emoji font installed (a bare Linux desktop, a CI machine), an emoji is drawn as an empty
box and the user cannot tell one from another. Then each emoji is shown as `⟨U+1F600⟩`.
scripts/system-deps.sh installs an emoji font (fonts-noto-color-emoji) where it can.
"""

from __future__ import annotations

import functools
import re
from typing import Final

from PySide6.QtGui import QFontDatabase

__all__ = ["emoji_font_available", "shown_text"]

_MAX_SCAN: Final = 20_000  # a label's text; longer text is not scanned (it stays fast)
_EMOJI_FAMILIES: Final = ("emoji", "symbola", "twemoji", "emojione")
# Pictographs, emoticons, transport, supplemental symbols, flags; variation selector 16
# and the zero-width joiner belong to the emoji before them.
_EMOJI: Final = re.compile(
    "[\U0001f000-\U0001faff\U0001f1e6-\U0001f1ff\u2600-\u27bf\u2b50\u2b55][\ufe0f\u200d]*"
)


@functools.cache
def emoji_font_available() -> bool:
    return any(
        any(word in family.lower() for word in _EMOJI_FAMILIES)
        for family in QFontDatabase.families()
    )


def _code_point(match: re.Match[str]) -> str:
    return f"⟨U+{ord(match.group(0)[0]):04X}⟩"


def shown_text(text: str, *, emoji_font: bool | None = None) -> str:
    """`text` as it can be drawn: unchanged when an emoji font is installed (or there is
    no emoji), else each emoji as its code point."""
    has_font = emoji_font_available() if emoji_font is None else emoji_font
    if has_font or len(text) > _MAX_SCAN or not _EMOJI.search(text):
        return text
    return _EMOJI.sub(_code_point, text)
