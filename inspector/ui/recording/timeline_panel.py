"""The timeline of a recorded session: when and how long, what went each way, an activity
strip over time, per-method counts with latency percentiles (a call of several rounds
counted once, with its whole duration; Requests: what went on the wire), and the calls of
several rounds (MRTR) as bars with the server's and the user's time. The numbers come from
the Qt-free `inspector.recording.timeline`; this panel only shows them."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QSizePolicy,
    QSplitter,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.recording.offline import RecordedAction
from inspector.recording.timeline import Timeline, format_duration
from inspector.ui.recording.operations_table import OperationsTable
from inspector.ui.widgets.method_table import method_table, row_texts
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["ActivityStrip", "TimelinePanel"]

_HEADERS: Final = ("Method", "Count", "Errors", "p50", "p90", "p99", "Max", "Requests")


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value * 1000:.1f} ms"


class ActivityStrip(QWidget):
    """Frames sent (up) and received (down) per slice of the session; errors in red;
    the user's actions as ticks."""

    def __init__(self, timeline: Timeline, actions: list[RecordedAction]) -> None:
        super().__init__()
        self.setObjectName("activityStrip")
        self.timeline = timeline
        self.action_times = [a.t for a in actions]
        self.setMinimumHeight(64)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setToolTip(
            "Activity over the session: frames sent (above the line), received (below), "
            "errors in red; ticks mark user actions."
        )

    def sizeHint(self) -> QSize:
        return QSize(400, 72)

    def paintEvent(self, _event: QPaintEvent) -> None:
        t = self.timeline
        c = colors()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        rect = self.rect().adjusted(1, 4, -1, -4)
        painter.fillRect(rect, self.palette().base())
        mid = rect.top() + rect.height() / 2
        painter.setPen(self.palette().mid().color())
        painter.drawLine(rect.left(), int(mid), rect.right(), int(mid))
        buckets = len(t.sent_per_bucket)
        if buckets == 0:
            return
        peak = max(1, *t.sent_per_bucket, *t.received_per_bucket)
        width = rect.width() / buckets
        half = rect.height() / 2 - 2
        for i in range(buckets):
            x = rect.left() + i * width
            for count, color, up in (
                (t.sent_per_bucket[i], c.out, True),
                (t.received_per_bucket[i], c.incoming, False),
            ):
                if not count:
                    continue
                h = max(1.0, half * count / peak)
                top = mid - h if up else mid
                painter.fillRect(QRectF(x + 0.5, top, max(1.0, width - 1), h), color)
            if t.errors_per_bucket[i]:
                painter.fillRect(
                    QRectF(x + 0.5, rect.bottom() - 3, max(1.0, width - 1), 3), c.error
                )
        span = max(t.duration, 1e-6)
        painter.setPen(QColor(c.warn))
        for when in self.action_times:
            x = rect.left() + min(1.0, max(0.0, when / span)) * rect.width()
            painter.drawLine(int(x), rect.top(), int(x), rect.top() + 8)


class TimelinePanel(QWidget):
    def __init__(self, timeline: Timeline, actions: list[RecordedAction]) -> None:
        super().__init__()
        self.setObjectName("timelinePanel")
        self.timeline = timeline
        t = timeline
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        self.started = PlainLabel(t.started or "unknown", selectable=True)
        self.duration = PlainLabel(format_duration(t.duration), selectable=True)
        self.frames = PlainLabel(
            f"{t.sent:,} sent, {t.received:,} received"
            + (f", {t.invalid:,} invalid" if t.invalid else ""),
            selectable=True,
        )
        several = f", {len(t.operations):,} call(s) of several rounds" if t.operations else ""
        self.requests = PlainLabel(
            f"{t.requests:,} in {len(t.methods)} method(s){several}", selectable=True
        )
        self.other = PlainLabel(
            f"{t.stderr_lines:,} stderr line(s), {t.http_exchanges:,} HTTP exchange(s), "
            f"{t.actions:,} user action(s)",
            selectable=True,
        )
        form.addRow("Started:", self.started)
        form.addRow("Duration:", self.duration)
        form.addRow("Frames:", self.frames)
        form.addRow("Requests:", self.requests)
        form.addRow("Also:", self.other)
        self.strip = ActivityStrip(timeline, actions)
        self.table = method_table("timelineMethods", _HEADERS, len(t.methods))
        for row, m in enumerate(t.methods):
            cells = [
                m.method,
                f"{m.count:,}",
                f"{m.errors:,}",
                _ms(m.p50),
                _ms(m.p90),
                _ms(m.p99),
                _ms(m.max),
                f"{m.requests:,}",
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(row, col, item)
        top = QHBoxLayout()
        top.addLayout(form, 0)
        top.addWidget(self.strip, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        self.operations: OperationsTable | None = None
        if t.operations:
            self.operations = OperationsTable(t.operations, t.duration)
            split = QSplitter(Qt.Orientation.Horizontal)
            split.addWidget(self.table)
            split.addWidget(self.operations)
            split.setStretchFactor(0, 1)
            split.setStretchFactor(1, 1)
            split.setSizes([500, 500])
            layout.addWidget(split, 1)
        else:
            layout.addWidget(self.table, 1)

    def row_for(self, method: str) -> list[str] | None:
        """The texts of a method's row (for tests)."""
        return row_texts(self.table, method)
