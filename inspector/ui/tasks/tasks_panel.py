"""The Tasks panel: the server's background tasks, both eras.

A Qt model adapts the Qt-free `TaskStore`; the buttons run `TaskClient` coroutines as kept
tasks of the controller (failures are shown here and in the Errors tab). Legacy: Refresh is
tasks/list, Result is the (blocking) tasks/result, Cancel is tasks/cancel. Modern (the
io.modelcontextprotocol/tasks extension): Refresh re-polls the known tasks with tasks/get,
the result comes inline, input requests are answered in the usual dialogs (tasks/update).
"""

from __future__ import annotations

import json
from collections.abc import Coroutine
from datetime import datetime
from typing import Any, Final

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.core.server_connection import SessionError
from inspector.features.tasks import TaskClient, TaskInfo, TaskStore
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.widgets.flat_table_model import FlatTableModel, ParentIndex
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.split_panes import split_panes
from inspector.ui.widgets.theme import colors

__all__ = ["TaskTableModel", "TasksPanel"]

COLUMNS: Final = ("Status", "Message", "Started by", "Task", "Updated", "TTL", "Client")
COL_STATUS, COL_MESSAGE, COL_ORIGIN, COL_TASK, COL_UPDATED, COL_TTL, COL_NOTE = range(7)


def _clock(stamp: str | None) -> str:
    """An ISO 8601 time as local HH:MM:SS (the text as sent when it does not parse)."""
    if not stamp:
        return ""
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    return when.astimezone().strftime("%H:%M:%S") if when.tzinfo else when.strftime("%H:%M:%S")


def _ms(value: int | None) -> str:
    if value is None:
        return "unlimited"
    return f"{value / 1000:g} s" if value < 120_000 else f"{value / 60_000:g} min"


class TaskTableModel(FlatTableModel):
    """Adapter over `TaskStore` (rows in the order tasks were first seen)."""

    def __init__(self, store: TaskStore) -> None:
        super().__init__(COLUMNS)
        self.store = store
        self._ids: list[str] = store.ids()
        store.on_change(self._changed)

    def _changed(self, task_id: str | None) -> None:
        if task_id is None or task_id not in self._ids:
            if task_id is not None and task_id in self.store.ids():
                row = len(self._ids)
                self.beginInsertRows(QModelIndex(), row, row)
                self._ids.append(task_id)
                self.endInsertRows()
                return
            self.beginResetModel()
            self._ids = self.store.ids()
            self.endResetModel()
            return
        row = self._ids.index(task_id)
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def task_at(self, row: int) -> TaskInfo | None:
        return self.store.get(self._ids[row]) if 0 <= row < len(self._ids) else None

    def row_of(self, task_id: str) -> int | None:
        return self._ids.index(task_id) if task_id in self._ids else None

    def rowCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._ids)

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        task = self.task_at(index.row()) if index.isValid() else None
        if task is None:
            return None
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(task, col)
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_STATUS:
            c = colors()
            if task.status == "completed":
                return QBrush(c.ok)
            if task.status in ("failed", "cancelled"):
                return QBrush(c.error)
            if task.status == "input_required":
                return QBrush(c.warn)
        if role == Qt.ItemDataRole.ToolTipRole and col in (COL_MESSAGE, COL_TASK, COL_NOTE):
            return plain_tooltip(self._text(task, col))  # server text: never guessed as HTML
        return None

    @staticmethod
    def _text(task: TaskInfo, col: int) -> str:
        if col == COL_STATUS:
            return task.status + (" ⚠" if task.problems else "")
        if col == COL_MESSAGE:
            return " ".join((task.status_message or "").split())
        if col == COL_ORIGIN:
            return task.origin
        if col == COL_TASK:
            return task.task_id
        if col == COL_UPDATED:
            return _clock(task.last_updated_at or task.created_at)
        if col == COL_TTL:
            return _ms(task.ttl_ms)
        if col == COL_NOTE:
            return task.note or ""
        return ""


class TasksPanel(QWidget):
    def __init__(self, controller: ConnectionController, client: TaskClient) -> None:
        super().__init__()
        self.controller = controller
        self.client = client
        self.store = client.store
        self.model = TaskTableModel(self.store)
        self.mode_label = PlainLabel()
        self.refresh_button = QPushButton("Refresh")
        self.get_button = QPushButton("Get status")
        self.result_button = QPushButton("Result")
        self.cancel_button = QPushButton("Cancel task")
        self.refresh_button.clicked.connect(self.refresh)
        self.get_button.clicked.connect(self.get_selected)
        self.result_button.clicked.connect(self.result_selected)
        self.cancel_button.clicked.connect(self.cancel_selected)
        self.status = PlainLabel()
        top = QHBoxLayout()
        top.addWidget(self.mode_label, 1)
        for button in (
            self.refresh_button,
            self.get_button,
            self.result_button,
            self.cancel_button,
        ):
            top.addWidget(button)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(COL_MESSAGE, QHeaderView.ResizeMode.Stretch)
        metrics = self.table.fontMetrics()
        for col, sample in (
            (COL_STATUS, "input_required ⚠"),
            (COL_ORIGIN, "tools/call some-tool"),
            (COL_TASK, "0123456789ab…"),
            (COL_UPDATED, "00:00:00"),
            (COL_TTL, "unlimited"),
            (COL_NOTE, "waiting for tasks/result"),
        ):
            self.table.setColumnWidth(col, metrics.horizontalAdvance(sample) + 16)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setWordWrap(False)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._show_selected())
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.detail.setPlaceholderText("Select a task to see it in full (and its result).")
        split = split_panes(
            Qt.Orientation.Horizontal, [self.table, self.detail], stretch=(3, 2), sizes=(640, 360)
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)
        self.store.on_change(self._store_changed)
        self.update_mode()

    # ---------------------------------------------------------------- state
    def update_mode(self) -> None:
        mode = self.store.mode
        if mode == "legacy":
            text = "Legacy tasks (capabilities.tasks): tasks/list, tasks/get, tasks/result"
        elif mode == "modern":
            text = "Tasks extension (io.modelcontextprotocol/tasks): tasks/get, tasks/update"
        else:
            text = "This server does not offer tasks."
        self.mode_label.setText(text)
        connected = self.controller.model.connected and mode is not None
        self.refresh_button.setEnabled(connected)
        self.refresh_button.setToolTip(
            "tasks/list" if mode == "legacy" else "tasks/get for every known task"
        )
        self.result_button.setVisible(mode != "modern")  # modern results come inline
        self._update_buttons()

    def selected(self) -> TaskInfo | None:
        index = self.table.currentIndex()
        return self.model.task_at(index.row()) if index.isValid() else None

    def select(self, task_id: str) -> None:
        row = self.model.row_of(task_id)
        if row is not None:
            self.table.selectRow(row)

    def _update_buttons(self) -> None:
        task = self.selected()
        live = self.controller.model.connected and self.store.mode is not None and task is not None
        self.get_button.setEnabled(live)
        self.result_button.setEnabled(live and task is not None and task.status == "completed")
        self.cancel_button.setEnabled(live and task is not None and not task.terminal)

    def _store_changed(self, task_id: str | None) -> None:
        if task_id is None:
            self.update_mode()
        task = self.selected()
        if task is not None and (task_id is None or task_id == task.task_id):
            self._show_selected()
        self._update_buttons()

    def _show_selected(self) -> None:
        task = self.selected()
        self._update_buttons()
        if task is None:
            self.detail.setPlainText("")
            return
        head = f"{task.task_id} · {task.status}"
        if task.origin:
            head += f" · started by {task.origin}"
        if task.status_message:
            head += f"\n{task.status_message}"
        parts = [head, json.dumps(task.raw, indent=2, ensure_ascii=False)]
        if task.problems:
            parts.insert(1, "⚠ " + "\n⚠ ".join(task.problems))
        if task.note:
            parts.insert(1, f"client: {task.note}")
        if task.result is not None:
            parts.append("── result ──\n" + json.dumps(task.result, indent=2, ensure_ascii=False))
        if task.error is not None:
            parts.append("── error ──\n" + json.dumps(task.error, indent=2, ensure_ascii=False))
        self.detail.setPlainText("\n\n".join(parts))

    # ---------------------------------------------------------------- intents
    def _run(self, coro: Coroutine[Any, Any, Any], what: str) -> None:
        async def guarded() -> None:
            self.status.setText(f"{what}…")
            try:
                await coro
            except (SessionError, ValueError) as exc:
                self.status.setText(f"{what} failed: {exc}")
                self.controller.model.errors.add("request failed", f"{what}: {exc}")
                return
            self.status.setText(f"{what}: done")

        self.controller.model.start(guarded(), what)

    def refresh(self) -> None:
        self._run(self.client.refresh(), "tasks/list" if self.store.mode == "legacy" else "poll")

    def get_selected(self) -> None:
        task = self.selected()
        if task is not None:
            self._run(self.client.get(task.task_id), f"tasks/get {task.task_id}")

    def result_selected(self) -> None:
        task = self.selected()
        if task is not None:
            self._run(self.client.result(task.task_id), f"tasks/result {task.task_id}")

    def cancel_selected(self) -> None:
        task = self.selected()
        if task is not None:
            self._run(self.client.cancel(task.task_id), f"tasks/cancel {task.task_id}")
