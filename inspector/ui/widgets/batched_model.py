"""A table model over an append-only Python store, inserting rows in batches.

The store calls `schedule()` on every append (cheap: a flag test). A single-shot
timer then inserts everything that arrived, at most about 30 times a second (10 times
while a flood lasts), so a flood of messages costs the view one `beginInsertRows` per
frame instead of one per message. Rows map to store indices; with a filter active they
are the indices the filter kept (sorted, so a row is found by bisection).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, QTimer, Signal

from inspector.ui.widgets.flat_table_model import FlatTableModel, ParentIndex

__all__ = ["FLUSH_INTERVAL_MS", "BatchedTableModel"]

FLUSH_INTERVAL_MS = 33  # at most ~30 inserts (and repaints) a second
FLOOD_INTERVAL_MS = 100  # during a flood, fewer repaints leave more time for the flood
FLOOD_ROWS = 1000  # a flush that inserted this many rows means a flood


class BatchedTableModel(FlatTableModel):
    """Subclasses give the column titles and answer `source_len`, `source_filter` and
    `data`; rows, headers and batching are done here."""

    batch_inserted = Signal(int)  # rows added by the last flush
    reset_done = Signal()

    def __init__(self, columns: Sequence[str]) -> None:
        super().__init__(columns)
        self._rows: list[int] | None = None  # None: row i is store item i
        self._seen = 0  # store items already considered
        self._scheduled = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.timeout.connect(self.flush)

    # ------------------------------------------------------------ subclass API
    def source_len(self) -> int:
        raise NotImplementedError

    def source_filter(self, start: int, stop: int) -> list[int] | None:
        """Store indices in [start, stop) to show, or None when nothing is filtered."""
        return None

    # ------------------------------------------------------------ mapping
    def rowCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid():
            return 0
        return self._seen if self._rows is None else len(self._rows)

    def source_index(self, row: int) -> int:
        return row if self._rows is None else self._rows[row]

    def row_of(self, source_index: int) -> int | None:
        if source_index < 0 or source_index >= self._seen:
            return None
        if self._rows is None:
            return source_index
        pos = bisect.bisect_left(self._rows, source_index)
        if pos < len(self._rows) and self._rows[pos] == source_index:
            return pos
        return None

    @property
    def filtered(self) -> bool:
        return self._rows is not None

    @property
    def pending(self) -> int:
        """Store items not yet considered (waiting for the next flush)."""
        return self.source_len() - self._seen

    # ------------------------------------------------------------ batching
    def schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            self._timer.start()

    def flush(self) -> int:
        """Insert what arrived since the last flush; returns the number of rows added."""
        self._scheduled = False
        self._timer.stop()
        n = self.source_len()
        if n < self._seen:  # the store was cleared behind our back
            self.reset_rows()
            return 0
        if n == self._seen:
            return 0
        first_seen = self._seen
        if self._rows is None:
            first = self._seen
            self.beginInsertRows(QModelIndex(), first, n - 1)
            self._seen = n
            self.endInsertRows()
            added = n - first
        else:
            new = self.source_filter(self._seen, n) or []
            self._seen = n
            added = len(new)
            if new:
                first = len(self._rows)
                self.beginInsertRows(QModelIndex(), first, first + added - 1)
                self._rows.extend(new)
                self.endInsertRows()
        self._timer.setInterval(
            FLOOD_INTERVAL_MS if n - first_seen >= FLOOD_ROWS else FLUSH_INTERVAL_MS
        )
        if added:
            self.batch_inserted.emit(added)
        return added

    def reset_rows(self) -> None:
        """Recompute every row (after a filter change or a clear)."""
        self._scheduled = False
        self._timer.stop()
        self.beginResetModel()
        n = self.source_len()
        self._rows = self.source_filter(0, n)
        self._seen = n
        self._on_reset()
        self.endResetModel()
        self.reset_done.emit()

    def _on_reset(self) -> None:
        """Hook: drop caches."""
