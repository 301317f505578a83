"""The bottom tabs: Server console (stderr), Notifications (logging, by level), Errors."""

from __future__ import annotations

import time
from typing import Any, Final

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.protocol.log_levels import LOG_LEVELS
from inspector.traffic.error_store import ErrorStore
from inspector.traffic.log_messages import LogMessageStore
from inspector.ui.traffic.traffic_model import format_time
from inspector.ui.widgets.batched_model import BatchedTableModel
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["ErrorsPanel", "NotificationsPanel", "ServerConsole"]

ParentIndex = QModelIndex | QPersistentModelIndex
_CONSOLE_MAX_LINES: Final = 50_000


class ServerConsole(QWidget):
    """The server's stderr, appended in batches (a chatty server must not stall the UI)."""

    def __init__(self) -> None:
        super().__init__()
        self.view = QPlainTextEdit()
        self.view.setObjectName("serverConsole")
        self.view.setReadOnly(True)
        self.view.setMaximumBlockCount(_CONSOLE_MAX_LINES)
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.view.setPlaceholderText("What the server writes to stderr appears here.")
        self._pending: list[str] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self.flush)
        clear = QToolButton()
        clear.setText("Clear")
        clear.clicked.connect(self.view.clear)
        bar = QHBoxLayout()
        bar.addStretch(1)
        bar.addWidget(clear)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)

    def append(self, line: str) -> None:
        self._pending.append(line)
        if not self._timer.isActive():
            self._timer.start()

    def flush(self) -> None:
        if not self._pending:
            return
        lines, self._pending = self._pending[-_CONSOLE_MAX_LINES:], []
        self.view.appendPlainText("\n".join(lines))
        bar = self.view.verticalScrollBar()
        bar.setValue(bar.maximum())

    def text(self) -> str:
        self.flush()
        return self.view.toPlainText()


class LogMessagesModel(BatchedTableModel):
    COLUMNS: Final = ("Time", "Level", "Logger", "Message")

    def __init__(self, store: LogMessageStore) -> None:
        super().__init__()
        self.store = store
        self.min_level = 0
        self._cache: dict[int, tuple[str, str, str]] = {}
        store.on_append(self.schedule)
        store.on_clear(self.reset_rows)

    def source_len(self) -> int:
        return len(self.store.rows)

    def source_filter(self, start: int, stop: int) -> list[int] | None:
        if self.min_level <= 0:
            return None
        return [i for i in self.store.indices_at_least(self.min_level, start) if i < stop]

    def set_min_level(self, level: int) -> None:
        if level != self.min_level:
            self.min_level = level
            self.reset_rows()

    def _on_reset(self) -> None:
        self._cache.clear()

    def columnCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        source = self.source_index(index.row())
        if role == Qt.ItemDataRole.DisplayRole:
            entry = self.store.entry(source)
            if index.column() == 0:
                return format_time(entry.wall)
            fields = self._cache.get(source)
            if fields is None:
                if len(self._cache) > 4096:
                    self._cache.clear()
                fields = self._cache[source] = LogMessageStore.fields(entry)
            level, logger, message = fields
            value = (level, logger, message)[index.column() - 1]
            return " ".join(value.split()) if index.column() == 3 else value
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == 1:
            level_i = self.store.levels[source]
            if level_i >= 4:
                return QBrush(colors().error)
            if level_i == 3:
                return QBrush(colors().warn)
        return None


class _Table(QTableView):
    def __init__(self) -> None:
        super().__init__()
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setWordWrap(False)
        self.setShowGrid(False)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.horizontalHeader().setStretchLastSection(True)


class NotificationsPanel(QWidget):
    """Logging notifications (notifications/message), filtered by minimum level."""

    def __init__(self, store: LogMessageStore) -> None:
        super().__init__()
        self.store = store
        self.model = LogMessagesModel(store)
        self.level_combo = QComboBox()
        for i, name in enumerate(LOG_LEVELS):
            self.level_combo.addItem(f"{name} and above" if i else "all levels", i)
        self.level_combo.currentIndexChanged.connect(
            lambda _i: self.model.set_min_level(int(self.level_combo.currentData()))
        )
        self.count = PlainLabel()
        clear = QToolButton()
        clear.setText("Clear")
        clear.clicked.connect(store.clear)
        hint = PlainLabel("Ask the server for logs with logging/setLevel (Send raw…).")
        hint.setEnabled(False)
        self.hint = hint
        bar = QHBoxLayout()
        self.bar = bar
        bar.addWidget(PlainLabel("Level:"))
        bar.addWidget(self.level_combo)
        bar.addWidget(hint, 1)
        bar.addWidget(self.count)
        bar.addWidget(clear)
        self.table = _Table()
        self.table.setModel(self.model)
        self.table.setColumnWidth(0, 96)
        self.table.setColumnWidth(1, 72)
        self.table.setColumnWidth(2, 120)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)
        self.model.batch_inserted.connect(self._after_batch)
        self.model.reset_done.connect(self._update_count)
        self._update_count()

    def _after_batch(self, _n: int) -> None:
        self.table.scrollToBottom()
        self._update_count()

    def add_control(self, widget: QWidget) -> None:
        """A control next to the filter, e.g. the server's log level (which replaces the
        hint about logging/setLevel)."""
        self.hint.hide()
        index = self.bar.indexOf(self.hint)
        self.bar.insertSpacing(index, 16)
        self.bar.insertWidget(index + 1, widget)
        self.bar.insertStretch(index + 2, 1)

    def _update_count(self) -> None:
        total, shown = len(self.store), self.model.rowCount()
        self.count.setText(f"{shown:,} of {total:,}" if self.model.filtered else f"{total:,}")


class ErrorsModel(BatchedTableModel):
    COLUMNS: Final = ("Time", "What", "Message")

    def __init__(self, store: ErrorStore) -> None:
        super().__init__()
        self.store = store
        store.on_append(self.schedule)
        store.on_clear(self.reset_rows)

    def source_len(self) -> int:
        return len(self.store.items)

    def columnCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

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
            if item.category in ("server ask", "version"):
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
        self.table = _Table()
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
