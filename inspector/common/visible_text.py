"""Text from a server with every character a person cannot see shown as a visible escape:
the evidence of a security finding (inspector/security), where the point is to show what
hides in a tool's description.

`terminal_text` (the sibling module) makes text inert on a terminal: it escapes what a
terminal acts on (C0 and C1 controls, ESC, bidi controls, line separators) and leaves the
rest as it is. `visible_text` shows more: also every format character (category Cf: the
zero-width space, joiners, the word joiner, the BOM, the soft hyphen, the Unicode tag block
U+E0000-E007F), the variation selectors of the supplementary plane (U+E0100-E01EF, which
can smuggle bytes after an emoji), private-use and unassigned characters. Escapes are
`\\x1b` below U+0100, `\\u200b` in the BMP, `\\U000e0041` above. Newline and tab stay
unless `keep` says otherwise (`keep=""` for one line).
"""

from __future__ import annotations

import unicodedata
from typing import Final

from inspector.common.terminal_text import UNSAFE_ON_TERMINAL

__all__ = ["is_hidden", "visible_text"]

_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_SUPPLEMENTARY_SELECTORS: Final = range(0xE0100, 0xE01F0)


def is_hidden(ch: str) -> bool:
    """Whether the character shows nothing of itself (or acts on the text around it)."""
    if UNSAFE_ON_TERMINAL.match(ch):
        return True
    return unicodedata.category(ch) in _HIDDEN_CATEGORIES or ord(ch) in _SUPPLEMENTARY_SELECTORS


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible_text(text: str, *, keep: str = "\n\t") -> str:
    """`text` with every hidden character (`is_hidden`) but those in `keep` escaped."""
    return "".join(_escape(ch) if ch not in keep and is_hidden(ch) else ch for ch in text)
