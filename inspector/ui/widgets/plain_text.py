"""Server text shown safely: labels in plain-text format, tooltips escaped.

Qt guesses whether a string is rich text (Qt.mightBeRichText) for labels and tooltips, so a
server's description starting with a tag would be rendered as HTML. These helpers make the
choice explicit: labels are PlainText, and tooltips are escaped before Qt sees them.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

__all__ = ["PlainLabel", "mark_checked_bold", "plain_label", "plain_tooltip", "short"]

_TOOLTIP_LIMIT = 4000


def plain_tooltip(text: str) -> str:
    """A tooltip that shows `text` verbatim (escaped, line breaks kept, length capped)."""
    if not text:
        return ""
    if len(text) > _TOOLTIP_LIMIT:
        text = text[:_TOOLTIP_LIMIT] + "…"
    body = html.escape(text).replace("\n", "<br>")
    return f"<qt><p style='white-space:pre-wrap'>{body}</p></qt>"


class PlainLabel(QLabel):
    """The one label of the app: its text is always plain (a server's `<b>` stays `<b>`).

    Every label in `inspector/ui/` is a PlainLabel (tests/ui/test_plain_text_rule.py fails on
    a bare QLabel); text we write ourselves is plain too, so nothing depends on Qt's guess.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None, *, wrap: bool = False):
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(wrap)
        self.setText(text)


def plain_label(text: str = "", parent: QWidget | None = None, *, wrap: bool = False) -> QLabel:
    return PlainLabel(text, parent, wrap=wrap)


def mark_checked_bold(widget: QWidget) -> None:
    """Checkable tool buttons (Form/JSON, Text/Markdown/JSON) show which one is on in bold:
    in the dark palette the pressed look alone is hard to see."""
    widget.setStyleSheet("QToolButton:checked { font-weight: bold; }")


def short(text: str, limit: int) -> str:
    """One line of at most `limit` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
