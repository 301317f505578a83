"""A flat table model with titled columns: Qt's column questions answered once.

The traffic log, the notifications, the errors, the tasks and the auth timeline are all
flat tables (no child rows) with a title per column. Qt asks each model for its column
count and its header titles; this base answers from the titles it is given, so a model
only says what is in its rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

__all__ = ["FlatTableModel", "ParentIndex"]

ParentIndex: TypeAlias = QModelIndex | QPersistentModelIndex


class FlatTableModel(QAbstractTableModel):
    def __init__(self, columns: Sequence[str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = tuple(columns)

    def columnCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> str | None:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section]
        return None
