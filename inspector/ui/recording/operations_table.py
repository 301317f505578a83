"""The multi-round-trip operations of a session (MRTR), one row each: what was called, its
rounds, its whole duration, the server's time and the user's time, and a bar on the
session's time axis whose segments are the server's rounds (request -> answer) and the
user's waits between them. The numbers come from the Qt-free `traffic.operations`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.traffic.operations import Operation, seconds_text
from inspector.ui.widgets.method_table import method_table
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["OPERATION_HEADERS", "OperationsTable"]

OPERATION_HEADERS: Final = ("Operation", "Rounds", "In all", "Server", "User", "Over time")
_BAR_COLUMN: Final = 5
_MAX_ROWS: Final = 5000  # a row each is a table item each: the first ones of a huge file


class _BarDelegate(QStyledItemDelegate):
    """Paints an operation's bar: server segments in the request colour, the user's waits
    as a lighter band, on the session's time axis."""

    def __init__(self, operations: Callable[[], Sequence[Operation]], span: float) -> None:
        super().__init__()
        self._operations = operations
        self._span = max(span, 1e-6)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        super().paint(painter, option, index)
        ops = self._operations()
        if not 0 <= index.row() < len(ops):
            return
        op = ops[index.row()]
        c = colors()
        rect = QRectF(option.rect).adjusted(2, 3, -2, -3)
        width = rect.width()

        def x(t: float) -> float:
            return rect.left() + min(1.0, max(0.0, t / self._span)) * width

        painter.save()
        for segment in op.segments:
            left, right = x(segment.start), x(segment.end)
            band = QRectF(left, rect.top(), max(1.0, right - left), rect.height())
            if segment.kind == "server":
                painter.fillRect(band, c.out)
            else:
                user = QRectF(band).adjusted(0, rect.height() / 3, 0, -rect.height() / 3)
                painter.fillRect(user, c.warn)
        painter.restore()


class OperationsTable(QWidget):
    """A caption and the table of operations."""

    def __init__(self, operations: Sequence[Operation], span: float) -> None:
        """`span`: the session's duration in seconds (the bars' time axis)."""
        super().__init__()
        self.setObjectName("operationsPanel")
        self.operations = list(operations[:_MAX_ROWS])
        shown = f" (the first {_MAX_ROWS:,} shown)" if len(operations) > _MAX_ROWS else ""
        self.caption = PlainLabel(
            f"{len(operations):,} call(s) of several rounds (input_required, then "
            f"retries){shown}: the server's time apart from the user's.",
            wrap=True,
        )
        self.caption.setEnabled(False)
        self.table = method_table("operationsTable", OPERATION_HEADERS, len(self.operations))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(_BAR_COLUMN, QHeaderView.ResizeMode.Stretch)
        self._delegate = _BarDelegate(lambda: self.operations, span)
        self.table.setItemDelegateForColumn(_BAR_COLUMN, self._delegate)
        self.table.setToolTip(
            "One row per call of several rounds. The bar, over the whole session: the "
            "server's rounds (solid) and the user's waits between them (thin)."
        )
        for row, op in enumerate(self.operations):
            cells = [
                op.label,
                str(op.rounds),
                seconds_text(op.total) if op.complete else "unfinished",
                seconds_text(op.server),
                seconds_text(op.user),
                "",
            ]
            segments = _segments_text(op)
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(plain_tooltip(segments))
                if 0 < col < _BAR_COLUMN:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(row, col, item)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addWidget(self.table, 1)

    def row_texts(self) -> list[list[str]]:
        """Each row's texts but the bar's (for tests)."""
        return [
            [
                cell.text() if (cell := self.table.item(r, c)) is not None else ""
                for c in range(_BAR_COLUMN)
            ]
            for r in range(self.table.rowCount())
        ]

    def first_request(self, row: int) -> int | None:
        """The log index of the operation's first request."""
        return self.operations[row].first if 0 <= row < len(self.operations) else None


def _segments_text(op: Operation) -> str:
    lines = [f"{op.label}: {op.rounds} rounds, {op.times_text()}"]
    for segment in op.segments:
        who = "server" if segment.kind == "server" else "user"
        lines.append(
            f"{segment.start:.3f}–{segment.end:.3f} s: {who} "
            f"({seconds_text(segment.end - segment.start)})"
        )
    return "\n".join(lines)
