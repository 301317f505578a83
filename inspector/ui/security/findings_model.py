"""The Security view's table: one row per finding (severity, rule, kind, item, field,
evidence), most severe first. Every cell is plain display text; the item's name and the
evidence show hidden characters as visible escapes (`\\u200b`), never the raw text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush

from inspector.common.visible_text import visible_text
from inspector.ui.widgets.flat_table_model import FlatTableModel, ParentIndex
from inspector.ui.widgets.plain_text import plain_tooltip
from inspector.ui.widgets.theme import colors

if TYPE_CHECKING:  # the rules load Unicode tables: imported when the first review runs
    from inspector.security import SecurityFinding

__all__ = ["COLUMNS", "SEVERITIES", "SecurityFindingsModel", "severity_counts", "shown_item"]

COLUMNS: Final = ("Severity", "Rule", "Kind", "Item", "Field", "Evidence")
SEVERITIES: Final = ("high", "medium", "low", "info")  # `Severity`'s labels, worst first
_ITEM_LIMIT: Final = 120


def shown_item(finding: SecurityFinding) -> str:
    """The item's name on one line, hidden characters made visible, cut when long."""
    name = visible_text(finding.item, keep="") or (
        "(server)" if finding.kind == "instructions" else ""
    )
    return name if len(name) <= _ITEM_LIMIT else name[: _ITEM_LIMIT - 1] + "…"


def severity_counts(findings: Sequence[SecurityFinding]) -> dict[str, int]:
    """severity label -> count, worst first (every severity, zero or not)."""
    counts = dict.fromkeys(SEVERITIES, 0)
    for f in findings:
        counts[f.severity.label] += 1
    return counts


class SecurityFindingsModel(FlatTableModel):
    def __init__(self) -> None:
        super().__init__(COLUMNS)
        self.findings: list[SecurityFinding] = []

    def set_findings(self, findings: Sequence[SecurityFinding]) -> None:
        self.beginResetModel()
        self.findings = list(findings)
        self.endResetModel()

    def rowCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.findings)

    def finding(self, row: int) -> SecurityFinding:
        return self.findings[row]

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        f = self.findings[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (f.severity.label, f.rule, f.kind, shown_item(f), f.field, f.evidence)[column]
        if role == Qt.ItemDataRole.ToolTipRole and column in (3, 5):
            # the server's text, made visible: escaped, never taken for rich text
            return plain_tooltip(shown_item(f) if column == 3 else f.evidence)
        if role == Qt.ItemDataRole.ForegroundRole and column == 0:
            if f.severity.label == "high":
                return QBrush(colors().error)
            if f.severity.label == "medium":
                return QBrush(colors().warn)
        return None
