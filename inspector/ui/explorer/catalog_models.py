"""Qt models over the Qt-free catalog (napari's _qt/containers pattern): one list model per
kind adapting a `CatalogList`, and a proxy that searches with the store's own matcher.

The model parses nothing: row text, badges and icons come from `inspector.features.catalog.format`.
`ITEM_ROLE` returns the `CatalogItem`; `BADGES_ROLE` the row's badges; `SECONDARY_ROLE`
the second line. Tooltips carry server text escaped, never as markup.
"""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QIcon, QPixmap

from inspector.features.catalog.format import Badge, data_icon, item_badges, secondary_text
from inspector.features.catalog.lists import CatalogItem, CatalogList, matches, namespace_of
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


class CatalogListModel(QAbstractItemModel):
    """The rows of one `CatalogList`, in server order.

    Tools behind a gateway carry its namespace as a prefix (`github__create_issue`): when
    two or more tools share one, they are grouped under a node named after it, placed
    where its first tool is (the others stay at the top level). Without such prefixes the
    model is a flat list, as before.
    """

    def __init__(self, lst: CatalogList, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.list = lst
        self._rows: list[CatalogItem] = list(lst.items)
        self._icons: dict[tuple[str, str], QIcon | None] = {}
        self._badges: dict[str, list[Badge]] = {}
        self._top: list[int] = []  # a row of _rows (>= 0), or -(group + 1)
        self._groups: list[tuple[str, list[int]]] = []  # (namespace, rows of _rows)
        self._group_pos: list[int] = []  # where each group is in _top
        self.mirror_headers = False
        self.pin_alerts: frozenset[str] = frozenset()
        self._regroup()
        lst.on_change(self._on_change)

    @property
    def grouped(self) -> bool:
        return bool(self._groups)

    def _regroup(self) -> None:
        self._top, self._groups, self._group_pos = [], [], []
        if self.list.kind != "tools":
            self._top = list(range(len(self._rows)))
            return
        members: dict[str, list[int]] = {}
        for row, item in enumerate(self._rows):
            space = namespace_of(item.key)
            if space is not None:
                members.setdefault(space, []).append(row)
        number: dict[str, int] = {}
        for row, item in enumerate(self._rows):
            space = namespace_of(item.key)
            if space is None or len(members[space]) < 2:
                self._top.append(row)
            elif space not in number:
                number[space] = len(self._groups)
                self._groups.append((space, members[space]))
                self._group_pos.append(len(self._top))
                self._top.append(-len(self._groups))

    # -- store -> model --------------------------------------------------------------
    def _on_change(self, lst: CatalogList) -> None:
        new = lst.items
        old = self._rows
        if len(new) == len(old) and all(a is b for a, b in zip(old, new, strict=True)):
            # same rows: flags (excluded, stale, diff) may have changed
            self._refresh_all()
        elif (
            not self._groups
            and len(new) > len(old)
            and all(a is b for a, b in zip(old, new, strict=False))
            and not (lst.kind == "tools" and _shares_a_namespace(new))
        ):
            # load more: only rows appended
            self.beginInsertRows(QModelIndex(), len(old), len(new) - 1)
            self._rows = list(new)
            self._top = list(range(len(new)))
            self.endInsertRows()
        else:
            self.beginResetModel()
            self._rows = list(new)
            self._badges.clear()
            self._regroup()
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
        if self._top:
            self.dataChanged.emit(self.index(0), self.index(len(self._top) - 1))
        for pos, (_space, rows) in zip(self._group_pos, self._groups, strict=True):
            group = self.index(pos)
            self.dataChanged.emit(self.index(0, 0, group), self.index(len(rows) - 1, 0, group))

    def refresh_colors(self) -> None:
        self._icons.clear()
        self._refresh_all()

    # -- Qt -----------------------------------------------------------------------------
    def index(self, row: int, column: int = 0, parent: ParentIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0)
        return self.createIndex(row, column, -self._top[parent.row()])

    def parent(self, index: ParentIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        group = index.internalId() if index.isValid() else 0
        if group <= 0:
            return QModelIndex()
        return self.createIndex(self._group_pos[group - 1], 0, 0)

    def rowCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._top)
        if parent.internalId() == 0 and self._top[parent.row()] < 0:
            return len(self._groups[-self._top[parent.row()] - 1][1])
        return 0

    def columnCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        return 1

    def _row_of_index(self, index: ParentIndex) -> int:
        """The row of _rows at `index`, or -(group + 1) for a group node."""
        group = index.internalId()
        if group == 0:
            return self._top[index.row()]
        return self._groups[group - 1][1][index.row()]

    def item_of(self, index: ParentIndex) -> CatalogItem | None:
        if not index.isValid():
            return None
        row = self._row_of_index(index)
        return self._rows[row] if row >= 0 else None

    def item_at(self, row: int) -> CatalogItem | None:
        """The item in row `row` of the list, in server order (groups aside)."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, key: str) -> int:
        return next((r for r, i in enumerate(self._rows) if i.key == key), -1)

    def index_of(self, key: str) -> QModelIndex:
        """Where the item `key` is shown (inside its group, if it has one)."""
        row = self.row_of(key)
        if row < 0:
            return QModelIndex()
        for pos, (_space, rows) in zip(self._group_pos, self._groups, strict=True):
            if row in rows:
                return self.index(rows.index(row), 0, self.index(pos))
        return self.index(self._top.index(row))

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._row_of_index(index)
        if row < 0:
            return self._group_data(self._groups[-row - 1], role)
        item = self._rows[row]
        if role == Qt.ItemDataRole.DisplayRole:
            return item.title
        if role == ITEM_ROLE:
            return item
        if role == SECONDARY_ROLE:
            return secondary_text(item)
        if role == BADGES_ROLE:
            return self._row_badges(item)
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

    @staticmethod
    def _group_data(group: tuple[str, list[int]], role: int) -> Any:
        space, rows = group
        count = f"{len(rows)} tools"
        if role == Qt.ItemDataRole.DisplayRole:
            return space
        if role == SECONDARY_ROLE:
            return f"{count} · {space}__…"
        if role in (BADGES_ROLE, MARKS_ROLE):
            return []
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(
                f"{count} whose names start with “{space}__” (a gateway's namespace)"
            )
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{space}: {count}"
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

    def _row_badges(self, item: CatalogItem) -> list[Badge]:
        cached = self._badges.get(item.key)
        if cached is None:
            cached = self._marks(item) + item_badges(item, mirror_headers=self.mirror_headers)
            self._badges[item.key] = cached
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


def _shares_a_namespace(items: list[CatalogItem]) -> bool:
    """Do two of these tools share a gateway namespace (so they would be grouped)?"""
    seen: set[str] = set()
    for item in items:
        space = namespace_of(item.key)
        if space is not None:
            if space in seen:
                return True
            seen.add(space)
    return False


class CatalogFilterProxy(QSortFilterProxyModel):
    """Search within one list (key, title, description; any case), server order kept."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._needle = ""
        self.setRecursiveFilteringEnabled(True)

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
        item = model.item_of(model.index(source_row, 0, source_parent))
        # A group is shown when one of its tools matches (recursive filtering).
        return item is not None and matches(item, self._needle)
