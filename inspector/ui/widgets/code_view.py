"""A read-only, monospace, unwrapped text view: JSON, diffs, hex dumps, raw messages.

A QPlainTextEdit only ever shows plain text, so server text in it is never rendered; lines
are not wrapped because their layout (indentation, columns) is the point.
"""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QPlainTextEdit, QWidget

__all__ = ["code_view"]


def code_view(name: str = "", parent: QWidget | None = None) -> QPlainTextEdit:
    view = QPlainTextEdit(parent)
    if name:
        view.setObjectName(name)
    view.setReadOnly(True)
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    return view
