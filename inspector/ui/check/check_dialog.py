"""The "Check server" window: the `check` battery against the chosen server, the same
report as the CLI's (a table of checks: passed, failed with its evidence and the spec rule,
skipped with the reason), filled in as each check ends."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Final

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.check.battery import run_battery
from inspector.check.probe import CheckOptions
from inspector.check.report import CheckReport, CheckResult, Status
from inspector.protocol.wire.versions import EraSetting
from inspector.settings.profiles import Profile
from inspector.storage.secrets import SecretStore
from inspector.ui.widgets.flat_table_model import FlatTableModel, ParentIndex
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.row_table import RowTable
from inspector.ui.widgets.theme import colors

__all__ = ["CheckDialog", "CheckResultsModel"]

Starter = Callable[[Coroutine[Any, Any, Any], str], "asyncio.Task[Any]"]
_MARK: Final = {
    Status.PASSED: "✔ passed",
    Status.FAILED: "✘ failed",
    Status.SKIPPED: "– skipped",
    Status.WARNED: "! warned",
}


class CheckResultsModel(FlatTableModel):
    def __init__(self) -> None:
        super().__init__(("Result", "Check", "What", "Evidence", "Rule"))
        self.results: list[CheckResult] = []

    def clear(self) -> None:
        self.beginResetModel()
        self.results = []
        self.endResetModel()

    def add(self, result: CheckResult) -> None:
        row = len(self.results)
        self.beginInsertRows(QModelIndex(), row, row)
        self.results.append(result)
        self.endInsertRows()

    def rowCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.results)

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r = self.results[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            evidence = " ".join(r.evidence.split())
            return (_MARK[r.status], r.id, r.title, evidence, r.rule)[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == 0:
            c = colors()
            return QBrush(
                c.error
                if r.status is Status.FAILED
                else c.warn
                if r.status is Status.WARNED
                else c.muted
                if r.status is Status.SKIPPED
                else c.ok
            )
        return None


class CheckDialog(QDialog):
    def __init__(
        self,
        profile: Profile,
        start: Starter,
        secrets: SecretStore | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Check server: {profile.name}")
        self.resize(1000, 560)
        self.profile = profile
        self._start = start
        self.secrets = secrets
        self.task: asyncio.Task[Any] | None = None
        self.report: CheckReport | None = None
        self.model = CheckResultsModel()
        self.headline = PlainLabel(f"{profile.target}")
        self.era = QComboBox()
        for setting in EraSetting:
            self.era.addItem(f"{setting.value} era", setting.value)
        self.era.setCurrentIndex(self.era.findData(str(profile.era)))
        self.read_only = QCheckBox("Call read-only tools")
        self.read_only.setToolTip(
            "Call tools annotated readOnlyHint: true that need no arguments. Off by default: "
            "the check never calls a tool that might change something."
        )
        self.run_button = QPushButton("Run checks")
        self.run_button.clicked.connect(self.run)
        bar = QHBoxLayout()
        bar.addWidget(self.headline, 1)
        bar.addWidget(self.era)
        bar.addWidget(self.read_only)
        bar.addWidget(self.run_button)
        self.table = RowTable()
        self.table.setModel(self.model)
        for col, width in enumerate((90, 190, 330, 420)):
            self.table.setColumnWidth(col, width)
        self.table.selectionModel().currentRowChanged.connect(self._picked)
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setMaximumHeight(120)
        self.detail.setPlaceholderText("Select a check to read its evidence in full.")
        self.summary = PlainLabel("Not run yet.")
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.detail)
        layout.addWidget(self.summary)

    def run(self) -> asyncio.Task[Any] | None:
        if self.task is not None and not self.task.done():
            return self.task
        self.model.clear()
        self.report = None
        self.run_button.setEnabled(False)
        self.summary.setText("Running…")
        self.task = self._start(self._run(), "check server")
        return self.task

    async def _run(self) -> None:
        era = EraSetting(str(self.era.currentData()))
        profile = self.profile.model_copy(deep=True, update={"era": era})
        options = CheckOptions(call_read_only=self.read_only.isChecked())
        try:
            report = await run_battery(
                profile, options, secrets=self.secrets, progress=self.model.add
            )
        finally:
            self.run_button.setEnabled(True)
        self.report = report
        version = f", protocol {report.version}" if report.version else ""
        self.summary.setText(f"{report.summary()} ({report.era} era{version})")

    def _picked(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.detail.setPlainText("")
            return
        r = self.model.results[current.row()]
        lines = [f"{r.id}: {r.title}", f"result: {r.status.value} ({r.seconds:.2f} s)"]
        if r.evidence:
            lines.append(f"evidence: {r.evidence}")
        if r.rule:
            lines.append(f"rule: {r.rule}")
        self.detail.setPlainText("\n".join(lines))

    def done(self, result: int) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        super().done(result)
