"""A table model over an append-only Python store, inserting rows in batches.

The store calls `schedule()` on every append (cheap: a flag test). A single-shot
timer then inserts everything that arrived, at most about 30 times a second (10 times
while a flood lasts), so a flood of messages costs the view one `beginInsertRows` per
frame instead of one per message. Rows map to store indices; with a filter active they
are the indices the filter kept (sorted, so a row is found by bisection).

A filter over a big store (a million-message recording) is applied in slices: the first
slice's rows show at once, the rest are appended a slice per event-loop turn, so the window
answers within a frame or two while it filters (`filtering` says how far it got); an
explicit `flush()` then adds one more slice.
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
PROGRESSIVE_FROM = 131_072  # a filter over more store items than this is applied in slices
SLICE_ITEMS = 32_768  # store items a slice considers (a text filter: 5-55 ms of 1M rows, quiet)


class BatchedTableModel(FlatTableModel):
    """Subclasses give the column titles and answer `source_len`, `source_filter` and
    `data`; rows, headers and batching are done here."""

    batch_inserted = Signal(int)  # rows added by the last flush
    reset_done = Signal()
    filtering = Signal(int, int)  # store items a sliced filter considered so far, of all
    # When a filter is applied in slices, and how big a slice is (a test makes them small).
    progressive_from = PROGRESSIVE_FROM
    slice_items = SLICE_ITEMS
    # How often rows go in while a flood lasts (an opened file being indexed asks for less:
    # each insert repaints the table).
    flood_interval_ms = FLOOD_INTERVAL_MS

    def __init__(self, columns: Sequence[str]) -> None:
        super().__init__(columns)
        self._rows: list[int] | None = None  # None: row i is store item i
        self._seen = 0  # store items already considered
        self._slicing = False  # a filter being applied a slice per event-loop turn
        self._scheduled = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.timeout.connect(self._flush_slice)

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

    @property
    def catching_up(self) -> bool:
        """Is a sliced filter still going through the store (rows still to come)?"""
        return self._rows is not None and self._seen < self.source_len() and self._slicing

    @property
    def considered(self) -> int:
        """Store items the rows already account for (the rest: pending or being filtered)."""
        return self._seen

    # ------------------------------------------------------------ batching
    def schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            self._timer.start()

    def flush(self) -> int:
        """Insert what arrived since the last flush; returns the number of rows added.
        While a filter is applied in slices, only its next slice (the rest stays sliced)."""
        return self._advance(self.slice_items if self._slicing else None)

    def complete(self) -> int:
        """Insert every row now, a sliced filter's remaining slices too (for what needs all
        the shown rows at once: an export)."""
        return self._advance(None)

    def _flush_slice(self) -> None:
        self._advance(self.slice_items if self._slicing else None)

    def _advance(self, limit: int | None) -> int:
        """Insert rows for the store items not yet considered (at most `limit` of them when
        filtering in slices; the next slice is then scheduled at once)."""
        self._scheduled = False
        self._timer.stop()
        n = self.source_len()
        if n < self._seen:  # the store was cleared behind our back
            self.reset_rows()
            return 0
        if n == self._seen:
            self._end_slicing(n)
            return 0
        first_seen = self._seen
        if self._rows is None:
            first = self._seen
            self.beginInsertRows(QModelIndex(), first, n - 1)
            self._seen = n
            self.endInsertRows()
            added = n - first
        else:
            stop = n if limit is None else min(n, self._seen + limit)
            new = self.source_filter(self._seen, stop) or []
            self._seen = stop
            added = len(new)
            if new:
                first = len(self._rows)
                self.beginInsertRows(QModelIndex(), first, first + added - 1)
                self._rows.extend(new)
                self.endInsertRows()
        if self._slicing and self._seen < n:
            self.filtering.emit(self._seen, n)
            self._scheduled = True
            self._timer.setInterval(0)
            self._timer.start()
        else:
            self._end_slicing(n)
            self._timer.setInterval(
                self.flood_interval_ms if n - first_seen >= FLOOD_ROWS else FLUSH_INTERVAL_MS
            )
        if added:
            self.batch_inserted.emit(added)
        return added

    def _end_slicing(self, n: int) -> None:
        if self._slicing:
            self._slicing = False
            self.filtering.emit(n, n)

    def reset_rows(self) -> None:
        """Recompute every row (after a filter change or a clear)."""
        self._scheduled = False
        self._timer.stop()
        self.beginResetModel()
        n = self.source_len()
        self._slicing = False
        stop = n
        if n > self.progressive_from:
            stop = self.slice_items
            self._rows = self.source_filter(0, stop)
            if self._rows is None:  # nothing filtered: every item is a row
                stop = n
            else:
                self._slicing = True
        else:
            self._rows = self.source_filter(0, n)
        self._seen = stop
        self._on_reset()
        self.endResetModel()
        self.reset_done.emit()
        if self._slicing:
            self.filtering.emit(stop, n)
            self._scheduled = True
            self._timer.setInterval(0)
            self._timer.start()

    def _on_reset(self) -> None:
        """Hook: drop caches."""
