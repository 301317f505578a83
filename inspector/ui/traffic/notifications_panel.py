"""The Notifications tab: the server's log messages (notifications/message), filtered by a
minimum level, over the Qt-free `LogMessageStore`.
"""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QToolButton, QVBoxLayout, QWidget

from inspector.common.log_levels import LOG_LEVELS
from inspector.traffic.log_messages import LogMessageStore
from inspector.ui.traffic.traffic_model import format_time
from inspector.ui.widgets.batched_model import BatchedTableModel
from inspector.ui.widgets.flat_table_model import ParentIndex
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.row_table import RowTable
from inspector.ui.widgets.theme import colors

__all__ = ["LogMessagesModel", "NotificationsPanel"]

_CACHE_LIMIT: Final = 4096  # rows whose fields are kept parsed (a scrolled screen or two)


class LogMessagesModel(BatchedTableModel):
    COLUMNS: Final = ("Time", "Level", "Logger", "Message")

    def __init__(self, store: LogMessageStore) -> None:
        super().__init__(self.COLUMNS)
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
        return self.store.indices_at_least(self.min_level, start, stop)

    def set_min_level(self, level: int) -> None:
        if level != self.min_level:
            self.min_level = level
            self.reset_rows()

    def _on_reset(self) -> None:
        self._cache.clear()

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
                if len(self._cache) > _CACHE_LIMIT:
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
        self.table = RowTable()
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
