"""The import dialog's "Browse registry" tab: a registry URL (the official one by default,
remembered in the settings), a search box, a page of servers (name, description, version;
plain text, whatever the registry sends), Previous and Next page. Choosing a row hands its
entry to the dialog, which lists its profiles as it lists a pasted server.json's. The
requests are `inspector.registry.client`'s, on the running asyncio loop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Final

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.registry.client import (
    RegistryClient,
    RegistryEntry,
    RegistryError,
    RegistryPage,
    default_registry_url,
)
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip

__all__ = ["REGISTRY_URL_KEY", "RegistryBrowser"]

log = logging.getLogger(__name__)

REGISTRY_URL_KEY: Final = "registry/url"
_CELL_MAX: Final = 300  # characters of a registry's text shown in one cell


def _cell(text: str) -> QTableWidgetItem:
    flat = " ".join(text.split())
    item = QTableWidgetItem(flat[:_CELL_MAX] + ("…" if len(flat) > _CELL_MAX else ""))
    item.setToolTip(plain_tooltip(flat))
    return item


class RegistryBrowser(QWidget):
    """`chosen(entry, registry_url)` is called when the user picks a row (None: no row)."""

    def __init__(
        self,
        chosen: Callable[[RegistryEntry | None, str], None],
        settings: QSettings | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._chosen = chosen
        self._settings = settings
        self.task: asyncio.Task[None] | None = None
        self.entries: list[RegistryEntry] = []
        self._cursors: list[str | None] = [None]  # the cursor of each page seen, this search
        self._next: str | None = None
        self._searched_url = ""
        self._searched_text = ""
        saved = settings.value(REGISTRY_URL_KEY, "") if settings is not None else ""
        self.url_edit = QLineEdit(str(saved or "") or default_registry_url())
        self.url_edit.setToolTip("The registry's base URL (its API is under /v0.1/servers)")
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText("Search server names (empty: all)")
        self.search_edit.returnPressed.connect(self.search)
        self.search_button = QPushButton("Search")
        self.search_button.setAutoDefault(False)
        self.search_button.clicked.connect(self.search)
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("registryTable")
        self.table.setHorizontalHeaderLabels(["Name", "Description", "Version"])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setColumnWidth(0, 240)
        self.table.itemSelectionChanged.connect(self._row_chosen)
        self.previous_button = QPushButton("Previous page")
        self.previous_button.setAutoDefault(False)
        self.previous_button.clicked.connect(self.previous_page)
        self.next_button = QPushButton("Next page")
        self.next_button.setAutoDefault(False)
        self.next_button.clicked.connect(self.next_page)
        self.status = PlainLabel("Search the registry, then choose a server.", wrap=True)
        url_row = QHBoxLayout()
        url_row.addWidget(PlainLabel("Registry:"))
        url_row.addWidget(self.url_edit, 1)
        search_row = QHBoxLayout()
        search_row.addWidget(self.search_edit, 1)
        search_row.addWidget(self.search_button)
        page_row = QHBoxLayout()
        page_row.addWidget(self.status, 1)
        page_row.addWidget(self.previous_button)
        page_row.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.addLayout(url_row)
        layout.addLayout(search_row)
        layout.addWidget(self.table, 1)
        layout.addLayout(page_row)
        self._buttons()

    # ---------------------------------------------------------------- paging
    def search(self) -> None:
        self._load(self.url_edit.text().strip(), self.search_edit.text(), [None])

    def next_page(self) -> None:
        if self._next is not None:
            self._load(self._searched_url, self._searched_text, [*self._cursors, self._next])

    def previous_page(self) -> None:
        if len(self._cursors) > 1:
            self._load(self._searched_url, self._searched_text, self._cursors[:-1])

    def cancel(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    def _load(self, url: str, text: str, cursors: list[str | None]) -> None:
        """Ask for the page at the end of `cursors` (the pages seen so far stay as they are
        until it comes)."""
        self.cancel()
        self.status.setText(f"Asking {url}…")
        self.task = asyncio.get_running_loop().create_task(
            self._fetch(url, text, cursors), name="registry page"
        )
        self._buttons()

    async def _fetch(self, url: str, text: str, cursors: list[str | None]) -> None:
        page: RegistryPage | None = None
        failure = ""
        try:
            async with RegistryClient(url) as client:
                page = await client.search(text, cursor=cursors[-1])
        except RegistryError as exc:
            failure = str(exc)
        except Exception as exc:  # never let a page break the dialog
            log.exception("reading the registry failed")
            failure = f"Reading the registry failed: {exc}"
        finally:
            if self.task is asyncio.current_task():
                self.task = None
        if page is None:
            self._failed(failure)
            return
        if self._settings is not None:
            self._settings.setValue(REGISTRY_URL_KEY, url)
        self._cursors = cursors
        self._searched_text = text
        self._show(page, url)

    def _failed(self, sentence: str) -> None:
        self.status.setText(sentence)
        self._buttons()

    def _show(self, page: RegistryPage, url: str) -> None:
        self._searched_url = url
        self._next = page.next_cursor
        self.entries = list(page.entries)
        self.table.setRowCount(0)
        self.table.setRowCount(len(self.entries))
        for row, entry in enumerate(self.entries):
            version = entry.version
            if entry.status not in ("", "active"):
                version = f"{version} ({entry.status})"
            description = entry.description if entry.problem is None else entry.problem
            name = entry.name if not entry.title else f"{entry.title}  ({entry.name})"
            for column, text in enumerate((name, description, version)):
                self.table.setItem(row, column, _cell(text))
        number = len(self._cursors)
        more = "; Next page for more" if self._next else ""
        self.status.setText(
            f"Page {number}: {len(self.entries)} server(s){more}. Choose one to see its profiles."
            if self.entries
            else "No server matches."
        )
        self._buttons()
        self._chosen(None, url)

    def _buttons(self) -> None:
        busy = self.task is not None
        # Search stays: a new search replaces one under way (a slow or wrong URL is left
        # at once, not after its timeout).
        self.next_button.setEnabled(not busy and self._next is not None)
        self.previous_button.setEnabled(not busy and len(self._cursors) > 1)

    def _row_chosen(self) -> None:
        rows = {index.row() for index in self.table.selectionModel().selectedRows()}
        row = min(rows) if rows else -1
        entry = self.entries[row] if 0 <= row < len(self.entries) else None
        self._chosen(entry, self._searched_url)
