"""The Evals view: run an evals file (docs/evals.md) against the chosen tabs with the chosen
model, and read what the `eval` command prints: each case's pass rate, and why each failing
run failed.

Host ▸ Evals… opens it. "Open evals file…" reads and checks the file (every problem is
said at once, nothing runs); the settings are the Playground's (tabs, provider and model,
approval policy, which defaults to approving every call as `eval` does, step limit, system
prompt, instructions) plus how many runs go at once. Run lists the tabs' tools and runs every
case its number of times (host's `EvalRunner`); each row fills in as its runs finish; Stop
ends the runs in flight and starts no more (they count as not run). Selecting a case shows
its runs' reasons; the report under the table is the command's text report.

A provider that is down, slow, 429 or 500 makes runs fail with its sentence; the view, the
tabs and the app go on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.evals.cases import EvalCase, EvalFile, EvalsFileError, load_evals
from inspector.evals.report import CaseRuns, EvalReport, report_text
from inspector.evals.runner import EvalRun, EvalRunner, EvalSettings
from inspector.features.providers.providers import ModelSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.playground.host_choices import (
    HostChoices,
    ModelFactory,
    provider_chat_model,
    say_on,
)
from inspector.ui.playground.settings_panel import SettingsPanel
from inspector.ui.playground.tab_tools import PlaygroundTab
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["EvalsWindow"]

log = logging.getLogger(__name__)

COLUMNS: Final = ("Case", "Result", "Runs passed", "Needed", "Seconds")


class EvalsWindow(QWidget):
    def __init__(
        self,
        tabs: Callable[[], list[PlaygroundTab]],
        secrets: SecretStore | None,
        *,
        models: Callable[[], ModelSettings] = ModelSettings.load,
        model_factory: ModelFactory = provider_chat_model,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("evalsWindow")
        self.setWindowTitle("Evals")
        self.evals: EvalFile | None = None
        self.path: Path | None = None
        self.runner: EvalRunner | None = None
        self.task: asyncio.Task[None] | None = None
        self.report: EvalReport | None = None
        self.runs: dict[str, list[EvalRun]] = {}  # by case name, as they finish

        self.settings = SettingsPanel()
        self.choices = HostChoices(
            self.settings, tabs, secrets, models=models, model_factory=model_factory, parent=self
        )
        self.settings.policy.setCurrentIndex(self.settings.policy.findData("all"))
        self.settings.policy.currentIndexChanged.connect(self._policy_note)
        self._policy_note()
        self.concurrency = QSpinBox()
        self.concurrency.setObjectName("evalsConcurrency")
        self.concurrency.setRange(1, 16)
        self.concurrency.setValue(4)
        self.concurrency.setToolTip("How many runs go at once")
        more = QFormLayout()
        more.addRow("Runs at once", self.concurrency)
        settings_box = QWidget()
        settings_column = QVBoxLayout(settings_box)
        settings_column.setContentsMargins(0, 0, 0, 0)
        settings_column.addWidget(self.settings, 1)
        settings_column.addLayout(more)

        self.file_label = PlainLabel("No evals file open.", wrap=True, selectable=True)
        self.file_label.setObjectName("evalsFile")
        self.open_button = QPushButton("Open evals file…")
        self.open_button.setObjectName("evalsOpen")
        self.run_button = QPushButton("Run")
        self.run_button.setObjectName("evalsRun")
        self.run_button.setToolTip("Run every case its number of times")
        self.run_button.setEnabled(False)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setObjectName("evalsStop")
        self.stop_button.setEnabled(False)
        self.status = PlainLabel(wrap=True, selectable=True)
        self.status.setObjectName("evalsStatus")
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("evalsCases")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setColumnWidth(0, 260)
        self.reasons = QPlainTextEdit()
        self.reasons.setObjectName("evalsReasons")
        self.reasons.setReadOnly(True)
        self.reasons.setPlaceholderText("Select a case to read why its runs failed.")
        self.report_view = QPlainTextEdit()
        self.report_view.setObjectName("evalsReport")
        self.report_view.setReadOnly(True)
        self.report_view.setPlaceholderText("The report, as `eval` prints it, after a run.")

        top = QHBoxLayout()
        top.addWidget(self.file_label, 1)
        top.addWidget(self.open_button)
        top.addWidget(self.stop_button)
        top.addWidget(self.run_button)
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(top)
        column.addWidget(self.status)
        lower = QSplitter(Qt.Orientation.Vertical)
        lower.addWidget(self.table)
        lower.addWidget(self.reasons)
        lower.addWidget(self.report_view)
        lower.setSizes([300, 120, 180])
        column.addWidget(lower, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(settings_box)
        split.addWidget(right)
        split.setSizes([300, 850])
        layout = QVBoxLayout(self)
        layout.addWidget(split)
        self.resize(1150, 720)

        self.open_button.clicked.connect(self.choose_and_open)
        self.run_button.clicked.connect(self.run)
        self.stop_button.clicked.connect(self.stop)
        self.table.itemSelectionChanged.connect(self._show_reasons)
        self.choices.reload_providers()
        self.choices.refresh_tabs()

    # ---------------------------------------------------------------- settings, status
    def _policy_note(self) -> None:
        """No one is asked during evals: what would ask is refused (and the model told)."""
        if self.settings.policy_key() != "none":
            self.settings.policy_note.setText(
                "No one is asked during evals: a call that would ask (the policy, a tool "
                "annotated destructive, arguments that break the schema) is refused, and the "
                "model is told so."
            )

    def say(self, text: str, *, error: bool = False) -> None:
        say_on(self.status, text, error=error)

    # ---------------------------------------------------------------- the file
    def choose_and_open(self) -> None:
        start = str(self.path.parent if self.path else Path.home())
        path, _filter = QFileDialog.getOpenFileName(
            self, "Open an evals file", start, "Evals files (*.json);;All files (*)"
        )
        if path:
            self.open_file(Path(path))

    def open_file(self, path: Path) -> EvalFile | None:
        """Read and check the file; its cases fill the table (a broken file is said)."""
        if self.running:
            return None
        try:
            evals = load_evals(path)
        except EvalsFileError as exc:
            self.say(f"The evals file cannot be used: {exc}", error=True)
            return None
        self.evals, self.path = evals, path
        self.report = None
        self.runs = {}
        self.file_label.setText(f"{path} · {len(evals.cases)} case(s)")
        self.table.setRowCount(0)
        for case in evals.cases:
            self._add_row(case)
        self.reasons.clear()
        self.report_view.clear()
        self.run_button.setEnabled(True)
        self.say("Choose the tabs and the model, then Run.")
        return evals

    def _add_row(self, case: EvalCase) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        texts = (case.name, "not run", f"0/{case.runs}", "", "")
        for column, text in enumerate(texts):
            self.table.setItem(row, column, QTableWidgetItem(text))

    # ---------------------------------------------------------------- running
    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def run(self) -> asyncio.Task[None] | None:
        if self.running or self.evals is None:
            return None
        missing = self.choices.missing()
        if missing is not None:
            self.say(missing, error=True)
            return None
        self.run_button.setEnabled(False)  # (at once: the task starts on the next turn)
        self.open_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.task = asyncio.get_event_loop().create_task(self._run(self.evals))
        return self.task

    def stop(self) -> None:
        if self.runner is not None and self.running:
            self.say("Stopping: the runs in flight stop, no more start…")
            self.runner.stop()

    async def _run(self, evals: EvalFile) -> None:
        self.runs = {}
        for row, case in enumerate(evals.cases):
            self._show_case(row, CaseRuns(case, ()), running=True)
        try:
            found = await self.choices.ticked_tools()
            provider = self.settings.current_provider()
            assert provider is not None  # (checked by run)
            settings = EvalSettings(
                model=self.choices.model_name(),
                provider=provider.label,
                system=self.settings.system_prompt.toPlainText(),
                include_instructions=self.settings.instructions.isChecked(),
                policy=self.settings.policy_key(),
                max_steps=self.settings.max_steps.value(),
                concurrency=self.concurrency.value(),
            )
            runner = EvalRunner(self.choices.chat_model(provider), found.table, settings)
            self.runner = runner
            total = sum(case.runs for case in evals.cases)
            self.say(f"Running {total} run(s) of {len(evals.cases)} case(s)…")
            report = await runner.run(evals.cases, on_run=self._run_done)
            self.report = report
            for row, runs in enumerate(report.cases):
                self._show_case(row, runs)
            self.report_view.setPlainText(report_text(report))
            passed = len(report.cases) - report.failed_cases
            verdict = "every case passed" if report.passed else f"{report.failed_cases} failed"
            stopped = " (stopped: the runs not made count as failed)" if runner.stopped else ""
            self.say(f"{passed} of {len(report.cases)} case(s) passed: {verdict}{stopped}.")
            self._show_reasons()
        except Exception as exc:  # a bug of ours must not take the window down
            log.exception("an evals run failed")
            self.say(f"The evals run failed: {exc}", error=True)
        finally:
            self.runner = None
            self.run_button.setEnabled(True)
            self.open_button.setEnabled(True)
            self.stop_button.setEnabled(False)

    def _run_done(self, run: EvalRun) -> None:
        """A run finished: its case's row shows the runs so far."""
        evals = self.evals
        if evals is None:
            return
        self.runs.setdefault(run.case.name, []).append(run)
        row = next((i for i, c in enumerate(evals.cases) if c.name == run.case.name), -1)
        if row >= 0:
            done = sorted(self.runs[run.case.name], key=lambda r: r.number)
            runs = CaseRuns(run.case, tuple(r.verdict for r in done))
            self._show_case(row, runs, running=len(done) < run.case.runs)
        self._show_reasons()

    def _show_case(self, row: int, runs: CaseRuns, *, running: bool = False) -> None:
        result = "running…" if running else ("PASS" if runs.passed else "FAIL")
        texts = (
            runs.case.name,
            result,
            f"{runs.passed_runs}/{runs.total_runs}",
            f"{runs.required_runs} (pass rate {runs.case.pass_rate:g})",
            f"{runs.seconds:.1f}" if runs.seconds else "",
        )
        for column, text in enumerate(texts):
            item = self.table.item(row, column)
            if item is None:
                item = QTableWidgetItem()
                self.table.setItem(row, column, item)
            item.setText(text)
        mark = self.table.item(row, 1)
        if mark is not None and not running:
            mark.setForeground(colors().ok if runs.passed else colors().error)

    def _show_reasons(self) -> None:
        """The selected case: each run's verdict and, for a failing one, why."""
        evals = self.evals
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if evals is None or not rows:
            return
        case = evals.cases[rows[0].row()]
        done = sorted(self.runs.get(case.name, []), key=lambda r: r.number)
        if not done:
            self.reasons.setPlainText(f"{case.name}: not run yet.")
            return
        lines = [f"{case.name}:"]
        for run in done:
            if run.verdict.passed:
                lines.append(f"run {run.number}: passed")
            else:
                lines += [f"run {run.number}: {reason}" for reason in run.verdict.reasons]
        self.reasons.setPlainText("\n".join(lines))

    def closeEvent(self, event: object) -> None:
        self.stop()
        super().closeEvent(event)  # type: ignore[arg-type]
