"""A Qt table model adapting `inspector.auth.AuthTimeline` (the steps of the OAuth flow).

The timeline is a plain Python list with listeners; this model turns its appends into
`beginInsertRows`. Events are few (tens per login), so rows go in as they come. Every
event is already redacted by the flow; its text is shown as plain text (no tool tips:
Qt would guess rich text from server-controlled words).
"""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush

from inspector.auth import AuthEvent, AuthTimeline
from inspector.ui.traffic.traffic_model import format_time
from inspector.ui.widgets.flat_table_model import FlatTableModel, ParentIndex
from inspector.ui.widgets.theme import colors

__all__ = ["AuthTimelineModel"]

EVENT_ROLE: Final = Qt.ItemDataRole.UserRole + 1
_LEVEL_TEXT: Final = {"info": "", "ok": "✔", "warning": "⚠", "error": "✖"}


class AuthTimelineModel(FlatTableModel):
    COLUMNS: Final = ("Time", "Step", "", "What happened", "URL")

    def __init__(self, timeline: AuthTimeline) -> None:
        super().__init__(self.COLUMNS)
        self.timeline = timeline
        self._count = len(timeline.events)
        self._last: AuthEvent | None = timeline.events[-1] if timeline.events else None
        timeline.add_listener(self._appended)

    def _appended(self, _event: AuthEvent) -> None:
        events = self.timeline.events
        if len(events) > self._count:
            self.beginInsertRows(QModelIndex(), self._count, len(events) - 1)
            self._count = len(events)
            self._last = events[-1]
            self.endInsertRows()
        elif not events or events[-1] is not self._last:
            self.reset()  # trimmed at its limit, or cleared behind our back

    def reset(self) -> None:
        self.beginResetModel()
        self._count = len(self.timeline.events)
        self._last = self.timeline.events[-1] if self.timeline.events else None
        self.endResetModel()

    def event(self, row: int) -> AuthEvent:  # type: ignore[override]
        return self.timeline.events[row]

    def rowCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._count

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= self._count:
            return None
        event = self.timeline.events[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return format_time(event.time)
            if column == 1:
                return event.step
            if column == 2:
                return _LEVEL_TEXT.get(event.level, event.level)
            if column == 3:
                return " ".join(event.message.split())
            return event.url or ""
        if role == Qt.ItemDataRole.ForegroundRole and column in (1, 2):
            palette = colors()
            color = {"ok": palette.ok, "warning": palette.warn, "error": palette.error}.get(
                event.level
            )
            return QBrush(color) if color is not None else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column == 2:
            return Qt.AlignmentFlag.AlignCenter
        if role == EVENT_ROLE:
            return event
        return None
