"""JSON highlighting fed by pygments tokens, on a plain-text document.

The document stays plain text (QPlainTextEdit): pygments only tells us which
ranges to color, so nothing a server sent can ever be interpreted as markup. A line the
JSON lexer cannot read (an HTTP exchange, a stderr line, a note) is left uncoloured: the
lexer's guesses inside plain text (the "tt" of "http" as a constant) would be wrong.
"""

from __future__ import annotations

import re
from typing import Final

from pygments.lexers.data import JsonLexer  # type: ignore[import-untyped,unused-ignore]
from pygments.token import (  # type: ignore[import-untyped,unused-ignore]
    Error,
    Keyword,
    Name,
    Number,
    Punctuation,
    String,
    _TokenType,
)
from PySide6.QtGui import QSyntaxHighlighter, QTextCharFormat, QTextDocument

from inspector.ui.widgets.theme import colors

__all__ = ["JsonHighlighter"]

_ASTRAL: Final = re.compile("[\U00010000-\U0010ffff]")


class JsonHighlighter(QSyntaxHighlighter):
    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._lexer = JsonLexer()
        self.refresh_colors()

    def refresh_colors(self) -> None:
        c = colors()
        self._formats: list[tuple[_TokenType, QTextCharFormat]] = []
        for token, color in (
            (Name.Tag, c.json_key),
            (String, c.json_string),
            (Number, c.json_number),
            (Keyword, c.json_keyword),
            (Punctuation, c.json_punct),
        ):
            fmt = QTextCharFormat()
            fmt.setForeground(color)
            self._formats.append((token, fmt))
        self.rehighlight()

    def _format_for(self, token: _TokenType) -> QTextCharFormat | None:
        for parent, fmt in self._formats:
            if token in parent:
                return fmt
        return None

    def highlightBlock(self, text: str) -> None:
        tokens = list(self._lexer.get_tokens_unprocessed(text))
        if any(token in Error for _i, token, _v in tokens):
            return  # not JSON: plain text, uncoloured
        astral = _ASTRAL.search(text) is not None
        for index, token, value in tokens:
            fmt = self._format_for(token)
            if fmt is None:
                continue
            start, length = index, len(value)
            if astral:  # Qt counts UTF-16 code units
                start = len(text[:index].encode("utf-16-le")) // 2
                length = len(value.encode("utf-16-le")) // 2
            self.setFormat(start, length, fmt)
