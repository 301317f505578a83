"""Server text shown safely: labels in plain-text format, tooltips escaped.

Qt guesses whether a string is rich text (Qt.mightBeRichText) for labels and tooltips, so a
server's description starting with a tag would be rendered as HTML. These helpers make the
choice explicit: labels are PlainText, and tooltips are escaped before Qt sees them.
tests/ui/widgets/test_plain_text_rule.py keeps every module of `inspector/ui/` to them.
"""

from __future__ import annotations

import html
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from inspector.ui.widgets.emoji import shown_text

__all__ = ["PlainLabel", "mark_checked_bold", "plain_tooltip", "short", "short_status"]

TOOLTIP_LIMIT: Final = 4000


def plain_tooltip(text: str, limit: int = TOOLTIP_LIMIT) -> str:
    """A tooltip that shows `text` verbatim (escaped, line breaks kept, at most `limit`
    characters: a tooltip taller than the screen helps nobody)."""
    if not text:
        return ""
    if len(text) > limit:
        text = text[:limit] + "…"
    body = html.escape(text).replace("\n", "<br>")
    return f"<qt><p style='white-space:pre-wrap'>{body}</p></qt>"


class PlainLabel(QLabel):
    """The one label of the app: its text is always plain (a server's `<b>` stays `<b>`).

    Every label in `inspector/ui/` is a PlainLabel (tests/ui/widgets/test_plain_text_rule.py
    fails on a bare QLabel); text we write ourselves is plain too, so nothing depends on Qt's guess.
    `selectable` lets the user select and copy the text (a URI, an error message).
    """

    def __init__(
        self,
        text: str = "",
        parent: QWidget | None = None,
        *,
        wrap: bool = False,
        selectable: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(wrap)
        if selectable:
            self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._source = ""
        self.setText(text)

    def setText(self, text: str) -> None:
        """Show `text` (an emoji no font can draw shows as its code point); `text()` gives
        it back unchanged."""
        self._source = text
        super().setText(shown_text(text))

    def text(self) -> str:
        return self._source


def mark_checked_bold(widget: QWidget) -> None:
    """Checkable tool buttons (Form/JSON, Text/Markdown/JSON) show which one is on in bold:
    in the dark palette the pressed look alone is hard to see."""
    widget.setStyleSheet("QToolButton:checked { font-weight: bold; }")


def short(text: str, limit: int) -> str:
    """One line of at most `limit` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def short_status(text: str, limit: int = 90) -> str:
    """A status-bar line: the first line of `text`, without a long parenthetical (a PATH
    dump), at most `limit` characters; the whole text is in the Errors tab."""
    line = text.strip().split("\n", 1)[0]
    cut = line.find(" (")
    if cut > 20 and len(line) > limit:
        line = line[:cut]
    line = short(line, limit)
    return line if line == " ".join(text.split()) else f"{line} (details in the Errors tab)"
