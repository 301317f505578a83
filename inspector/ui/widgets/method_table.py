"""A read-only table of one row per method (the traffic's statistics, a recording's
timeline): the first column stretches, the numbers fit their contents; and a row read back
by its first cell."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget

__all__ = ["method_table", "row_texts"]


def method_table(name: str, headers: Sequence[str], rows: int = 0) -> QTableWidget:
    """The table (`name` its object name) with `headers` and `rows` empty rows."""
    table = QTableWidget(rows, len(headers))
    table.setObjectName(name)
    table.setHorizontalHeaderLabels(list(headers))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 6)
    header = table.horizontalHeader()
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    for col in range(1, len(headers)):
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
    return table


def row_texts(table: QTableWidget, first: str) -> list[str] | None:
    """The texts of the row whose first cell says `first`; None when there is none."""
    for r in range(table.rowCount()):
        item = table.item(r, 0)
        if item is not None and item.text() == first:
            return [
                cell.text() if (cell := table.item(r, c)) is not None else ""
                for c in range(table.columnCount())
            ]
    return None
