"""A Qt item model over a `JsonNode` tree: key, value, type; validation errors marked."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QHeaderView, QTreeView, QWidget

from inspector.features.forms.fields import Path
from inspector.features.forms.json_tree import JsonNode
from inspector.ui.widgets.plain_text import plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["JsonTreeModel", "JsonTreeView"]

_HEADERS = ("Key", "Value", "Type")
AnyIndex = QModelIndex | QPersistentModelIndex


class JsonTreeModel(QAbstractItemModel):
    def __init__(self, value: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._root = JsonNode.root(value)
        self._marks: dict[Path, list[str]] = {}

    def set_value(self, value: Any, marks: dict[Path, list[str]] | None = None) -> None:
        self.beginResetModel()
        self._root = JsonNode.root(value)
        self._marks = dict(marks or {})
        self.endResetModel()

    def node(self, index: AnyIndex) -> JsonNode:
        if not index.isValid():
            return self._root
        node = index.internalPointer()
        assert isinstance(node, JsonNode)
        return node

    def index_of(self, path: Path) -> QModelIndex:
        node = self._root.find(path)
        if node is None:
            return QModelIndex()
        return self.createIndex(node.row, 0, node)

    # -- QAbstractItemModel ------------------------------------------------------
    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        kids = self.node(parent).children()
        if 0 <= row < len(kids) and 0 <= column < len(_HEADERS):
            return self.createIndex(row, column, kids[row])
        return QModelIndex()

    def parent(self, index: AnyIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid():
            return QModelIndex()
        up = self.node(index).parent
        if up is None or up is self._root:
            return QModelIndex()
        return self.createIndex(up.row, 0, up)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return 0
        node = self.node(parent)
        if node is self._root:
            return len(node.children())
        return len(node.children()) if node.has_children() else 0

    def hasChildren(self, parent: AnyIndex = QModelIndex()) -> bool:  # noqa: B008
        node = self.node(parent)
        return node is self._root or node.has_children()

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return len(_HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return _HEADERS[section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self.node(index)
        marks = self._marks.get(node.path) if not node.more else None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return f"⚠ {node.key}" if marks else node.key
            if column == 1:
                return node.summary
            return node.kind
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [node.where]
            if marks:
                lines += marks
            if column == 1 and isinstance(node.value, str) and len(node.value) > 80:
                lines.append(node.value[:2000])
            return plain_tooltip("\n".join(lines))
        if role == Qt.ItemDataRole.ForegroundRole:
            c = colors()
            if marks:
                return c.error
            if node.more or column == 2:
                return c.muted
            if column == 1:
                kind = node.kind
                if kind == "string":
                    return c.json_string
                if kind == "number":
                    return c.json_number
                if kind in ("boolean", "null"):
                    return c.json_keyword
        return None


class JsonTreeView(QTreeView):
    """A tree over a JSON value: the top levels open, columns sized to their content."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.json_model = JsonTreeModel(None, self)
        self.setModel(self.json_model)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        header = self.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)

    def set_value(self, value: Any, marks: dict[Path, list[str]] | None = None) -> None:
        self.json_model.set_value(value, marks)
        self.expandToDepth(1)
        for path in marks or {}:
            index = self.json_model.index_of(path)
            while index.isValid():
                self.expand(index)
                index = index.parent()
        self.resizeColumnToContents(0)
        self.setColumnWidth(0, min(max(self.columnWidth(0), 120), 320))
        rows = self._visible_rows()
        height = self.sizeHintForRow(0) if rows else 20
        self.setFixedHeight(min(360, max(rows, 2) * max(height, 18) + self.header().height() + 6))

    def _visible_rows(self) -> int:
        count = 0
        index = self.json_model.index(0, 0)
        while index.isValid() and count < 100:
            count += 1
            index = self.indexBelow(index)
        return count
