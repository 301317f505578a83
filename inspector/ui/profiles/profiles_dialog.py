"""The connection manager: saved profiles, their editor, import and export."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Final, Literal

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.settings.config_import import (
    FORMAT_LABELS,
    ConfigFormat,
    export_snippet,
)
from inspector.settings.profile_labels import target_line
from inspector.settings.profiles import Profile, ProfileStore, StdioSettings, validate_profile
from inspector.ui.profiles.drop_target import DropTarget
from inspector.ui.profiles.import_dialog import ImportDialog
from inspector.ui.profiles.keyring_fallback import ask_session_only, store_keeping_secrets
from inspector.ui.profiles.profile_editor import ProfileEditor
from inspector.ui.profiles.server_json_import import server_json_text
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.screen_fit import fit_to_screen

__all__ = ["ImportDialog", "ProfilesDialog"]

_ID_ROLE = Qt.ItemDataRole.UserRole + 1
_DRAFT: Final = "\x00draft"  # the list key of a new profile that is not saved yet


UnsavedChoice = Literal["save", "discard", "cancel"]


def _ask_unsaved(parent: QWidget, name: str) -> UnsavedChoice:
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle("Unsaved changes")
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(f"“{name}” has changes that are not saved.")
    box.setInformativeText("Save them before you leave this profile?")
    box.setStandardButtons(
        QMessageBox.StandardButton.Save
        | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel
    )
    box.setDefaultButton(QMessageBox.StandardButton.Save)
    answer = box.exec()
    if answer == QMessageBox.StandardButton.Save:
        return "save"
    if answer == QMessageBox.StandardButton.Discard:
        return "discard"
    return "cancel"


class ProfilesDialog(QDialog):
    """Profiles on the left, the chosen one's editor on the right.

    Edits are never dropped silently: leaving a profile with unsaved changes (choosing
    another, New, Esc, Close, the window's close button) asks Save / Discard / Cancel.
    A new or duplicated profile is listed at once, marked "not saved", until it is saved."""

    connect_requested = Signal(object)  # Profile

    def __init__(
        self,
        store: ProfileStore,
        parent: QWidget | None = None,
        *,
        settings: QSettings | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Connection profiles")
        self.settings = settings
        fit_to_screen(self, 980, 640)
        self.store = store
        # Replaced in tests: answers "keep secrets for this session only?".
        self.ask_session_only: Callable[[str], bool] = lambda m: ask_session_only(self, m)
        # Replaced in tests: answers "save the unsaved changes?".
        self.ask_unsaved: Callable[[str], UnsavedChoice] = lambda n: _ask_unsaved(self, n)
        self._draft: Profile | None = None  # a new profile, listed but not saved yet
        self._loaded_id: str | None = None
        self._baseline: str | None = None  # the editor's content as loaded (None: a draft)
        self.list = QListWidget()
        self.list.setObjectName("profileList")
        self.list.currentItemChanged.connect(self._selected)
        self.list.setToolTip("Drop a config file, a server.json or its text here to import it")
        self.drops = DropTarget(self.list, self.import_dropped_file, self.import_dropped_text)
        new_stdio = QPushButton("New")
        new_stdio.clicked.connect(self.new_profile)
        duplicate = QPushButton("Duplicate")
        duplicate.clicked.connect(self.duplicate)
        self.delete_button = QPushButton("Delete")
        self.delete_button.clicked.connect(self.delete_current)
        import_button = QPushButton("Import…")
        import_button.setToolTip(
            "Import servers from Claude Desktop, VS Code or Cursor, a server.json or a registry"
        )
        import_button.clicked.connect(self.open_import)
        list_buttons = QHBoxLayout()
        for b in (new_stdio, duplicate, self.delete_button, import_button):
            b.setAutoDefault(False)
            list_buttons.addWidget(b)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.list, 1)
        left_layout.addLayout(list_buttons)

        self.editor = ProfileEditor(store.secrets)
        self.editor.changed.connect(self._validate_live)
        self.save_button = QPushButton("Save")
        self.save_button.setDefault(True)  # Enter in the form saves
        self.save_button.clicked.connect(self.save)
        self.export_button = QToolButton()
        self.export_button.setText("Copy server entry")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        for fmt, label in FORMAT_LABELS.items():
            action = menu.addAction(f"as {label} config")
            action.triggered.connect(functools.partial(self.copy_entry, fmt))
        menu.addAction("as server.json").triggered.connect(self.copy_server_json)
        self.export_button.setMenu(menu)
        self.connect_button = QPushButton("Connect")
        self.connect_button.setAutoDefault(False)
        self.connect_button.clicked.connect(self._connect)
        self.close_button = QPushButton("Close")
        self.close_button.setAutoDefault(False)
        self.close_button.setToolTip("Close (asks first when there are unsaved changes)")
        self.close_button.clicked.connect(self.reject)
        self.status = PlainLabel(wrap=True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.connect_button)
        buttons.addWidget(self.close_button)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.editor, 1)
        right_layout.addLayout(buttons)

        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setSizes([280, 700])
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        store.refresh()  # what `profiles import` saved while the window was open
        store.on_changed(self.reload)
        self.reload()

    # ---------------------------------------------------------------- list
    def reload(self, select_id: str | None = None) -> None:
        """Rebuild the list. `select_id` loads that profile into the editor; without it the
        editor keeps what it shows (a change to the store never overwrites unsaved edits)."""
        self.list.blockSignals(True)
        self.list.clear()
        for profile in self.store.profiles:
            self._add_item(f"{profile.name}\n{target_line(profile)}", profile.id)
        if self._draft is not None:
            draft = self._draft
            item = self._add_item(f"{draft.name}  (not saved)\n{target_line(draft)}", _DRAFT)
            font = item.font()
            font.setItalic(True)
            item.setFont(font)
        self.list.blockSignals(False)
        if select_id is not None:
            self._load(select_id)
        elif self._loaded_id is None or self._row_of(self._loaded_id) < 0:
            if self._draft is None and self._loaded_id is not None and self.is_dirty():
                return  # the edited profile went away (deleted elsewhere): keep the edits
            self._load(self.store.profiles[0].id)
        else:
            self._show_row(self._loaded_id)

    def _add_item(self, text: str, key: str) -> QListWidgetItem:
        item = QListWidgetItem(text)
        item.setData(_ID_ROLE, key)
        self.list.addItem(item)
        return item

    def _row_of(self, key: str) -> int:
        for row in range(self.list.count()):
            if self.list.item(row).data(_ID_ROLE) == key:
                return row
        return -1

    def _show_row(self, key: str) -> None:
        self.list.blockSignals(True)
        self.list.setCurrentRow(self._row_of(key))
        self.list.blockSignals(False)

    def current_id(self) -> str | None:
        """The id of the profile in the editor (None for a new one not saved yet)."""
        return None if self._loaded_id in (None, _DRAFT) else self._loaded_id

    def select(self, profile_id: str) -> None:
        """Show `profile_id` in the editor (asks first about unsaved changes)."""
        if self._row_of(profile_id) >= 0 and self.confirm_leave():
            self._load(profile_id)
        else:
            self._show_row(self._loaded_id or "")

    def _selected(self, item: QListWidgetItem | None, _prev: object) -> None:
        if item is None:
            return
        key = item.data(_ID_ROLE)
        if not isinstance(key, str) or key == self._loaded_id:
            return
        if self.confirm_leave():
            self._load(key if self._row_of(key) >= 0 else self.store.profiles[0].id)
        else:
            self._show_row(self._loaded_id or "")  # stay where the edits are

    def _load(self, key: str) -> None:
        profile = self._draft if key == _DRAFT else self.store.get(key)
        if profile is None:
            return
        self.editor.load(profile)
        self._loaded_id = key
        self._baseline = None if key == _DRAFT else self._snapshot()
        self.delete_button.setEnabled(not profile.builtin)
        self.save_button.setEnabled(not profile.builtin)
        self.status.setText("")
        self._show_row(key)

    # ---------------------------------------------------------------- unsaved edits
    def _snapshot(self) -> str:
        return self.editor.profile().model_dump_json()

    def is_dirty(self) -> bool:
        """The editor holds something not saved: a new profile, or changed fields."""
        if self._loaded_id == _DRAFT:
            return True
        return self._baseline is not None and self._snapshot() != self._baseline

    def confirm_leave(self) -> bool:
        """True when the editor may be left: nothing unsaved, or the user saved or
        discarded it. False when the user cancelled (or saving failed)."""
        if not self.is_dirty():
            return True
        choice = self.ask_unsaved(self.editor.name.text() or "This profile")
        if choice == "cancel":
            return False
        if choice == "save":
            return self.save() is not None
        if self._loaded_id == _DRAFT:
            self._draft = None
            self._loaded_id = None
            self.reload()
        else:
            self._baseline = None  # discarded: leaving may not ask again
        return True

    def reject(self) -> None:
        """Esc, Close and the window's close button: ask first about unsaved edits."""
        if self.confirm_leave():
            super().reject()

    # ---------------------------------------------------------------- editing
    def _start_draft(self, profile: Profile, status: str) -> None:
        self._draft = profile
        self.reload(select_id=_DRAFT)
        self.delete_button.setEnabled(True)  # Delete drops the draft
        self.status.setText(status)

    def new_profile(self) -> None:
        if not self.confirm_leave():
            return
        profile = Profile(name=self.store.unique_name("New server"), stdio=StdioSettings())
        self._start_draft(profile, "A new profile: fill in the form and Save.")
        self.editor.name.setFocus()
        self.editor.name.selectAll()

    def duplicate(self) -> None:
        """A copy of what the editor shows (unsaved edits included: they go to the copy)."""
        source = self.editor.profile()
        source_id = self.current_id() or source.id
        copy = source.model_copy(deep=True, update={"builtin": False, "source": None})
        copy.id = Profile(name="x").id
        copy.name = self.store.unique_name(f"{source.name} copy")
        for env in copy.stdio.env:
            if env.secret and self.store.secrets is not None:
                env.value = env.value or self.store.secrets.get(source_id, "env", env.name) or ""
        for header in copy.http.headers:
            if header.secret and self.store.secrets is not None:
                header.value = (
                    header.value or self.store.secrets.get(source_id, "header", header.name) or ""
                )
        for slot, secret in copy.http.auth.secret_values():
            if secret.stored and not secret.value and self.store.secrets is not None:
                secret.value = self.store.secrets.get(source_id, "auth", slot) or ""
                secret.stored = False  # the copy's own slot is empty until it is saved
        self._start_draft(copy, "A copy: change it and Save.")

    def _validate_live(self) -> None:
        profile = self.editor.profile()
        row = self._row_of(_DRAFT) if self._loaded_id == _DRAFT else -1
        if row >= 0:  # the unsaved new profile's entry follows its name and target
            self.list.item(row).setText(f"{profile.name}  (not saved)\n{target_line(profile)}")
        if profile.builtin:
            return
        self.editor.show_problems(validate_profile(profile, self.store.profiles))

    def save(self) -> Profile | None:
        profile = self.editor.profile()
        problems = validate_profile(profile, self.store.profiles)
        self.editor.show_problems(problems)
        if any(p.severity == "error" for p in problems):
            self.status.setText("Not saved: fix the problems below the form.")
            return None
        draft = self._draft if self._loaded_id == _DRAFT else None
        try:
            saved = store_keeping_secrets(
                lambda session_only: self.store.put(profile, session_only_secrets=session_only),
                self.ask_session_only,
            )
        except ValueError as exc:
            self.status.setText(f"Not saved: {exc}")
            return None
        if saved is None:
            self.status.setText("Not saved: the secret values could not be stored.")
            return None
        if draft is not None:
            self._draft = None
        self.reload(select_id=saved.id)
        self.editor.show_problems(problems)  # warnings stay visible after saving
        self.status.setText(f"Saved “{saved.name}”.")
        return saved

    def delete_current(self) -> None:
        if self._loaded_id == _DRAFT:
            self._draft = None
            self._loaded_id = None
            self.reload(select_id=self.store.profiles[0].id)
            return
        profile_id = self.current_id()
        if profile_id is None:
            return
        try:
            self.store.delete(profile_id)
        except ValueError as exc:
            self.status.setText(str(exc))
            return
        self._loaded_id = None
        self.reload(select_id=self.store.profiles[0].id)

    def copy_entry(self, fmt: ConfigFormat) -> str:
        text = export_snippet(self.editor.profile(), fmt)
        QGuiApplication.clipboard().setText(text)
        self.status.setText(
            f"Copied a {FORMAT_LABELS[fmt]} server entry (secret values are placeholders)."
        )
        return text

    def copy_server_json(self) -> str | None:
        text, sentence = server_json_text(self.editor.profile())
        if text is not None:
            QGuiApplication.clipboard().setText(text)
        self.status.setText(sentence)
        return text

    def _connect(self) -> None:
        profile = self.editor.profile()
        saved = self.store.get(profile.id)
        changed = saved is not None and (
            saved.stored_form() != profile.stored_form() or profile.has_typed_secrets()
        )
        if saved is None or (not saved.builtin and changed):
            stored = self.save()
            if stored is None:
                # Never a silent no: say why nothing starts (issue 31, item 4).
                errors = [
                    p.message
                    for p in validate_profile(profile, self.store.profiles)
                    if p.severity == "error"
                ]
                if errors:
                    self.status.setText(f"Cannot connect: {errors[0]}")
                return
            profile = stored
        else:
            profile = saved
        self.connect_requested.emit(profile)
        self.accept()

    # ---------------------------------------------------------------- import
    def open_import(self) -> ImportDialog:
        """The import dialog, open (not modal to the app's loop: the registry tab reads
        the network while it is open); the list shows what it added when it closes."""
        dialog = ImportDialog(self.store, self, settings=self.settings)
        dialog.ask_session_only = self.ask_session_only
        dialog.finished.connect(lambda _result: self._imported(dialog))
        dialog.open()
        return dialog

    def _imported(self, dialog: ImportDialog) -> None:
        if dialog.added and self.confirm_leave():
            self.reload(select_id=dialog.added[0].id)

    def import_dropped_file(self, path: Path) -> ImportDialog:
        dialog = self.open_import()
        dialog.load_file(path)
        return dialog

    def import_dropped_text(self, text: str) -> ImportDialog:
        dialog = self.open_import()
        dialog.drop_text(text)
        return dialog
