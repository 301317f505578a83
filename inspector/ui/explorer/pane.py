"""One explorer tab: search, a status line with Refresh, the tree, "Load more"/"Load all",
and what the last re-list changed. It adapts one `CatalogList`; intents go out as signals."""

from __future__ import annotations

import json
import time
from typing import Final

from PySide6.QtCore import QModelIndex, QPoint, QSize, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLineEdit,
    QMenu,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from inspector.features.catalog.lists import CatalogItem, CatalogKind, CatalogList
from inspector.ui.explorer.catalog_models import ITEM_ROLE, CatalogFilterProxy, CatalogListModel
from inspector.ui.explorer.delegate import CatalogDelegate
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["NOUNS", "CatalogPane"]

# kind -> (singular, plural, tab title)
NOUNS: Final[dict[CatalogKind, tuple[str, str, str]]] = {
    "tools": ("tool", "tools", "Tools"),
    "resources": ("resource", "resources", "Resources"),
    "templates": ("template", "templates", "Templates"),
    "prompts": ("prompt", "prompts", "Prompts"),
}


class CatalogPane(QWidget):
    selected = Signal(object)  # CatalogItem | None
    refresh_requested = Signal()
    more_requested = Signal()
    all_requested = Signal()

    def __init__(self, lst: CatalogList) -> None:
        super().__init__()
        self.kind = lst.kind
        self.list = lst
        _one, plural, _title = NOUNS[lst.kind]
        self.setObjectName(f"{lst.kind}Pane")
        self.connected = False
        self._selected_key: str | None = None
        self._selected_item: CatalogItem | None = None

        self.model = CatalogListModel(lst, self)
        self.proxy = CatalogFilterProxy(self)
        self.proxy.setSourceModel(self.model)

        self.search = QLineEdit()
        self.search.setObjectName(f"{lst.kind}Search")
        self.search.setPlaceholderText(f"Search {plural} (name, title, description)")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._search_changed)
        # Typing filters; Enter (or a click) opens: never an item opened as you type.
        self.search.returnPressed.connect(self.open_first_match)
        self._filtering = False
        self.refresh_button = QToolButton()
        self.refresh_button.setText("⟳ Refresh")
        self.refresh_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.refresh_button.setToolTip(plain_tooltip(f"List the {plural} again ({lst.method})"))
        self.refresh_button.clicked.connect(self.refresh_requested)
        self.status = ElidedLabel()
        self.status.setObjectName(f"{lst.kind}Status")

        self.tree = QTreeView()
        self.tree.setObjectName(f"{lst.kind}Tree")
        self.tree.setModel(self.proxy)
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setItemDelegate(CatalogDelegate(self.tree))
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.tree.setIconSize(QSize(18, 18))
        self.tree.setMouseTracking(True)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        selection = self.tree.selectionModel()
        selection.currentChanged.connect(self._current_changed)
        self.tree.clicked.connect(self._open_again)
        self.tree.activated.connect(self._open_again)
        self.model.modelReset.connect(self._reselect)
        # A reconnect lists into an empty model (rows inserted, no reset): the item that
        # was selected before comes back selected when it is still there.
        self.model.rowsInserted.connect(self._reselect_if_lost)

        self.empty = PlainLabel(wrap=True)
        self.empty.setObjectName(f"{lst.kind}Empty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setMargin(16)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.tree)
        self.stack.addWidget(self.empty)

        self.more_button = QPushButton("Load more")
        self.more_button.setToolTip("Ask for the next page (nextCursor)")
        self.more_button.clicked.connect(self.more_requested)
        self.all_button = QPushButton("Load all")
        self.all_button.setToolTip("Follow nextCursor to the last page")
        self.all_button.clicked.connect(self.all_requested)
        self.change_label = ElidedLabel()
        self.change_label.setObjectName(f"{lst.kind}Changes")
        self.cache_label = ElidedLabel()  # the 2026-07-28 cache hints of the listing
        self.cache_label.setObjectName(f"{lst.kind}Cache")

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.status, 1)
        top.addWidget(self.refresh_button)
        paging = QHBoxLayout()
        paging.setContentsMargins(0, 0, 0, 0)
        paging.addWidget(self.more_button)
        paging.addWidget(self.all_button)
        paging.addStretch(1)
        self.paging = QWidget()
        self.paging.setLayout(paging)
        self.paging.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        layout.addWidget(self.search)
        layout.addLayout(top)
        layout.addWidget(self.cache_label)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.paging)
        layout.addWidget(self.change_label)
        lst.on_change(lambda _lst: self.update_state())
        self.update_state()

    # ---------------------------------------------------------------- state
    def set_connected(self, connected: bool) -> None:
        self.connected = connected
        self.update_state()

    def update_state(self) -> None:
        lst = self.list
        one, plural, _title = NOUNS[self.kind]
        count = len(lst)
        shown = self._shown()
        busy = lst.loading
        if lst.absent:
            status = "Not offered"
        elif busy:
            status = f"Listing {plural}…"
        elif not lst.loaded and not lst.error:
            status = "Not listed yet" if self.connected else "Not connected"
        else:
            status = f"{count} {one if count == 1 else plural}"
            if lst.has_more:
                status += " (more pages)"
            if self.proxy.needle:
                status = f"{shown} of {status}"
        c = colors()
        if not self.connected and (lst.loaded or lst.items):
            status += " · not connected (the last listing)"
        if lst.stale and not busy:
            status += " · stale: the server says the list changed"
        if lst.error:
            status += f" · {lst.error}"
        self.status.setText(status)
        warn = lst.error or (lst.stale and not busy)
        color = c.error.name() if lst.error else c.warn.name() if warn else ""
        self.status.setStyleSheet(f"color: {color}" if color else "")
        self.status.setToolTip("")
        self.refresh_button.setEnabled(self.connected and not lst.absent and not busy)
        self.paging.setVisible(lst.has_more)
        self.more_button.setEnabled(self.connected and not busy)
        self.all_button.setEnabled(self.connected and not busy)
        diff = lst.last_diff
        self.change_label.setVisible(not diff.empty)
        self.change_label.setText(f"Last re-list: {diff.describe()}" if not diff.empty else "")
        self.change_label.setStyleSheet(f"color: {c.muted.name()}")
        self._show_cache(lst)
        empty = self._empty_text(count, shown)
        self.empty.setText(empty)
        self.stack.setCurrentWidget(self.empty if empty else self.tree)

    def _show_cache(self, lst: CatalogList) -> None:
        """ttlMs and cacheScope of the listing (modern era), when it is fresh until, and
        what is wrong with them; hidden for a result without hints (legacy era). The line
        is short (the explorer is narrow); the tooltip says it all."""
        hints = lst.hints
        shown = hints is not None and hints.present and lst.loaded
        self.cache_label.setVisible(shown)
        if not shown or hints is None:
            return
        ttl = hints.raw_ttl if isinstance(hints.raw_ttl, int) else "?"
        parts = [f"ttlMs {ttl}", hints.scope or "scope ?"]
        full = [f"Cache hints: {hints.describe()}"]
        now = time.monotonic()
        if lst.fresh(now) and lst.fresh_until is not None:
            until = time.localtime(time.time() + (lst.fresh_until - now))
            at = time.strftime("%H:%M:%S", until)
            parts.append(f"kept, fresh until {at}" if lst.reused else f"fresh until {at}")
            kept = ", kept from the last connection." if lst.reused else "."
            full.append(f"Fresh until {at}{kept}")
            if hints.scope != "public":
                full.append("Not public: a reconnect lists it again.")
        else:
            parts.append("stale")
            full.append("Stale: the next reconnect lists it again.")
        if hints.problems:
            parts.append(f"{len(hints.problems)} problem(s)")
        self.cache_label.setText(" · ".join(parts))
        tip = [
            *full,
            "While a listing is fresh and public, connecting to the same profile again keeps "
            "it without listing again. Refresh always lists.",
            *hints.problems,
        ]
        self.cache_label.setToolTip(plain_tooltip("\n".join(tip)))
        c = colors()
        color = c.warn if hints.problems else c.muted
        self.cache_label.setStyleSheet(f"color: {color.name()}")

    def _empty_text(self, count: int, shown: int) -> str:
        lst = self.list
        _one, plural, _title = NOUNS[self.kind]
        if lst.absent:
            return lst.absent
        if count == 0:
            if lst.loading:
                return f"Listing {plural}…"
            if lst.error:
                return lst.error
            if lst.loaded:
                return f"The server lists no {plural}."
            if self.connected:
                return ""
            return f"Connect to a server to list its {plural}."
        if shown == 0:
            return f"No {plural} match “{self.search.text().strip()}”."
        return ""

    # ---------------------------------------------------------------- search
    def _search_changed(self, text: str) -> None:
        self._filtering = True  # the current row moves as rows hide: that opens nothing
        try:
            self.proxy.set_search(text)
            if self.model.grouped and self.proxy.needle:
                self.tree.expandAll()  # the matches inside their groups
            # Only the open item is shown selected (if the filter shows it), so a row
            # never looks open when it is not.
            shown = QModelIndex()
            if self._selected_key is not None:
                source = self.model.index_of(self._selected_key)
                if source.isValid():
                    shown = self.proxy.mapFromSource(source)
            selection = self.tree.selectionModel()
            if shown.isValid():
                self.tree.setCurrentIndex(shown)
            else:
                selection.clear()
        finally:
            self._filtering = False
        self.update_state()

    def _shown(self) -> int:
        """Items shown (a group counts as the tools of it the search lets through)."""
        proxy, top = self.proxy, self.proxy.rowCount()
        if not self.model.grouped:
            return top
        shown = 0
        for row in range(top):
            index = proxy.index(row, 0)
            children = proxy.rowCount(index)
            shown += (
                children if children or self.model.item_of(proxy.mapToSource(index)) is None else 1
            )
        return shown

    def open_first_match(self) -> bool:
        """Enter in the search box: open the selected match, or else the first one (the
        first tool of the first group, when tools are grouped)."""
        index = self.tree.currentIndex()
        if not index.isValid():
            index = self.proxy.index(0, 0)
            if index.isValid() and self.proxy.rowCount(index):
                index = self.proxy.index(0, 0, index)
        if not index.isValid():
            return False
        self.tree.setCurrentIndex(index)
        self._open(index)
        self.tree.setFocus()
        return True

    def _open(self, index: QModelIndex) -> None:
        item = index.data(ITEM_ROLE) if index.isValid() else None
        if isinstance(item, CatalogItem):
            self._selected_key = item.key
            if item is not self._selected_item:
                self._selected_item = item
                self.selected.emit(item)

    def _open_again(self, index: QModelIndex) -> None:
        """A click or Enter on a row: open it, even when it is the row already selected
        (another item may be on show since, or another centre tab)."""
        self._selected_item = None
        self._open(index)

    # ---------------------------------------------------------------- selection
    def current_item(self) -> CatalogItem | None:
        index = self.tree.currentIndex()
        item = index.data(ITEM_ROLE) if index.isValid() else None
        return item if isinstance(item, CatalogItem) else None

    def select_key(self, key: str) -> bool:
        source = self.model.index_of(key)
        if not source.isValid():
            return False
        index = self.proxy.mapFromSource(source)
        if not index.isValid():  # hidden by the search
            self.search.clear()
            index = self.proxy.mapFromSource(self.model.index_of(key))
        self.tree.setCurrentIndex(index)  # (opens its group)
        self.tree.scrollTo(index)
        return True

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not self._filtering:  # a click or the arrow keys
            self._open(current)

    def _reselect_if_lost(self) -> None:
        if self.current_item() is None:
            self._reselect()

    def _reselect(self) -> None:
        """After a re-list, keep the same item selected (the new definition, if it changed)."""
        self.tree.setRootIsDecorated(self.model.grouped)
        key = self._selected_key
        if key is None:
            return
        source = self.model.index_of(key)
        if not source.isValid():
            return
        index = self.proxy.mapFromSource(source)
        if index.isValid():
            self.tree.setCurrentIndex(index)
        item = self.model.item_of(source)
        if item is not None and item is not self._selected_item:
            self._selected_item = item
            self.selected.emit(item)

    def _context_menu(self, pos: QPoint) -> None:
        index = self.tree.indexAt(pos)
        item = index.data(ITEM_ROLE) if index.isValid() else None
        if isinstance(item, CatalogItem):
            self.menu_for(item).exec(self.tree.viewport().mapToGlobal(pos))

    def menu_for(self, item: CatalogItem) -> QMenu:
        menu = QMenu(self.tree)
        what = {"resources": "URI", "templates": "URI template"}.get(self.kind, "name")
        menu.addAction(f"Copy {what}", lambda: _copy(item.key))
        menu.addAction(
            "Copy definition JSON",
            lambda: _copy(json.dumps(item.raw, indent=2, ensure_ascii=False)),
        )
        return menu

    def tool_names(self) -> list[str]:
        return [i.key for i in self.list]


def _copy(text: str) -> None:
    clipboard = QGuiApplication.clipboard()
    if clipboard is not None:
        clipboard.setText(text)
