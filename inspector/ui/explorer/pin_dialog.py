"""The rug-pull dialog: which tools changed since they were pinned, the unified diff of each
(pretty JSON, plain text), and "Accept" to re-pin. Closing keeps the alert."""

from __future__ import annotations

import time

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase, QSyntaxHighlighter, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from inspector.features.catalog.pins import PinChange
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.screen_fit import fit_to_screen
from inspector.ui.widgets.theme import colors

__all__ = ["PinDiffDialog"]


class _DiffHighlighter(QSyntaxHighlighter):
    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        c = colors()
        self._added = QTextCharFormat()
        self._added.setForeground(c.ok)
        self._removed = QTextCharFormat()
        self._removed.setForeground(c.error)
        self._head = QTextCharFormat()
        self._head.setForeground(c.muted)

    def highlightBlock(self, text: str) -> None:
        if text.startswith(("+++", "---", "@@")):
            self.setFormat(0, len(text), self._head)
        elif text.startswith("+"):
            self.setFormat(0, len(text), self._added)
        elif text.startswith("-"):
            self.setFormat(0, len(text), self._removed)


class PinDiffDialog(QDialog):
    accepted_tool = Signal(str)  # re-pin this tool
    accepted_all = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pinDiffDialog")
        self.setWindowTitle("Tools changed since they were pinned")
        fit_to_screen(self, 880, 560)
        self._changes: dict[str, PinChange] = {}
        intro = PlainLabel(
            "These tools' definitions differ from the ones pinned for this profile. A server "
            "that changes what a tool says after you trusted it may be trying to make a model "
            "do something else (a “rug pull”). Read the diff; accept to trust the new "
            "definition.",
            wrap=True,
        )
        self.list = QListWidget()
        self.list.setObjectName("pinChanges")
        self.list.currentItemChanged.connect(self._show)
        self.summary = PlainLabel(wrap=True)
        self.diff = QPlainTextEdit()
        self.diff.setObjectName("pinDiff")
        self.diff.setReadOnly(True)
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)  # read it all
        self.diff.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._highlighter = _DiffHighlighter(self.diff.document())
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.summary)
        right_layout.addWidget(self.diff, 1)
        split = QSplitter()
        split.addWidget(self.list)
        split.addWidget(right)
        split.setSizes([170, 710])
        buttons = QDialogButtonBox()
        self.accept_button = QPushButton("Accept this tool")
        self.accept_button.setToolTip("Pin the tool's current definition")
        self.accept_all_button = QPushButton("Accept all")
        buttons.addButton(self.accept_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.accept_all_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.accept_button.clicked.connect(self._accept_current)
        self.accept_all_button.clicked.connect(self.accepted_all)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)

    def set_changes(self, changes: list[PinChange], select: str | None = None) -> None:
        current = select or (self.list.currentItem().text() if self.list.currentItem() else None)
        self._changes = {c.name: c for c in changes}
        self.list.clear()
        for change in changes:
            self.list.addItem(QListWidgetItem(change.name))
        names = [c.name for c in changes]
        row = names.index(current) if current in names else 0
        if changes:
            self.list.setCurrentRow(row)
        else:
            self.summary.setText("No tool differs from its pin.")
            self.diff.setPlainText("")
        self.accept_button.setEnabled(bool(changes))
        self.accept_all_button.setEnabled(bool(changes))

    def _show(self, item: QListWidgetItem | None, _previous: object) -> None:
        change = self._changes.get(item.text()) if item is not None else None
        if change is None:
            return
        when = (
            time.strftime("%Y-%m-%d %H:%M", time.localtime(change.pinned_at))
            if change.pinned_at
            else "?"
        )
        self.summary.setText(
            f"{change.name}: {', '.join(change.fields) or 'definition'} changed (pinned {when})"
        )
        self.diff.setPlainText(change.diff())

    def _accept_current(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.accepted_tool.emit(item.text())
