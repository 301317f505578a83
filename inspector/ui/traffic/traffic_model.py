"""TrafficLogModel: the Qt adapter over the Qt-free `TrafficLog` (napari containers style).

The model holds no protocol state and parses nothing up front: a row's summary is
computed from the entry's raw text when the row is painted, and cached.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFont, QFontDatabase

from inspector.lint.finding import Finding, LintStore
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.format import DIRECTION_ARROWS, summarize
from inspector.traffic.log import TrafficEntry, TrafficLog
from inspector.ui.widgets.batched_model import BatchedTableModel
from inspector.ui.widgets.flat_table_model import ParentIndex
from inspector.ui.widgets.theme import colors

__all__ = ["COLUMNS", "ENTRY_ROLE", "TrafficLogModel"]

ENTRY_ROLE: Final = Qt.ItemDataRole.UserRole + 1
COLUMNS: Final = ("Time", "⇄", "Kind", "ID", "Method", "Summary", "Size", "Latency")
COL_TIME, COL_DIR, COL_KIND, COL_ID, COL_METHOD, COL_SUMMARY, COL_SIZE, COL_LATENCY = range(8)
_SUMMARY_CACHE: Final = 4096
_LOOK_CACHE: Final = 2048
_RIGHT: Final = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_FLAGGED_KINDS: Final = frozenset({"request", "response", "error", "notification"})
_ROLES: Final = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        ENTRY_ROLE,
        Qt.ItemDataRole.ForegroundRole,
        Qt.ItemDataRole.BackgroundRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.FontRole,
    }
)


def format_time(wall: float) -> str:
    whole = int(wall)
    return time.strftime("%H:%M:%S", time.localtime(whole)) + f".{int((wall - whole) * 1000):03d}"


def went_wrong(entry: TrafficEntry) -> bool:
    """Red in the log: an invalid frame, an error, a frame the session flagged, an HTTP
    exchange that failed. A note alone is not a problem ("SSE stream", "GET stream open")."""
    if entry.kind in ("invalid", "error"):
        return True
    if entry.kind in _FLAGGED_KINDS:
        return bool(entry.note)
    if entry.kind == "http":
        http = entry.http
        return http is not None and http.is_problem
    return False


def kind_label(entry: TrafficEntry) -> str:
    if entry.kind == "invalid":
        return "⚠ invalid"
    if went_wrong(entry) and (entry.kind != "error" or entry.note):
        return f"⚠ {entry.kind}"
    return entry.kind


class TrafficLogModel(BatchedTableModel):
    def __init__(self, log: TrafficLog) -> None:
        super().__init__(COLUMNS)
        self.log = log
        self._filter = TrafficFilter()
        self._summaries: dict[int, str] = {}
        self._highlight: set[int] = set()
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self._bold = QFont()
        self._bold.setBold(True)
        self._looks: dict[int, tuple[tuple[str, ...], tuple[QBrush | None, ...], bool]] = {}
        self._brushes: dict[str, QBrush] = {}
        log.on_grow(self._on_grow)
        log.on_clear(self.reset_rows)
        self._marker: Callable[[int], str] | None = None  # e.g. MRTR "round 2/3"
        self.lint: LintStore | None = None

    def set_lint(self, store: LintStore) -> None:
        """Rows with lint findings get a badge in the Kind column (⚑ and their count)."""
        self.lint = store
        store.on_add(self._linted)
        store.on_clear(self.refresh_colors)

    def _linted(self, findings: list[Finding]) -> None:
        self.refresh_entries(sorted({f.index for f in findings}))

    def _on_grow(self) -> None:
        if not self._scheduled:
            self.schedule()

    # ---------------------------------------------------------------- source
    def source_len(self) -> int:
        return len(self.log.entries)

    def source_filter(self, start: int, stop: int) -> list[int] | None:
        if not self._filter.active:
            return None
        return self.log.filter_indices(self._filter, start, stop)

    @property
    def filter(self) -> TrafficFilter:
        return self._filter

    def set_filter(self, flt: TrafficFilter) -> None:
        if flt == self._filter:
            return
        self._filter = flt
        self.reset_rows()

    def _on_reset(self) -> None:
        self._summaries.clear()
        self._looks.clear()
        if not self.log.entries:
            self._highlight.clear()

    def entry_at(self, row: int) -> TrafficEntry | None:
        if 0 <= row < self.rowCount():
            return self.log.entries[self.source_index(row)]
        return None

    # ---------------------------------------------------------------- pairing
    def set_highlight(self, indices: set[int]) -> None:
        """Color these entries (the selection's pair) and repaint what changed."""
        changed = self._highlight ^ indices
        self._highlight = set(indices)
        last = self.columnCount() - 1
        for source in changed:
            row = self.row_of(source)
            if row is not None:
                self.dataChanged.emit(
                    self.index(row, 0), self.index(row, last), [Qt.ItemDataRole.BackgroundRole]
                )

    # ---------------------------------------------------------------- Qt API
    def summary(self, entry: TrafficEntry) -> str:
        text = self._summaries.get(entry.index)
        if text is None:
            if len(self._summaries) >= _SUMMARY_CACHE:
                self._summaries.clear()
            text = summarize(entry)
            mark = self._marker(entry.index) if self._marker is not None else ""
            if mark:
                text = f"⟳ {mark} · {text}"
            self._summaries[entry.index] = text
        return text

    def set_marker(self, marker: Callable[[int], str] | None) -> None:
        """A short mark shown before a row's summary (MRTR rounds), by traffic index."""
        self._marker = marker

    def refresh_entries(self, indices: list[int]) -> None:
        """These entries' marks changed: recompute and repaint their rows."""
        last = self.columnCount() - 1
        for source in indices:
            self._summaries.pop(source, None)
            self._looks.pop(source, None)
            row = self.row_of(source)
            if row is not None:
                self.dataChanged.emit(self.index(row, 0), self.index(row, last))

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Views ask for a dozen roles per cell, 30 times a second in a flood: answer the
        # roles we do not use at once, the per-column ones without touching the row, and
        # the rest from a small cache of computed rows.
        if role not in _ROLES or not index.isValid():
            return None
        col = index.column()
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if col in (COL_SIZE, COL_LATENCY) else None
        if role == Qt.ItemDataRole.FontRole:
            if col in (COL_ID, COL_SIZE, COL_LATENCY, COL_TIME):
                return self._mono
            return self._bold if col == COL_DIR else None
        row = index.row()
        if not 0 <= row < self.rowCount():
            return None
        source = self.source_index(row)
        if role == ENTRY_ROLE:
            return self.log.entries[source]
        look = self._looks.get(source)
        if look is None:
            look = self._look(source)
        if role == Qt.ItemDataRole.DisplayRole:
            return look[0][col]
        if role == Qt.ItemDataRole.ForegroundRole:
            return look[1][col]
        if role == Qt.ItemDataRole.BackgroundRole:
            if source in self._highlight:
                return self._brush("pair_bg")
            return self._brush("invalid_bg") if look[2] else None
        return None

    def _look(self, source: int) -> tuple[tuple[str, ...], tuple[QBrush | None, ...], bool]:
        """Texts, foregrounds and the flag of one row, computed once and cached."""
        if len(self._looks) >= _LOOK_CACHE:
            self._looks.clear()
        entry = self.log.entries[source]
        texts = tuple(self._display(entry, col) for col in range(len(COLUMNS)))
        brushes = tuple(self._foreground(entry, col) for col in range(len(COLUMNS)))
        flagged = entry.kind == "invalid" or bool(entry.note and entry.kind in _FLAGGED_KINDS)
        look = (texts, brushes, flagged)
        self._looks[source] = look
        return look

    def _brush(self, name: str) -> QBrush:
        brush = self._brushes.get(name)
        if brush is None:
            brush = self._brushes[name] = QBrush(getattr(colors(), name))
        return brush

    def refresh_colors(self) -> None:
        """The theme changed: recompute colors of every row on the next paint."""
        self._brushes.clear()
        self._looks.clear()
        if self.rowCount():
            self.dataChanged.emit(
                self.index(0, 0), self.index(self.rowCount() - 1, len(COLUMNS) - 1)
            )

    def _display(self, entry: TrafficEntry, col: int) -> str:
        if col == COL_TIME:
            return format_time(entry.wall)
        if col == COL_DIR:
            return DIRECTION_ARROWS.get(entry.direction, "")
        if col == COL_KIND:
            found = self.lint.at(entry.index) if self.lint is not None else ()
            return f"⚑{len(found)} {kind_label(entry)}" if found else kind_label(entry)
        if col == COL_ID:
            return "" if entry.msg_id is None else json.dumps(entry.msg_id, ensure_ascii=False)
        if col == COL_METHOD:
            return entry.method or ""
        if col == COL_SUMMARY:
            return self.summary(entry)
        if col == COL_SIZE:
            return f"{entry.size:,}"
        if col == COL_LATENCY:
            return "" if entry.latency is None else f"{entry.latency * 1000:.1f} ms"
        return ""

    def _foreground(self, entry: TrafficEntry, col: int) -> QBrush | None:
        if col == COL_DIR:
            return self._brush("out" if entry.direction in ("out", "to-app") else "incoming")
        if col == COL_KIND and went_wrong(entry):
            return self._brush("error")
        if col == COL_KIND and self.lint is not None and self.lint.has(entry.index):
            return self._brush("warn")
        if entry.kind in ("stderr", "note", "http"):
            return self._brush("muted")
        return None
