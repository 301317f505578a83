"""One request's whole conversation: every round of an MRTR exchange, in one window.

The rows come from `RequestRounds` (Qt-free); each message is shown as plain text (its
JSON pretty-printed), and a click in the list selects it in the traffic log.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from inspector.traffic.format import DIRECTION_ARROWS
from inspector.traffic.rounds import RequestRounds, conversation_text
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.screen_fit import fit_to_screen

__all__ = ["ConversationDialog"]


class ConversationDialog(QDialog):
    def __init__(
        self,
        rounds: RequestRounds,
        index: int,
        select: Callable[[int], object],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Conversation")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.rounds = rounds
        self._select = select
        self.indices = rounds.conversation(index)
        log = rounds.log
        first = log.entries[self.indices[0]] if self.indices else None
        method = first.method if first is not None and first.method else "request"
        found = rounds.round_of(self.indices[0]) if self.indices else None
        total = found[1] if found is not None else 0
        how = (
            "grouped from the recorded frames: each retry echoes its round's requestState "
            "or repeats its params"
            if rounds.by_content
            else "the protocol core keeps one key across retries"
        )
        operation = rounds.operation(index)
        times = f" {operation.times_text()}." if operation is not None else ""
        self.summary = PlainLabel(
            f"{method}: {total} rounds on the wire, one request ({how}).{times} "
            "Click a message to select it in the log.",
            wrap=True,
            selectable=True,
        )
        self.list = QListWidget()
        for i in self.indices:
            entry = log.entries[i]
            arrow = DIRECTION_ARROWS.get(entry.direction, "")
            item = QListWidgetItem(
                f"#{i} {arrow} {entry.kind} id {entry.msg_id!r} · {rounds.mark(i)}"
            )
            item.setData(Qt.ItemDataRole.UserRole, i)
            self.list.addItem(item)
        self.list.itemClicked.connect(self._clicked)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setPlainText(conversation_text(log, self.indices, rounds))
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.list)
        split.addWidget(self.text)
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        fit_to_screen(self, 900, 560)

    def _clicked(self, item: QListWidgetItem) -> None:
        """Show that message in the text, and select it in the log."""
        index = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(index, int):
            cursor = self.text.document().find(f"#{index} ")
            if not cursor.isNull():
                self.text.setTextCursor(cursor)
                self.text.centerCursor()
            self._select(index)
