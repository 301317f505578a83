"""The Errors tab: protocol violations, invalid frames and failures, over the Qt-free
`ErrorStore`; a row that points at a logged message jumps to it on double-click.
"""

from __future__ import annotations

import time
from typing import Any, Final

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from inspector.traffic.error_store import ErrorStore
from inspector.ui.traffic.traffic_model import format_time
from inspector.ui.widgets.batched_model import BatchedTableModel
from inspector.ui.widgets.flat_table_model import ParentIndex
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.row_table import RowTable
from inspector.ui.widgets.theme import colors

__all__ = ["ErrorsModel", "ErrorsPanel"]

# Categories that report the server's behaviour rather than a failure: shown as warnings.
_WARNING_CATEGORIES: Final = ("server ask", "version")


class ErrorsModel(BatchedTableModel):
    COLUMNS: Final = ("Time", "What", "Message")

    def __init__(self, store: ErrorStore) -> None:
        super().__init__(self.COLUMNS)
        self.store = store
        store.on_append(self.schedule)
        store.on_clear(self.reset_rows)

    def source_len(self) -> int:
        return len(self.store.items)

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self.store.items[self.source_index(index.row())]
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0:
                return format_time(item.wall)
            if index.column() == 1:
                return item.category
            return " ".join(item.message.split())
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == 1:
            if item.category in _WARNING_CATEGORIES:
                return QBrush(colors().warn)
            return QBrush(colors().error)
        return None


class ErrorsPanel(QWidget):
    """Protocol violations, invalid frames, failures; double-click jumps to the message."""

    jump_to_entry = Signal(int)
    count_changed = Signal(int)

    def __init__(self, store: ErrorStore) -> None:
        super().__init__()
        self.store = store
        self.model = ErrorsModel(store)
        self.table = RowTable()
        self.table.setModel(self.model)
        self.table.setColumnWidth(0, 96)
        self.table.setColumnWidth(1, 140)
        self.table.doubleClicked.connect(self._activated)
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setMaximumHeight(70)
        self.detail.setPlaceholderText("Select an error to read it in full.")
        self.table.selectionModel().currentRowChanged.connect(self._selected)
        clear = QToolButton()
        clear.setText("Clear")
        clear.clicked.connect(store.clear)
        hint = PlainLabel("Double-click a row to show its message in the log.")
        hint.setEnabled(False)
        bar = QHBoxLayout()
        bar.addWidget(hint, 1)
        bar.addWidget(clear)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.detail)
        self.model.batch_inserted.connect(self._after_batch)
        self.model.reset_done.connect(lambda: self.count_changed.emit(len(store)))

    def _after_batch(self, _n: int) -> None:
        self.table.scrollToBottom()
        self.count_changed.emit(len(self.store))

    def _selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.detail.setPlainText("")
            return
        item = self.store.items[self.model.source_index(current.row())]
        when = time.strftime("%H:%M:%S", time.localtime(item.wall))
        where = f" (log row #{item.entry_index})" if item.entry_index is not None else ""
        self.detail.setPlainText(f"{when} {item.category}{where}\n{item.message}")

    def _activated(self, index: QModelIndex) -> None:
        item = self.store.items[self.model.source_index(index.row())]
        if item.entry_index is not None:
            self.jump_to_entry.emit(item.entry_index)
