"""The fixed, titled columns of a flat table model: what Qt asks of every such model in
`columnCount` and `headerData`, answered once.

The traffic log, the notifications, the errors, the tasks and the auth timeline are all
flat tables with a title per column; each model holds a `TableColumns` and hands those two
questions to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

__all__ = ["ParentIndex", "TableColumns"]

ParentIndex: TypeAlias = QModelIndex | QPersistentModelIndex


class TableColumns:
    def __init__(self, titles: Sequence[str]) -> None:
        self.titles = tuple(titles)

    def __len__(self) -> int:
        return len(self.titles)

    def count(self, parent: ParentIndex) -> int:
        """Columns under `parent`: a flat table has them only at the root."""
        return 0 if parent.isValid() else len(self.titles)

    def header(self, section: int, orientation: Qt.Orientation, role: int) -> str | None:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.titles[section]
        return None
