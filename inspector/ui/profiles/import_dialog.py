"""Import servers: from a Claude Desktop, VS Code or Cursor config, a server.json (a file,
typed or pasted in a box, dropped), or an MCP registry (Browse registry). Every source lists
its servers in one preview, each with its own notes; Import adds the ticked ones through the
`ProfileStore` (secret values to the keyring)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.registry.client import RegistryEntry, import_entry
from inspector.registry.schema import MAX_BYTES
from inspector.settings.config_import import (
    FORMAT_LABELS,
    ConfigFormat,
    ImportResult,
    import_file,
    known_config_files,
)
from inspector.settings.profiles import Profile, ProfileStore, one_line_name
from inspector.tap.host_config import is_tapped
from inspector.ui.profiles.drop_target import DropTarget
from inspector.ui.profiles.keyring_fallback import ask_session_only, store_keeping_secrets
from inspector.ui.profiles.registry_browser import RegistryBrowser
from inspector.ui.profiles.server_json_import import (
    ServerJsonShown,
    file_is_server_json,
    read_server_json,
    shown_import,
)
from inspector.ui.profiles.server_json_paste import ServerJsonPasteBox
from inspector.ui.tap.config_tap import ConfigTapActions
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.screen_fit import fit_to_screen

__all__ = ["ImportDialog"]

_ID_ROLE = Qt.ItemDataRole.UserRole + 1


class ImportDialog(QDialog):
    """Pick a config file, a server.json or a registry entry, preview its servers, import
    them. Files and text can be dropped on it."""

    def __init__(
        self,
        store: ProfileStore,
        parent: QWidget | None = None,
        *,
        settings: QSettings | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import servers")
        fit_to_screen(self, 820, 680)
        self.store = store
        self.ask_session_only: Callable[[str], bool] = lambda m: ask_session_only(self, m)
        self.result_: ImportResult | None = None
        self.shown: list[Profile] = []  # the profiles listed in `preview`, row for row
        self.row_notes: list[str] = []  # each listed profile's notes, row for row
        self.all_notes = ""  # the notes box's text when no row is chosen
        self.added: list[Profile] = []
        self.places = QListWidget()
        for fmt, label, path in known_config_files():
            exists = path.is_file()
            item = QListWidgetItem(f"{label}: {path}" + ("" if exists else "  (not found)"))
            item.setData(_ID_ROLE, (fmt, str(path)))
            if not exists:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            self.places.addItem(item)
        self.places.itemActivated.connect(self._place_chosen)
        self.places.itemClicked.connect(self._place_chosen)
        browse = QPushButton("Open a config file…")
        browse.setToolTip("A Claude Desktop, VS Code or Cursor config, or a server.json")
        browse.clicked.connect(self.browse)
        files = QWidget()
        files_layout = QVBoxLayout(files)
        files_layout.addWidget(PlainLabel("Known config files (or drop a .json file here):"))
        files_layout.addWidget(self.places, 1)
        files_row = QHBoxLayout()
        files_row.addWidget(browse)
        files_row.addStretch(1)
        files_layout.addLayout(files_row)
        self.listed_from_box = False  # the preview lists the server.json in the box
        self.paste_box = ServerJsonPasteBox(self.show_server_json, edited=self._box_edited)
        self.paste_button = self.paste_box.paste_button
        self.browser = RegistryBrowser(self._registry_chosen, settings)
        self.tabs = QTabWidget()
        self.tabs.addTab(files, "Config files")
        self.tabs.addTab(self.paste_box, "server.json")
        self.tabs.addTab(self.browser, "Browse registry")
        self.preview = QListWidget()
        self.tap_actions = ConfigTapActions(self, self.selected_server, self._config_written)
        self.preview.currentRowChanged.connect(self._row_changed)
        self.warnings = QPlainTextEdit()
        self.warnings.setReadOnly(True)
        self.warnings.setMaximumHeight(100)
        self.warnings.setPlaceholderText(
            "Notes about the import appear here (a server's own when it is chosen)."
        )
        self.status = PlainLabel("Choose a config file.", wrap=True)
        self.import_button = QPushButton("Import")
        self.import_button.setEnabled(False)
        self.import_button.clicked.connect(self.import_selected)
        cancel = QPushButton("Cancel")
        cancel.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.import_button)
        buttons.addWidget(cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 3)
        layout.addWidget(PlainLabel("Servers found (uncheck to skip):"))
        layout.addWidget(self.preview, 1)
        tap_row = QHBoxLayout()
        tap_row.addWidget(self.tap_actions.tap_button)
        tap_row.addWidget(self.tap_actions.untap_button)
        tap_row.addStretch(1)
        layout.addLayout(tap_row)
        layout.addWidget(self.warnings)
        layout.addLayout(buttons)
        self.drops = DropTarget(self, self.load_file, self.drop_text)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.finished.connect(self.browser.cancel)

    def _tab_changed(self, index: int) -> None:
        if self.shown or self.result_ is not None:
            return  # the status says what is listed
        hints = {
            0: "Choose a config file.",
            1: "Paste or type a server.json, then List its servers.",
            2: "Search the registry, then choose a server.",
        }
        self.status.setText(hints.get(index, ""))

    def _place_chosen(self, item: QListWidgetItem) -> None:
        fmt, path = item.data(_ID_ROLE)
        self.load_file(Path(path), fmt)

    def browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "MCP config file", str(Path.home()), "JSON (*.json);;All files (*)"
        )
        if path:
            self.load_file(Path(path))

    def paste_server_json(self) -> None:
        self.paste_box.paste_clipboard()

    def drop_text(self, text: str) -> None:
        """Dropped text goes in the server.json box and is read."""
        self.tabs.setCurrentWidget(self.paste_box)
        self.paste_box.set_text(text, "the dropped text")

    def show_server_json(self, data: str | bytes, source: str) -> None:
        self._show(read_server_json(data, source))
        self.listed_from_box = True

    def _box_edited(self) -> None:
        """A change typed in the box after it was listed: Import would add what the box held
        before, so the list goes until it is read again."""
        if not self.listed_from_box:
            return
        self.listed_from_box = False
        self._list([], [], "")  # its problems stay, to click while fixing them
        self.status.setText("The server.json in the box has changed: List its servers again.")

    def _show(self, shown: ServerJsonShown) -> None:
        self.result_ = None
        self.paste_box.show_problems(shown.problems)
        self._list(shown.profiles, shown.row_notes, shown.notes)
        self.status.setText(shown.status)

    def _list(self, profiles: list[Profile], row_notes: list[str], notes: str) -> None:
        self.shown = list(profiles)
        self.row_notes = list(row_notes)
        self.all_notes = notes
        self.preview.clear()
        for profile, note in zip(profiles, row_notes, strict=True):
            tapped = profile.transport == "stdio" and is_tapped(
                {"command": profile.stdio.command, "args": profile.stdio.args}
            )
            mark = "  (runs through the tap)" if tapped else ""
            # the name as it will be saved: one line (a newline could fake a row under it)
            item = QListWidgetItem(f"{one_line_name(profile.name)}  —  {profile.target}{mark}")
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            item.setToolTip(plain_tooltip(note or "No notes."))
            self.preview.addItem(item)
        self.warnings.setPlainText(notes)
        self.import_button.setEnabled(bool(profiles))
        self.tap_actions.update()

    def _row_changed(self, row: int) -> None:
        if 0 <= row < len(self.row_notes):
            name = self.shown[row].name
            own = self.row_notes[row]
            self.warnings.setPlainText(f"{name}:\n{own}" if own else f"{name}: no notes.")
        else:
            self.warnings.setPlainText(self.all_notes)
        self.tap_actions.update()

    def _registry_chosen(self, entry: RegistryEntry | None, registry_url: str) -> None:
        self.listed_from_box = False
        if entry is None:
            self._list([], [], "")
            self.status.setText("Choose a server of the registry to see its profiles.")
            return
        where = f"the registry's entry {entry.named}"
        self._show(shown_import(import_entry(entry, registry_url), where))

    def load_file(self, path: Path, fmt: ConfigFormat | None = None) -> ImportResult | None:
        self.listed_from_box = False
        self._list([], [], "")
        self.result_ = None
        try:
            size = path.stat().st_size
        except OSError as exc:
            self.status.setText(f"Cannot import {path}: {exc.strerror or exc}")
            return None
        if size > MAX_BYTES:
            self.status.setText(
                f"Cannot import {path}: it is {size:,} bytes; a config file or server.json "
                f"is at most {MAX_BYTES // (1024 * 1024)} MiB."
            )
            return None
        if fmt is None and file_is_server_json(path):
            data = path.read_bytes()
            text = data.decode("utf-8", "replace") if len(data) <= MAX_BYTES else ""
            self.paste_box.editor.setPlainText(text)
            self.show_server_json(data, str(path))
            if not self.shown:  # its problems are in the box, to click
                self.tabs.setCurrentWidget(self.paste_box)
            return None
        try:
            result = import_file(path, fmt)
        except (OSError, ValueError) as exc:
            self.result_ = None
            self.status.setText(f"Cannot import {path}: {exc}")
            return None
        self.result_ = result
        row_notes = [
            "\n".join(w for w in result.warnings if w.startswith(f"{p.name}:"))
            for p in result.profiles
        ]
        self._list(result.profiles, row_notes, "\n".join(result.warnings))
        label = FORMAT_LABELS[result.format]
        self.status.setText(f"{len(result.profiles)} server(s) in this {label} config.")
        return result

    def selected_server(self) -> tuple[Path, str, bool] | None:
        """The config file, the chosen stdio server and whether it runs through the tap."""
        row = self.preview.currentRow()
        result = self.result_
        if result is None or result.source is None or not 0 <= row < len(result.profiles):
            return None
        profile = result.profiles[row]
        if profile.transport != "stdio":
            return None
        entry = {"command": profile.stdio.command, "args": profile.stdio.args}
        return Path(result.source), profile.name, is_tapped(entry)

    def _config_written(self, message: str) -> None:
        row = self.preview.currentRow()
        if self.result_ is not None and self.result_.source is not None:
            self.load_file(Path(self.result_.source), self.result_.format)
            self.preview.setCurrentRow(row)
        self.status.setText(message)

    def selected_profiles(self) -> list[Profile]:
        return [
            p
            for row, p in enumerate(self.shown)
            if self.preview.item(row).checkState() == Qt.CheckState.Checked
        ]

    def import_selected(self) -> list[Profile]:
        chosen = self.selected_profiles()
        try:
            added = store_keeping_secrets(
                lambda session_only: self.store.add_imported(
                    chosen, session_only_secrets=session_only
                ),
                self.ask_session_only,
            )
        except ValueError as exc:
            self.status.setText(f"Not imported: {exc}")
            return []
        if added is None:
            self.status.setText("Not imported: secret values could not be stored.")
            return []
        self.added = added
        self.status.setText(f"Imported {len(self.added)} profile(s).")
        self.accept()
        return self.added
