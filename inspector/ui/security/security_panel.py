"""The Security tab of one connection tab: the security review's findings about this tab's
server (hidden text, instructions to the model, shadowing across the window's tabs, rug
pulls), a summary by severity, and the selected finding in full (reason, pointer, offset,
spec). Activating a finding (double-click, Enter) selects its item in the explorer.

The rules run in `review.SecurityReview`, over every tab of the window at once (shadowing
needs them all); this panel says what its tab offers and shows what concerns it. Every
text is plain: the table's cells, the detail pane (a QPlainTextEdit), the labels."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from inspector.core.connection import ConnectionModel
from inspector.features.catalog.lists import KINDS
from inspector.ui.security.findings_model import SecurityFindingsModel, severity_counts, shown_item
from inspector.ui.security.first_seen import FirstSeen
from inspector.ui.security.sources import TabListing, listing_of
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.row_table import RowTable

if TYPE_CHECKING:  # the rules (Unicode tables, ~0.1 s) load when the first review runs
    from inspector.security import SecurityFinding
    from inspector.ui.controller.connection_controller import ConnectionController

__all__ = ["SecurityPanel", "summary_text"]

# a finding's kind -> the explorer's list
_LIST_OF: Final = {
    "tool": "tools",
    "prompt": "prompts",
    "resource": "resources",
    "template": "templates",
}


def summary_text(counts: dict[str, int]) -> str:
    """ "2 high, 1 low" (the severities found, most severe first); "" when none."""
    return ", ".join(f"{n} {label}" for label, n in counts.items() if n)


class SecurityPanel(QWidget):
    item_requested = Signal(str, str)  # explorer list ("tools"...), the item's key
    counts_changed = Signal(object)  # severity label -> count of this tab's findings

    def __init__(self, controller: ConnectionController, label: Callable[[], str]) -> None:
        """`label()`: the tab's name, which names this server in findings across tabs."""
        super().__init__()
        self.setObjectName("securityPanel")
        self.controller = controller
        self.connection: ConnectionModel = controller.model
        self.label = label
        self.first_seen = FirstSeen()
        # the window's review asks to hear of changes (`SecurityReview.add`): it re-runs
        self.on_change: Callable[[], None] | None = None
        self.name = ""  # this tab's server in the last scan
        self.counts: dict[str, int] = severity_counts([])
        self.model = SecurityFindingsModel()
        self.table = RowTable()
        self.table.setObjectName("securityFindings")
        self.table.setModel(self.model)
        for column, width in enumerate((56, 160, 44, 110, 80)):
            self.table.setColumnWidth(column, width)
        self.detail = QPlainTextEdit()
        self.detail.setObjectName("securityDetail")
        self.detail.setReadOnly(True)
        self.detail.setPlaceholderText(
            "Select a finding to read why it matters and where it is; double-click it to "
            "select its item in the explorer."
        )
        self.summary = PlainLabel("Not scanned yet: connect to a server.")
        self.summary.setObjectName("securitySummary")
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([600, 400])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        self.table.selectionModel().currentRowChanged.connect(self._picked)
        self.table.activated.connect(self._activated)
        for kind in KINDS:
            self.connection.catalog[kind].on_change(lambda _lst: self._changed())
        controller.pins_changed.connect(self._changed)
        controller.server_ready.connect(lambda _ready: self._changed())
        controller.session_started.connect(lambda _server: self.first_seen.clear())

    # ---------------------------------------------------------------- what the review reads
    def listing(self, name: str) -> TabListing | None:
        """What this tab's server offers, under `name` (with its pins, its first listing
        in this session and its roots); None while it offers nothing."""
        catalog = self.connection.catalog
        server = self.connection.server
        instructions = server.instructions if server is not None else None
        if not any(len(catalog[k]) for k in KINDS) and not instructions:
            return None
        return listing_of(name, self.connection, self.first_seen)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    # ---------------------------------------------------------------- showing
    def show_findings(self, name: str, findings: Sequence[SecurityFinding], servers: int) -> None:
        """This tab's findings (`name`: its server in them), from a scan of `servers` tabs."""
        self.name = name
        picked = self._current()
        self.model.set_findings(findings)
        self.counts = severity_counts(findings)
        where = f" (with {servers - 1} other tab(s) for shadowing)" if servers > 1 else ""
        said = summary_text(self.counts)
        self.summary.setText(
            f"{len(findings)} finding(s): {said}{where}."
            if findings
            else f"No findings in what {name} offers{where}."
        )
        if picked is not None:
            row = next((i for i, f in enumerate(findings) if f == picked), -1)
            if row >= 0:
                self.table.selectRow(row)
        self.counts_changed.emit(self.counts)

    def show_reviewing(self) -> None:
        """A review is under way (a big catalog takes seconds): said until its findings come."""
        if not self.name:  # never reviewed: nothing else to show meanwhile
            self.summary.setText("Reviewing what the server offers…")

    def show_nothing(self) -> None:
        self.name = ""
        self.model.set_findings([])
        self.detail.setPlainText("")
        self.counts = severity_counts([])
        self.summary.setText("Nothing to review: the server offers nothing yet.")
        self.counts_changed.emit(self.counts)

    def _current(self) -> SecurityFinding | None:
        index = self.table.currentIndex()
        return self.model.finding(index.row()) if index.isValid() else None

    def _picked(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.detail.setPlainText("")
            return
        self.detail.setPlainText(describe(self.model.finding(current.row())))

    def _activated(self, index: QModelIndex) -> None:
        if not index.isValid():
            return
        finding = self.model.finding(index.row())
        kind = _LIST_OF.get(finding.kind)
        if kind is not None and finding.item:
            self.item_requested.emit(kind, finding.item)


def describe(f: SecurityFinding) -> str:
    """A finding in full, as plain text (the item and the evidence made visible)."""
    offset = f"character {f.offset}" if f.offset >= 0 else "the whole item"
    lines = [
        f"{f.severity.label.upper()}  {f.rule}",
        f"{f.kind}: {shown_item(f)}  (server {f.server})",
        f"Field: {f.field or '—'}   Pointer: {f.pointer or '—'}   At: {offset}",
        f"Evidence: {f.evidence}",
        "",
        f"Why: {f.reason}",
    ]
    if f.spec:
        lines.append(f"Spec: {f.spec}")
    return "\n".join(lines)
