"""The command palette's window: a search box over a short list of the best matches.

It is given plain `PaletteEntry`s (`set_entries`) and knows nothing else of the window: no
connection, no JSON-RPC. Typing filters (inspector/ui/palette/fuzzy.py); Up/Down, Page
Up/Down move; Enter or a double-click runs the entry and closes; Esc closes. At most
`LIMIT` rows are shown whatever the number of entries (the count says how many match).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHeaderView,
    QLineEdit,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from inspector.ui.palette.entries import PaletteEntry
from inspector.ui.palette.fuzzy import FuzzyIndex
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["LIMIT", "CommandPalette", "PaletteModel"]

LIMIT: Final = 50  # rows shown at most
_COLUMNS: Final = ("Name", "Kind", "Shortcut")
_Index = QModelIndex | QPersistentModelIndex
_DISPLAY: Final = Qt.ItemDataRole.DisplayRole
_TOOLTIP: Final = Qt.ItemDataRole.ToolTipRole
_ROLES: Final = frozenset({_DISPLAY, _TOOLTIP, Qt.ItemDataRole.TextAlignmentRole})
_RIGHT: Final = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class PaletteModel(QAbstractTableModel):
    """The rows shown: a few entries (the best matches), three columns."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[PaletteEntry] = []

    def set_rows(self, rows: Sequence[PaletteEntry]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(_COLUMNS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES:
            return None
        row = index.row()
        if not 0 <= row < len(self.rows):
            return None
        entry = self.rows[row]
        if role == _DISPLAY:
            return (entry.title, entry.kind, entry.shortcut)[index.column()]
        if role == _TOOLTIP:
            return entry.detail or None
        return _RIGHT if index.column() == 2 else None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return _COLUMNS[section]
        return None


class CommandPalette(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("commandPalette")
        self.setWindowTitle("Command palette")
        self.entries: list[PaletteEntry] = []
        self.index = FuzzyIndex([])
        self.edit = QLineEdit()
        self.edit.setObjectName("paletteSearch")
        self.edit.setPlaceholderText(
            "Type an action, a tool, a resource, a prompt, a tab or a recent session…"
        )
        self.edit.setClearButtonEnabled(True)
        self.edit.textChanged.connect(self.filter)
        self.edit.installEventFilter(self)
        self.model = PaletteModel(self)
        self.view = QTreeView()
        self.view.setObjectName("paletteResults")
        self.view.setModel(self.model)
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setHeaderHidden(True)
        self.view.setAllColumnsShowFocus(True)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay in the search box
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Fixed widths: sizing a column to its contents reads every row at each keystroke.
        metrics = self.fontMetrics()
        for column, sample in ((1, "Template  "), (2, "Ctrl+Shift+Alt+W  ")):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(column, metrics.horizontalAdvance(sample))
        self.view.activated.connect(lambda index: self.run_row(index.row()))
        self.view.doubleClicked.connect(lambda index: self.run_row(index.row()))
        self.count = PlainLabel()
        self.count.setObjectName("paletteCount")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.edit)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.count)
        self.resize(640, 420)

    # ---------------------------------------------------------------- entries
    def set_entries(self, entries: Sequence[PaletteEntry]) -> None:
        """What the palette offers now (indexed once; the box is cleared)."""
        self.entries = list(entries)
        self.index = FuzzyIndex([e.title for e in self.entries])
        self.edit.blockSignals(True)
        self.edit.clear()
        self.edit.blockSignals(False)
        self.filter("")

    def filter(self, text: str) -> None:
        found, total = self.index.search(text, LIMIT)
        self.model.set_rows([self.entries[i] for i in found])
        if self.model.rows:
            self.view.setCurrentIndex(self.model.index(0, 0))
        shown = len(self.model.rows)
        if not total:
            self.count.setText("No match")
        elif shown < total:
            self.count.setText(f"{total:,} matches, the best {shown} shown: type more to narrow")
        else:
            self.count.setText(f"{total:,} match{'es' if total != 1 else ''}")

    def shown_titles(self) -> list[str]:
        return [e.title for e in self.model.rows]

    # ---------------------------------------------------------------- keys
    def eventFilter(self, watched: Any, event: Any) -> bool:
        if (
            watched is self.edit
            and isinstance(event, QKeyEvent)
            and event.type() == QKeyEvent.Type.KeyPress
            and self._key(event)
        ):
            return True
        return super().eventFilter(watched, event)

    def _key(self, event: QKeyEvent) -> bool:
        key = event.key()
        step = {
            Qt.Key.Key_Down: 1,
            Qt.Key.Key_Up: -1,
            Qt.Key.Key_PageDown: 10,
            Qt.Key.Key_PageUp: -10,
        }.get(Qt.Key(key))
        if step is not None:
            self._move(step)
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.run_row(self.view.currentIndex().row())
            return True
        return False

    def _move(self, step: int) -> None:
        count = len(self.model.rows)
        if not count:
            return
        row = self.view.currentIndex().row()
        row = max(0, min(count - 1, (row if row >= 0 else 0) + step))
        self.view.setCurrentIndex(self.model.index(row, 0))

    def run_row(self, row: int) -> bool:
        """Close, then run the row's entry (False: no such row)."""
        if not 0 <= row < len(self.model.rows):
            return False
        entry = self.model.rows[row]
        self.accept()
        entry.run()
        return True
