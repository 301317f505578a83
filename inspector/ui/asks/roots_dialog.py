"""The roots editor: the folders the client exposes to the server (answered to roots/list).

Roots live in the profile. Applying them while connected answers roots/list with the new
list at once and, in the legacy era, sends notifications/roots/list_changed (when the
client declared roots.listChanged); the caller does both and says what happened.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.settings.profiles import RootEntry
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["RootsDialog", "root_problems"]


def root_problems(roots: list[RootEntry]) -> tuple[list[str], list[str]]:
    """(errors, warnings). spec 2025-06-18 roots: a root's uri MUST be a file:// URI
    (a warning here: a debugger may want to see how a server copes with others)."""
    errors: list[str] = []
    warnings: list[str] = []
    seen: set[str] = set()
    for i, root in enumerate(roots, 1):
        uri = root.uri.strip()
        if not uri:
            errors.append(f"Root {i} has no URI.")
            continue
        if uri in seen:
            warnings.append(f"{uri} is listed twice.")
        seen.add(uri)
        if urlsplit(uri).scheme != "file":
            warnings.append(f"{uri} is not a file:// URI (the spec requires file://).")
    return errors, warnings


class RootsDialog(QDialog):
    def __init__(
        self,
        roots: list[RootEntry],
        apply: Callable[[list[RootEntry]], str],
        where: str,
        parent: QWidget | None = None,
    ) -> None:
        """`apply(roots)` stores and sends them, and returns what happened (a sentence).
        `where` says where they are kept (the profile, or this session only)."""
        super().__init__(parent)
        self.setWindowTitle("Roots")
        self._apply = apply
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["URI", "Name"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(
            1, QHeaderView.ResizeMode.ResizeToContents
        )
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for root in roots:
            self.add_row(root.uri, root.name or "")
        self.add_folder_button = QPushButton("Add folder…")
        self.add_folder_button.clicked.connect(self.add_folder)
        self.add_uri_button = QPushButton("Add URI")
        self.add_uri_button.clicked.connect(lambda: self.add_row("file:///", "", edit=True))
        self.remove_button = QPushButton("Remove")
        self.remove_button.clicked.connect(self.remove_selected)
        self.status = PlainLabel("", wrap=True, selectable=True)
        self.apply_button = QPushButton("Apply")
        self.apply_button.setDefault(True)
        self.apply_button.clicked.connect(self.apply)
        close = QPushButton("Close")
        close.clicked.connect(self.reject)
        edit_row = QHBoxLayout()
        for button in (self.add_folder_button, self.add_uri_button, self.remove_button):
            edit_row.addWidget(button)
        edit_row.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(close)
        buttons.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.addWidget(
            PlainLabel(
                "The folders this client exposes to the server. They are the answer to "
                "roots/list; applying them while connected tells the server (legacy: "
                "notifications/roots/list_changed).",
                wrap=True,
                selectable=True,
            )
        )
        self.where_label = PlainLabel(where, wrap=True, selectable=True)
        self.where_label.setStyleSheet(f"color: {colors().muted.name()};")
        layout.addWidget(self.where_label)
        layout.addWidget(self.table, 1)
        layout.addLayout(edit_row)
        layout.addLayout(buttons)
        self.resize(640, 360)

    def add_row(self, uri: str, name: str, *, edit: bool = False) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        uri_item = QTableWidgetItem(uri)
        self.table.setItem(row, 0, uri_item)
        self.table.setItem(row, 1, QTableWidgetItem(name))
        if edit:
            self.table.setCurrentCell(row, 0)
            self.table.editItem(uri_item)

    def add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a root folder")
        if folder:
            path = Path(folder)
            self.add_row(path.as_uri(), path.name)

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True)
        for row in rows:
            self.table.removeRow(row)

    def roots(self) -> list[RootEntry]:
        out: list[RootEntry] = []
        for row in range(self.table.rowCount()):
            uri_item = self.table.item(row, 0)
            name_item = self.table.item(row, 1)
            uri = uri_item.text().strip() if uri_item is not None else ""
            name = name_item.text().strip() if name_item is not None else ""
            out.append(RootEntry(uri=uri, name=name or None))
        return out

    def apply(self) -> bool:
        roots = self.roots()
        errors, warnings = root_problems(roots)
        if errors:
            self._say(" ".join(errors), "error")
            return False
        try:
            result = self._apply(roots)
        except ValueError as exc:
            self._say(str(exc), "error")
            return False
        self._say(" ".join([result, *warnings]), "warn" if warnings else "ok")
        return True

    def _say(self, text: str, level: str) -> None:
        c = colors()
        color = {"error": c.error, "warn": c.warn}.get(level, c.ok)
        self.status.setStyleSheet(f"color: {color.name()};")
        self.status.setText(text)
        self.status.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
