"""Per-method statistics (count, errors, p50/p95/max latency), from the traffic store.

The numbers are computed by the Qt-free `TrafficLog`; this panel only shows them,
refreshing twice a second while it is visible and the log has changed. Given the tab's
`RequestRounds.method_stats`, a multi-round operation (MRTR) counts once, with its whole
duration; the Requests column keeps what went on the wire.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.traffic.log import TrafficLog
from inspector.traffic.stats import MethodStats
from inspector.ui.widgets.method_table import method_table, row_texts
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["MethodStatsPanel"]

_HEADERS: Final = ("Method", "Count", "Errors", "p50", "p95", "Max", "Requests")


def _ms(value: float | None) -> str:
    return "" if value is None else f"{value * 1000:.1f} ms"


class _NumberItem(QTableWidgetItem):
    """Sorts by the number, not the text."""

    def __init__(self, text: str, value: float) -> None:
        super().__init__(text)
        self.value = value
        self.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def __lt__(self, other: QTableWidgetItem) -> bool:
        if isinstance(other, _NumberItem):
            return self.value < other.value
        return super().__lt__(other)


class MethodStatsPanel(QWidget):
    def __init__(
        self, log: TrafficLog, source: Callable[[], list[MethodStats]] | None = None
    ) -> None:
        """`source()`: the rows to show (the log's own statistics when None)."""
        super().__init__()
        self.log = log
        self._source = source
        self.table = method_table("methodStats", _HEADERS)
        self.table.setSortingEnabled(True)
        note = PlainLabel("Calls per method, latency from request to final answer.")
        note.setToolTip(
            "A call of several rounds (input_required, then retries) counts once, with its "
            "whole duration; Requests says what went on the wire."
        )
        note.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(note)
        layout.addWidget(self.table, 1)
        self._signature: tuple[int, int] = (-1, -1)
        self._timer = QTimer(self)
        self._timer.setInterval(500)
        self._timer.timeout.connect(self.refresh_if_changed)
        self._timer.start()

    def refresh_if_changed(self) -> None:
        if not self.isVisible():
            return
        stats = self.log.stats.values()
        signature = (
            sum(s.count for s in stats),
            sum(len(s.latencies) + s.errors for s in stats),
        )
        if signature != self._signature:
            self._signature = signature
            self.refresh()

    def refresh(self) -> None:
        if self._source is not None:
            rows = self._source()
        else:
            rows = sorted(self.log.stats.values(), key=lambda s: s.method)
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(rows))
        for r, stats in enumerate(rows):
            p50, p95, worst = stats.summary()
            self.table.setItem(r, 0, QTableWidgetItem(stats.method))
            self.table.setItem(r, 1, _NumberItem(f"{stats.count:,}", stats.count))
            self.table.setItem(r, 2, _NumberItem(f"{stats.errors:,}", stats.errors))
            for col, value in ((3, p50), (4, p95), (5, worst)):
                self.table.setItem(r, col, _NumberItem(_ms(value), value or 0.0))
            self.table.setItem(r, 6, _NumberItem(f"{stats.requests:,}", stats.requests))
        self.table.setSortingEnabled(True)

    def row_for(self, method: str) -> list[str] | None:
        """The texts of a method's row (for tests and copy)."""
        return row_texts(self.table, method)
