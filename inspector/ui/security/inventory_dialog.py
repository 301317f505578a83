"""File ▸ Configured servers…: the MCP servers configured on this machine (Claude Desktop,
Claude Code, VS Code, Cursor, Windsurf, Zed, Codex: `settings.inventory`), each with its
file and line, and what can be done with one: open it in a tab, scan it (its Security
tab), check it, tap it.

Listing reads files and starts nothing. Open, Scan and Check start a stdio server's
command on this machine, so they ask first, naming the command; an HTTP entry is only
connected to. Every text from the files (names, commands, notes) is plain text, hidden
characters shown as escapes. The window does the rest (`shell/inventory_actions.py`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import QModelIndex, Qt, Signal, SignalInstance
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.common.visible_text import visible_text
from inspector.settings.inventory import ConfiguredServer, Inventory
from inspector.ui.widgets.flat_table_model import FlatTableModel, ParentIndex
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.row_table import RowTable

__all__ = ["InventoryDialog", "InventoryModel"]

_COLUMNS: Final = ("Name", "Client", "Runs", "Command or URL", "File")


def _shown(text: str, limit: int = 300) -> str:
    text = visible_text(text, keep="")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _home_short(where: str) -> str:
    """A file:line under the home folder as ~/…: the end of a path is what tells files apart."""
    home = str(Path.home())
    return "~" + where[len(home) :] if home != "/" and where.startswith(home + "/") else where


class InventoryModel(FlatTableModel):
    def __init__(self) -> None:
        super().__init__(_COLUMNS)
        self.servers: list[ConfiguredServer] = []

    def set_servers(self, servers: list[ConfiguredServer]) -> None:
        self.beginResetModel()
        self.servers = list(servers)
        self.endResetModel()

    def rowCount(self, parent: ParentIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.servers)

    def data(self, index: ParentIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        s = self.servers[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            runs = "a command here" if s.runs_code else "a URL"
            where = _shown(_home_short(s.where))
            return (_shown(s.name), _shown(s.client), runs, _shown(s.target()), where)[
                index.column()
            ]
        if role == Qt.ItemDataRole.ToolTipRole and index.column() in (3, 4):
            # a file's text: escaped, never taken for rich text
            return plain_tooltip(_shown(s.target() if index.column() == 3 else s.where, 4000))
        return None


class InventoryDialog(QDialog):
    # a ConfiguredServer each; open, scan and check only once a stdio start was agreed to
    open_requested = Signal(object)
    scan_requested = Signal(object)
    check_requested = Signal(object)
    tap_requested = Signal(object)

    def __init__(self, read: Callable[[], Inventory], parent: QWidget | None = None) -> None:
        """`read()`: the inventory (read again on Refresh)."""
        super().__init__(parent)
        self.setObjectName("inventoryDialog")
        self.setWindowTitle("Configured servers")
        self.resize(980, 460)
        self.read = read
        self.inventory = Inventory()
        self.confirm: QMessageBox | None = None  # the open "start this command?" question
        self.summary = PlainLabel("", wrap=True)
        self.model = InventoryModel()
        self.table = RowTable()
        self.table.setObjectName("inventoryTable")
        self.table.setModel(self.model)
        for column, width in enumerate((150, 170, 110, 330)):
            self.table.setColumnWidth(column, width)
        self.notes = QPlainTextEdit()
        self.notes.setObjectName("inventoryNotes")
        self.notes.setReadOnly(True)
        self.notes.setMaximumHeight(90)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.open_button = self._button(buttons, "Open in tab", self.open_requested)
        self.scan_button = self._button(buttons, "Scan", self.scan_requested)
        self.check_button = self._button(buttons, "Check…", self.check_requested)
        self.tap_button = QPushButton("Tap…")
        self.tap_button.setToolTip(
            "Launch this server through mcp-inspector-qt tap from its host's config, so its "
            "traffic is recorded (you see the change before it is written)"
        )
        self.tap_button.clicked.connect(self._tap)
        buttons.addButton(self.tap_button, QDialogButtonBox.ButtonRole.ActionRole)
        refresh = QPushButton("Refresh")
        refresh.clicked.connect(self.reload)
        buttons.addButton(refresh, QDialogButtonBox.ButtonRole.ResetRole)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notes)
        layout.addWidget(buttons)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._update())
        self.table.doubleClicked.connect(lambda _i: self._start(self.open_requested))
        self.reload()

    def _button(self, box: QDialogButtonBox, text: str, signal: SignalInstance) -> QPushButton:
        button = QPushButton(text)
        button.clicked.connect(lambda: self._start(signal))
        box.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        return button

    def reload(self) -> None:
        self.inventory = self.read()
        self.model.set_servers(self.inventory.servers)
        files = len(self.inventory.files)
        count = len(self.inventory.servers)
        self.summary.setText(
            f"{count} server(s) configured in {files} file(s) on this machine. "
            "Listing starts nothing; opening, scanning or checking a command asks first."
            if files
            else "No MCP client config was found on this machine (Claude Desktop, Claude "
            "Code, VS Code, Cursor, Windsurf, Zed, Codex)."
        )
        notes = [f"{n.path}: {visible_text(n.note, keep='')}" for n in self.inventory.notes]
        self.notes.setPlainText("\n".join(notes))
        self.notes.setVisible(bool(notes))
        if count:
            self.table.selectRow(0)
        self._update()

    def selected(self) -> ConfiguredServer | None:
        index = self.table.currentIndex()
        return self.model.servers[index.row()] if index.isValid() else None

    def _update(self) -> None:
        chosen = self.selected()
        for button in (self.open_button, self.scan_button, self.check_button):
            button.setEnabled(chosen is not None)
        self.tap_button.setEnabled(chosen is not None and chosen.runs_code)

    def _start(self, signal: SignalInstance) -> None:
        """Emit `signal` for the chosen server: at once for a URL, after a yes for a command."""
        server = self.selected()
        if server is None:
            return
        if not server.runs_code:
            signal.emit(server)
            return
        box = QMessageBox(self)
        box.setObjectName("inventoryConfirm")
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Start a configured server?")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(
            f"Starting “{_shown(server.name)}” runs this command on this machine, "
            f"with your permissions:\n\n{_shown(server.target(), 2000)}\n\n"
            f"configured in {_shown(server.where)} ({_shown(server.client)})."
        )
        start = box.addButton("Start it", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.confirm = box

        def answered() -> None:
            self.confirm = None
            if box.clickedButton() is start:
                signal.emit(server)

        box.finished.connect(lambda _r: answered())
        box.open()

    def _tap(self) -> None:
        server = self.selected()
        if server is not None:
            self.tap_requested.emit(server)
