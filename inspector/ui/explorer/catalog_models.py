"""Qt models over the Qt-free catalog (napari's _qt/containers pattern): one list model per
kind adapting a `CatalogList`, and a proxy that searches with the store's own matcher.

The model parses nothing: row text, badges and icons come from `inspector.features.catalog.format`.
`ITEM_ROLE` returns the `CatalogItem`; `BADGES_ROLE` the row's badges; `SECONDARY_ROLE`
the second line. Tooltips carry server text escaped, never as markup.
"""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QIcon, QPixmap

from inspector.features.catalog.format import Badge, data_icon, item_badges, secondary_text
from inspector.features.catalog.model import CatalogItem, CatalogList, matches
from inspector.ui.widgets.plain_text import plain_tooltip
from inspector.ui.widgets.theme import colors, is_dark

__all__ = [
    "BADGES_ROLE",
    "ITEM_ROLE",
    "MARKS_ROLE",
    "SECONDARY_ROLE",
    "CatalogFilterProxy",
    "CatalogListModel",
]

ITEM_ROLE: Final = Qt.ItemDataRole.UserRole + 1
BADGES_ROLE: Final = Qt.ItemDataRole.UserRole + 2
SECONDARY_ROLE: Final = Qt.ItemDataRole.UserRole + 3
MARKS_ROLE: Final = Qt.ItemDataRole.UserRole + 4  # "new"/"changed"/"pin" flags of the row
_TOOLTIP_LIMIT: Final = 2000

ParentIndex = QModelIndex | QPersistentModelIndex


class CatalogListModel(QAbstractListModel):
    """The rows of one `CatalogList`, in server order."""

    def __init__(self, lst: CatalogList, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.list = lst
        self._rows: list[CatalogItem] = list(lst.items)
        self._icons: dict[tuple[str, str], QIcon | None] = {}
        self._badges: dict[int, list[Badge]] = {}
        self.mirror_headers = False
        self.pin_alerts: frozenset[str] = frozenset()
        lst.on_change(self._on_change)

    # -- store -> model --------------------------------------------------------------
    def _on_change(self, lst: CatalogList) -> None:
        new = lst.items
        old = self._rows
        if len(new) > len(old) and all(a is b for a, b in zip(old, new, strict=False)):
            # load more: only rows appended
            self.beginInsertRows(QModelIndex(), len(old), len(new) - 1)
            self._rows = list(new)
            self.endInsertRows()
        elif len(new) == len(old) and all(a is b for a, b in zip(old, new, strict=True)):
            # same rows: flags (excluded, stale, diff) may have changed
            self._badges.clear()
            if new:
                self.dataChanged.emit(self.index(0), self.index(len(new) - 1))
        else:
            self.beginResetModel()
            self._rows = list(new)
            self._badges.clear()
            self.endResetModel()

    def set_mirror_headers(self, on: bool) -> None:
        if on != self.mirror_headers:
            self.mirror_headers = on
            self._refresh_all()

    def set_pin_alerts(self, names: frozenset[str]) -> None:
        if names != self.pin_alerts:
            self.pin_alerts = names
            self._refresh_all()

    def _refresh_all(self) -> None:
        self._badges.clear()
        if self._rows:
            self.dataChanged.emit(self.index(0), self.index(len(self._rows) - 1))

    def refresh_colors(self) -> None:
        self._icons.clear()
        self._refresh_all()

    # -- Qt -----------------------------------------------------------------------------
    def rowCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def item_at(self, row: int) -> CatalogItem | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, key: str) -> int:
        return next((r for r, i in enumerate(self._rows) if i.key == key), -1)

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        item = self.item_at(index.row()) if index.isValid() else None
        if item is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return item.title
        if role == ITEM_ROLE:
            return item
        if role == SECONDARY_ROLE:
            return secondary_text(item)
        if role == BADGES_ROLE:
            return self._row_badges(index.row(), item)
        if role == MARKS_ROLE:
            return self._marks(item)
        if role == Qt.ItemDataRole.DecorationRole:
            return self._icon(item)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(item)
        if role == Qt.ItemDataRole.ForegroundRole and item.excluded:
            return colors().muted
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{item.title} {secondary_text(item)}".strip()
        return None

    def _marks(self, item: CatalogItem) -> list[Badge]:
        marks: list[Badge] = []
        if item.kind == "tools" and item.key in self.pin_alerts:
            why = "Its definition differs from the pinned one (a rug-pull alert): review the diff"
            marks.append(Badge("⚠ changed since pinned", why, "error"))
        diff = self.list.last_diff
        if item.key in diff.added:
            marks.append(Badge("new", "Added by the last re-list", "ok"))
        elif item.key in diff.changed:
            marks.append(Badge("changed", "Changed by the last re-list", "warn"))
        return marks

    def _row_badges(self, row: int, item: CatalogItem) -> list[Badge]:
        cached = self._badges.get(row)
        if cached is None:
            cached = self._marks(item) + item_badges(item, mirror_headers=self.mirror_headers)
            self._badges[row] = cached
        return cached

    def _icon(self, item: CatalogItem) -> QIcon | None:
        key = (item.key, item.hash)
        if key not in self._icons:
            found = data_icon(getattr(item.model, "icons", None), dark=is_dark())
            icon: QIcon | None = None
            if found is not None:
                pixmap = QPixmap()
                if pixmap.loadFromData(found[1]) and not pixmap.isNull():
                    icon = QIcon(pixmap)
            self._icons[key] = icon
        return self._icons[key]

    def _tooltip(self, item: CatalogItem) -> str:
        parts = [item.title]
        if item.title != item.key:
            parts.append(item.key)
        if item.description:
            parts.append("")
            parts.append(item.description)
        if item.excluded:
            parts.append("")
            parts.append(f"Excluded: {item.excluded}")
        return plain_tooltip("\n".join(parts), _TOOLTIP_LIMIT)


class CatalogFilterProxy(QSortFilterProxyModel):
    """Search within one list (key, title, description; any case), server order kept."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._needle = ""

    def set_search(self, text: str) -> None:
        needle = text.strip().lower()
        if needle != self._needle:
            if hasattr(self, "beginFilterChange"):  # Qt 6.10+: invalidateRowsFilter is deprecated
                self.beginFilterChange()
                self._needle = needle
                self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
            else:  # pragma: no cover - older Qt
                self._needle = needle
                self.invalidateRowsFilter()

    @property
    def needle(self) -> str:
        return self._needle

    def filterAcceptsRow(self, source_row: int, source_parent: ParentIndex) -> bool:
        if not self._needle:
            return True  # no search: every row (asked once per row on every reset)
        model = self.sourceModel()
        if not isinstance(model, CatalogListModel):
            return True
        item = model.item_at(source_row)
        return item is not None and matches(item, self._needle)
