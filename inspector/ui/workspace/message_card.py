"""One message of a prompt's conversation, as a card: its role and its content blocks.

User messages lean left and assistant messages right, each tinted with its role's color, so
a conversation reads like a chat; problems found in the message are shown above its blocks.
"""

from __future__ import annotations

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QHBoxLayout, QVBoxLayout

from inspector.features.prompts import PromptMessage
from inspector.ui.content.blocks_view import ContentBlocksView
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["MessageCard"]


class MessageCard(QFrame):
    """One message: a role strip (user on the left, assistant on the right) and its content."""

    def __init__(self, message: PromptMessage) -> None:
        super().__init__()
        self.message = message
        self.setObjectName("messageCard")
        self.setFrameShape(QFrame.Shape.NoFrame)
        c = colors()
        accent = {"user": c.out, "assistant": c.incoming}.get(message.role, c.warn)
        self.setStyleSheet(
            f"QFrame#messageCard {{ border-left: 3px solid {accent.name()}; "
            f"background: {_tint(accent)}; border-radius: 4px; }}"
        )
        role = PlainLabel(message.role, selectable=True)
        role.setObjectName("messageRole")
        font = role.font()
        font.setBold(True)
        role.setFont(font)
        role.setStyleSheet(f"color: {accent.name()}; background: transparent;")
        self.blocks = ContentBlocksView()
        self.blocks.set_blocks(message.blocks)
        head = QHBoxLayout()
        head.addWidget(role)
        head.addStretch(1)
        summary = PlainLabel(self.blocks.summary(), selectable=True)
        summary.setStyleSheet(f"color: {c.muted.name()}; background: transparent;")
        head.addWidget(summary)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 8, 8)
        layout.addLayout(head)
        if message.problems:
            problems = PlainLabel(
                "\n".join(f"⚠ {p}" for p in message.problems), wrap=True, selectable=True
            )
            problems.setObjectName("messageProblems")
            problems.setStyleSheet(f"color: {c.warn.name()}; background: transparent;")
            layout.addWidget(problems)
        layout.addWidget(self.blocks)


def _tint(color: QColor) -> str:
    """The accent at low opacity: a bubble that works on light and dark backgrounds."""
    return f"rgba({color.red()}, {color.green()}, {color.blue()}, 28)"
