"""The Lint tab: every lint finding of the server's messages, counted per rule, over the
Qt-free `LintStore`. Pick a rule to see only its findings; double-click a finding to show
its message in the log (the detail pane's Lint tab has the pointer, rule and value)."""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from inspector.lint.finding import Finding, LintStore, describe
from inspector.ui.widgets.batched_model import BatchedTableModel
from inspector.ui.widgets.flat_table_model import FlatTableModel, ParentIndex
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.row_table import RowTable
from inspector.ui.widgets.theme import colors

__all__ = ["LintFindingsModel", "LintPanel", "LintRulesModel"]

_ALL: Final = "(every rule)"


class LintRulesModel(FlatTableModel):
    """One row per rule: its count and where it comes from (first row: every rule)."""

    def __init__(self, store: LintStore) -> None:
        super().__init__(("Rule", "Count", "From"))
        self.store = store
        self.rows: list[tuple[str, int, str]] = []
        self.refresh()

    def refresh(self) -> None:
        self.beginResetModel()
        where = self.store.where
        counts = sorted(self.store.counts.items(), key=lambda kv: (-kv[1], kv[0]))
        total = sum(self.store.counts.values())
        self.rows = [(_ALL, total, "")] + [(r, n, where.get(r, "")) for r, n in counts]
        self.endResetModel()

    def rowCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole:
            if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == 1:
                return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            return None
        rule, count, where = self.rows[index.row()]
        return (rule, f"{count:,}", where)[index.column()]


class LintFindingsModel(BatchedTableModel):
    COLUMNS: Final = ("Row", "Rule", "At", "Message")

    def __init__(self, store: LintStore) -> None:
        super().__init__(self.COLUMNS)
        self.store = store
        self.rule: str | None = None
        store.on_add(lambda _batch: self.schedule())
        store.on_clear(self.reset_rows)

    def source_len(self) -> int:
        return len(self.store.findings)

    def source_filter(self, start: int, stop: int) -> list[int] | None:
        if self.rule is None:
            return None
        found = self.store.findings
        return [i for i in range(start, stop) if found[i].rule == self.rule]

    def set_rule(self, rule: str | None) -> None:
        self.rule = rule
        self.reset_rows()

    def finding(self, row: int) -> Finding:
        return self.store.findings[self.source_index(row)]

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        f = self.finding(index.row())
        if role == Qt.ItemDataRole.DisplayRole:
            return (f"#{f.index}", f.rule, f.pointer or "/", " ".join(f.message.split()))[
                index.column()
            ]
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == 1:
            return QBrush(colors().warn)
        return None


class LintPanel(QWidget):
    jump_to_entry = Signal(int)
    count_changed = Signal(int)

    def __init__(self, store: LintStore) -> None:
        super().__init__()
        self.store = store
        self.rules = LintRulesModel(store)
        self.findings = LintFindingsModel(store)
        self.rule_table = RowTable()
        self.rule_table.setModel(self.rules)
        self.rule_table.setColumnWidth(0, 190)
        self.rule_table.setColumnWidth(1, 60)
        self.finding_table = RowTable()
        self.finding_table.setModel(self.findings)
        self.finding_table.setColumnWidth(0, 60)
        self.finding_table.setColumnWidth(1, 170)
        self.finding_table.setColumnWidth(2, 170)
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setMaximumHeight(72)
        self.detail.setPlaceholderText("Select a finding to read it in full.")
        self.summary = PlainLabel("")
        hint = PlainLabel("Double-click a finding to show its message in the log.")
        hint.setEnabled(False)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.rule_table)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.finding_table, 1)
        right_layout.addWidget(self.detail)
        split.addWidget(right)
        split.setSizes([360, 640])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        layout.addWidget(hint)
        # Messages are linted in batches behind the log: recount at most a few times a
        # second, after every batch (a clean server's only change is the linted count).
        self._recount = QTimer(self)
        self._recount.setSingleShot(True)
        self._recount.setInterval(250)
        self._recount.timeout.connect(self.refresh)
        store.on_change(self._changed)
        store.on_clear(self.refresh)
        self.rule_table.selectionModel().currentRowChanged.connect(self._rule_picked)
        self.finding_table.selectionModel().currentRowChanged.connect(self._finding_picked)
        self.finding_table.doubleClicked.connect(self._activated)
        self.refresh()

    def _changed(self) -> None:
        if not self._recount.isActive():  # a flood of batches must not put it off forever
            self._recount.start()

    def refresh(self) -> None:
        picked = self.findings.rule
        self.rules.refresh()
        n = sum(self.store.counts.values())
        kept = (
            f" (the first {self.store.keep_per_rule:,} of each rule are listed)"
            if self.store.dropped
            else ""
        )
        self.summary.setText(
            f"{n:,} finding(s) in {len(self.store.rows()):,}+ message(s), "
            f"{self.store.checked:,} server message(s) linted{kept}"
            if self.store.dropped
            else f"{n:,} finding(s) in {len(self.store.rows()):,} message(s), "
            f"{self.store.checked:,} server message(s) linted"
            if n
            else f"No findings: {self.store.checked:,} server message(s) linted."
        )
        notes = [self.summary.text().rstrip(".") + "."]
        if self.store.deferred:  # huge rows: linted when a person selects them
            count = len(self.store.deferred)
            notes.append(f"{count:,} message(s) over 1 MiB: linted when selected.")
        busy = self.store.progress_text()
        if busy:  # a big listing is linted in slices: its findings are still coming
            notes.append(f"Still {busy}")
        if len(notes) > 1:
            self.summary.setText(" ".join(notes))
        row = next((i for i, r in enumerate(self.rules.rows) if r[0] == picked), 0)
        self.rule_table.selectRow(row)
        self.count_changed.emit(n)

    def _rule_picked(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        rule = self.rules.rows[current.row()][0]
        self.findings.set_rule(None if rule == _ALL else rule)

    def _finding_picked(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.detail.setPlainText(describe([self.findings.finding(current.row())]))
        else:
            self.detail.setPlainText("")

    def _activated(self, index: QModelIndex) -> None:
        finding = self.findings.finding(index.row())
        if finding.index >= 0:
            self.jump_to_entry.emit(finding.index)
