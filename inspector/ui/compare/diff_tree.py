"""The catalog diff as a tree: one branch per kind (server info, tools, resources,
templates, prompts), each item marked added / removed / changed / same / unlisted by a
text marker and a colour (never by colour alone). The tree adapts a Qt-free
`CatalogDiff`; it never parses JSON. Server text is set as item text (plain, never rich)."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QWidget

from inspector.compare import CatalogDiff, ItemDiff, Status
from inspector.features.catalog.lists import KINDS, CatalogKind
from inspector.ui.widgets.plain_text import plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["INFO_KEY", "MARKERS", "CatalogDiffTree"]

INFO_KEY: Final = "server"  # the data of the server info branch
MARKERS: Final[dict[Status, str]] = {
    "added": "+ added",
    "removed": "− removed",
    "changed": "~ changed",
    "same": "= same",
    "unlisted": "? not compared",
}
_TITLES: Final[dict[CatalogKind, str]] = {
    "tools": "Tools",
    "resources": "Resources",
    "templates": "Resource templates",
    "prompts": "Prompts",
}
_ORDER: Final[dict[Status, int]] = {
    "changed": 0,
    "added": 1,
    "removed": 2,
    "unlisted": 3,
    "same": 4,
}
_TIP: Final = Qt.ItemDataRole.ToolTipRole
KIND_ROLE: Final = Qt.ItemDataRole.UserRole
KEY_ROLE: Final = Qt.ItemDataRole.UserRole + 1


def status_brush(status: Status) -> QBrush | None:
    c = colors()
    tint: QColor | None = {
        "added": QColor(c.ok),
        "removed": QColor(c.error),
        "changed": QColor(c.warn),
        "unlisted": QColor(c.muted),
    }.get(status)
    if tint is None:
        return None
    tint.setAlpha(60)
    return QBrush(tint)


class CatalogDiffTree(QTreeWidget):
    """Emits `picked(kind, key)` for an item (kind "server" for the info branch)."""

    picked = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compareTree")
        self.setColumnCount(2)
        self.setHeaderLabels(["Item", "Difference"])
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(False)
        self.show_same = True
        self.diff: CatalogDiff | None = None
        self.currentItemChanged.connect(self._current_changed)

    def set_diff(self, diff: CatalogDiff | None) -> None:
        picked = self.picked_key()
        self.diff = diff
        self.setUpdatesEnabled(False)
        try:
            self.clear()
            if diff is not None:
                self._fill(diff)
        finally:
            self.setUpdatesEnabled(True)
        if picked is not None:
            self.select(*picked)

    def set_show_same(self, show: bool) -> None:
        self.show_same = show
        self.set_diff(self.diff)

    def _fill(self, diff: CatalogDiff) -> None:
        info = QTreeWidgetItem(["Server info, capabilities, instructions"])
        info.setData(0, KIND_ROLE, INFO_KEY)
        info.setData(0, KEY_ROLE, "")
        status: Status = "changed" if diff.info else "same"
        self._mark(info, status, f"{len(diff.info)} change(s)" if diff.info else MARKERS["same"])
        self.addTopLevelItem(info)
        counts = diff.counts()
        for kind in KINDS:
            tally = counts[kind]
            parts = [f"{tally[s]} {s}" for s in ("added", "removed", "changed") if tally[s]]
            if tally["unlisted"]:
                parts.append(f"{tally['unlisted']} not compared")
            total = sum(tally.values())
            branch = QTreeWidgetItem([f"{_TITLES[kind]} ({total})", ", ".join(parts) or "same"])
            branch.setData(0, KIND_ROLE, kind)
            branch.setData(0, KEY_ROLE, None)
            problems = [
                f"{side}: {why}"
                for side, snap in (("left", diff.left), ("right", diff.right))
                for why in (snap.errors.get(kind), snap.incomplete.get(kind))
                if why
            ]
            if problems:
                branch.setText(1, (branch.text(1) + "; incomplete listing").lstrip("; "))
                branch.setData(1, _TIP, plain_tooltip("\n".join(problems)))
            items = sorted(diff.of_kind(kind), key=lambda i: (_ORDER[i.status], i.key.lower()))
            children = [self._item(i) for i in items if self.show_same or i.status != "same"]
            branch.addChildren(children)
            self.addTopLevelItem(branch)
            branch.setExpanded(bool(children) and len(children) <= 2000)
        self.resizeColumnToContents(0)
        self.setColumnWidth(0, min(self.columnWidth(0), 320))

    def _item(self, item: ItemDiff) -> QTreeWidgetItem:
        row = QTreeWidgetItem([item.key])
        row.setData(0, KIND_ROLE, item.kind)
        row.setData(0, KEY_ROLE, item.key)
        text = MARKERS[item.status]
        if item.status == "changed":
            text += ": " + ", ".join(item.fields)
        if item.hint:
            text += " (hint: look-alike name)"
            row.setData(1, _TIP, plain_tooltip(item.hint))
        self._mark(row, item.status, text)
        row.setData(0, _TIP, plain_tooltip(item.key))
        return row

    @staticmethod
    def _mark(row: QTreeWidgetItem, status: Status, text: str) -> None:
        row.setText(1, text)
        brush = status_brush(status)
        if brush is not None:
            row.setBackground(0, brush)
            row.setBackground(1, brush)

    # -- selection ---------------------------------------------------------------------------
    def _current_changed(self, current: QTreeWidgetItem | None, _old: object) -> None:
        if current is None:
            return
        kind, key = current.data(0, KIND_ROLE), current.data(0, KEY_ROLE)
        if isinstance(kind, str) and isinstance(key, str):
            self.picked.emit(kind, key)

    def picked_key(self) -> tuple[str, str] | None:
        current = self.currentItem()
        if current is None:
            return None
        kind, key = current.data(0, KIND_ROLE), current.data(0, KEY_ROLE)
        return (kind, key) if isinstance(kind, str) and isinstance(key, str) else None

    def select(self, kind: str, key: str) -> bool:
        for i in range(self.topLevelItemCount()):
            top = self.topLevelItem(i)
            if top is None:
                continue
            if top.data(0, KIND_ROLE) == kind and top.data(0, KEY_ROLE) == key:
                self.setCurrentItem(top)
                return True
            for j in range(top.childCount()):
                child = top.child(j)
                if (
                    child is not None
                    and child.data(0, KEY_ROLE) == key
                    and top.data(0, KIND_ROLE) == kind
                ):
                    self.setCurrentItem(child)
                    return True
        return False

    def rows(self, kind: str) -> list[tuple[str, str]]:
        """(key, difference text) of a kind's items, as shown (for tests and the user)."""
        for i in range(self.topLevelItemCount()):
            top = self.topLevelItem(i)
            if top is not None and top.data(0, KIND_ROLE) == kind:
                return [
                    (c.text(0), c.text(1))
                    for j in range(top.childCount())
                    if (c := top.child(j)) is not None
                ]
        return []
