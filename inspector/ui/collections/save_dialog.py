"""The "Save call…" dialog: which collection file (the profile's last one, recent ones, a
new one next to the server's code, or another file), the call's name, and its assertions:
a compact table of every kind the file knows (`assertion_editor`), each checked as typed.
Saving reads the file (an invalid one is never overwritten), adds the call (and the
tool's catalog entry, for "tool is listed" and "inputSchema unchanged") and writes it
back through the collection model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.collections.assertion_rows import (
    add_catalog_entry,
    build_assertions,
    catalog_entry,
)
from inspector.collections.call_draft import CallDraft
from inspector.collections.collection import Assertion, Collection, SavedCall
from inspector.collections.drafts import DraftError, saved_call, secret_arguments
from inspector.collections.file import CollectionError, load_collection, save_collection
from inspector.collections.saving import default_name
from inspector.features.forms.secret_fields import DEFAULT_SECRET_NAMES
from inspector.ui.collections.assertion_editor import AssertionEditor
from inspector.ui.widgets.code_view import code_view
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.screen_fit import fit_to_screen
from inspector.ui.widgets.theme import colors

__all__ = ["SaveCallDialog", "add_to_file"]

_FILTER: Final = "Collections (*.json);;All files (*)"
_PREVIEW_LIMIT: Final = 20_000


def add_to_file(
    path: Path, call: SavedCall, *, replace: bool, catalog: SavedCall | None = None
) -> SavedCall:
    """Add `call` to the collection in `path` (a new file when there is none) and write
    it. With `replace`, a call of the same name is replaced; without, a taken name gets a
    " (2)". `catalog`: the tool's catalog entry, merged into the one of the file (or added
    before the call). Raises CollectionError (the file is invalid: it is left as it is) or
    OSError."""
    if path.exists():
        collection = load_collection(path)
    else:
        collection = Collection(name=path.name.split(".")[0])
        path.parent.mkdir(parents=True, exist_ok=True)  # the data folder's collections/
    if catalog is not None:
        add_catalog_entry(collection, catalog)
    if replace:
        collection.put(call)
    else:
        call = collection.add(call)
    save_collection(path, collection)
    return call


def _muted(label: PlainLabel) -> PlainLabel:
    label.setStyleSheet(f"color: {colors().muted.name()}")
    return label


class SaveCallDialog(QDialog):
    saved = Signal(object, str)  # the file (Path), the call's name as saved

    def __init__(
        self,
        draft: CallDraft,
        files: list[Path],
        new_file: Path,
        parent: QWidget | None = None,
        *,
        schema: dict[str, Any] | None = None,
        secret_names: list[str] | None = None,
        tool: dict[str, Any] | None = None,
    ) -> None:
        """`files`: the collections to offer, the last used first. `new_file`: where a new
        collection goes by default. `schema`: the tool's inputSchema (secret fields);
        `tool`: its whole definition from tools/list (outputSchema and inputSchema
        assertions), when known."""
        super().__init__(parent)
        self.setObjectName("saveCallDialog")
        self.setWindowTitle("Save call")
        self.draft = draft
        self.tool = tool
        if schema is None and tool is not None and isinstance(tool.get("inputSchema"), dict):
            schema = tool["inputSchema"]
        self.schema = schema
        self.secret_names = (
            list(secret_names) if secret_names is not None else list(DEFAULT_SECRET_NAMES)
        )
        self.new_file = new_file
        self.saved_call: SavedCall | None = None

        self.file_combo = QComboBox()
        self.file_combo.setObjectName("collectionFile")
        self.file_combo.setMinimumContentsLength(40)
        self.file_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        for path in files:
            self._add_file(path)
        if not files:
            self._add_file(new_file)
        self.file_combo.currentIndexChanged.connect(self._file_changed)
        new_button = QPushButton("New…")
        new_button.setToolTip("A new collection file (next to the server's code by default)")
        new_button.clicked.connect(self.choose_new)
        open_button = QPushButton("Open…")
        open_button.setToolTip("Add to another collection file")
        open_button.clicked.connect(self.choose_existing)
        file_row = QHBoxLayout()
        file_row.addWidget(self.file_combo, 1)
        file_row.addWidget(new_button)
        file_row.addWidget(open_button)
        self.file_note = _muted(PlainLabel(wrap=True))
        self.file_note.setObjectName("collectionFileNote")

        self.name_edit = QLineEdit(default_name(draft.method, draft.params))
        self.name_edit.setObjectName("callName")
        self.replace_box = QCheckBox("Replace the call of this name")
        self.replace_box.setObjectName("replaceCall")
        self.replace_box.setToolTip("Otherwise the call is saved under a new name, “name (2)”")

        title = f"{draft.method}"
        self.request = code_view("savedRequest")
        params = json.dumps(self._params_as_saved(), indent=2, ensure_ascii=False)
        if len(params) > _PREVIEW_LIMIT:
            params = params[:_PREVIEW_LIMIT] + "\n… (shortened here; saved in full)"
        self.request.setPlainText(params)
        self.request.setMaximumHeight(self.request.fontMetrics().height() * 8)
        self.secret_note = PlainLabel(wrap=True)
        self.secret_note.setObjectName("secretNote")
        self.secret_note.setStyleSheet(f"color: {colors().warn.name()}")
        self._show_secrets()

        form = QFormLayout()
        form.addRow("Collection:", file_row)
        form.addRow("", self.file_note)
        form.addRow("Name:", self.name_edit)
        form.addRow("", self.replace_box)
        form.addRow(PlainLabel(f"{title}:"), self.request)
        form.addRow("", self.secret_note)

        self.assertions = self._build_assertions()
        self.error_label = PlainLabel(wrap=True)
        self.error_label.setObjectName("saveCallError")
        self.error_label.setStyleSheet(f"color: {colors().error.name()}")
        self.error_label.setVisible(False)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.assertions)
        layout.addWidget(self.error_label)
        layout.addStretch(1)
        layout.addWidget(buttons)
        self._file_changed()
        fit_to_screen(self, 640, 580)  # room for the assertion table's five rows

    # ---------------------------------------------------------------- assertions
    def _build_assertions(self) -> QGroupBox:
        box = QGroupBox("Assertions (checked when the collection runs)")
        layout = QVBoxLayout(box)
        self.assertion_editor = AssertionEditor(self.draft, self.tool)
        self.assertion_editor.changed.connect(self._assertions_changed)
        layout.addWidget(self.assertion_editor)
        if self.draft.outcome is None:
            note = _muted(PlainLabel("The call has not run here: only its request is known."))
            layout.addWidget(note)
        return box

    def _assertions_changed(self) -> None:
        """A refused save's message goes once the assertion it named is fixed."""
        fixed = self.assertion_editor.problem.isHidden()
        if fixed and self.error_label.text().startswith("Cannot save: assertion"):
            self.error_label.setVisible(False)

    def picked_assertions(self) -> tuple[tuple[Assertion, ...], tuple[Assertion, ...]]:
        """(the call's assertions, its tool's catalog assertions). Raises RowError."""
        return build_assertions(self.assertion_editor.rows(), self.draft, self.tool)

    # ---------------------------------------------------------------- files
    def _add_file(self, path: Path) -> int:
        path = path.absolute()
        for i in range(self.file_combo.count()):
            if self.file_combo.itemData(i) == str(path):
                return i
        self.file_combo.addItem(str(path), str(path))
        index = self.file_combo.count() - 1
        self.file_combo.setItemData(index, plain_tooltip(str(path)), Qt.ItemDataRole.ToolTipRole)
        return index

    def use_file(self, path: Path) -> None:
        self.file_combo.setCurrentIndex(self._add_file(path))
        self._file_changed()

    def current_file(self) -> Path | None:
        data = self.file_combo.currentData()
        return Path(data) if data else None

    def _file_changed(self, _index: int = 0) -> None:
        path = self.current_file()
        if path is None:
            self.file_note.setText("")
        elif path.exists():
            self.file_note.setText("The call is added to this collection.")
        else:
            self.file_note.setText("A new collection file is created here.")

    def choose_new(self) -> None:
        name, _ = QFileDialog.getSaveFileName(self, "New collection", str(self.new_file), _FILTER)
        if name:
            self.use_file(Path(name))

    def choose_existing(self) -> None:
        start = self.current_file() or self.new_file
        name, _ = QFileDialog.getOpenFileName(self, "Add to collection", str(start.parent), _FILTER)
        if name:
            self.use_file(Path(name))

    # ---------------------------------------------------------------- saving
    def _secret_refs(self) -> dict[str, str]:
        raw = self.draft.params.get("arguments")
        arguments = raw if isinstance(raw, dict) else {}
        return secret_arguments(arguments, self.schema, self.secret_names)

    def _params_as_saved(self) -> dict[str, Any]:
        """The request as the file will hold it: secret arguments as `${env:NAME}`."""
        params = dict(self.draft.params)
        refs = self._secret_refs()
        if refs and isinstance(params.get("arguments"), dict):
            params["arguments"] = {**params["arguments"], **refs}
        return params

    def _show_secrets(self) -> None:
        refs = self._secret_refs()
        parts = [f"{k} as {v}" for k, v in refs.items()]
        self.secret_note.setText(
            "Secrets stay out of the file: " + ", ".join(parts) + " (set it before running)"
            if parts
            else ""
        )
        self.secret_note.setVisible(bool(parts))

    def fail(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setVisible(True)

    def save(self) -> SavedCall | None:
        """Write the call into the chosen file; on success the dialog closes."""
        path = self.current_file()
        if path is None:
            self.fail("Choose a collection file.")
            return None
        problem = self.assertion_editor.check()
        if problem is not None:
            self.fail(f"Cannot save: assertion {problem.row + 1} is not valid (see above).")
            self.assertion_editor.table.selectRow(problem.row)
            return None
        own, catalog = self.picked_assertions()
        try:
            call = saved_call(
                self.draft,
                self.name_edit.text(),
                own,
                schema=self.schema,
                secret_names=self.secret_names,
            )
        except DraftError as exc:
            self.fail(f"Cannot save: {exc}.")
            return None
        entry = catalog_entry(str(call.tool), catalog) if catalog else None
        try:
            call = add_to_file(path, call, replace=self.replace_box.isChecked(), catalog=entry)
        except CollectionError as exc:
            self.fail(f"The collection file is not valid, so it was left as it is:\n{exc}")
            return None
        except OSError as exc:
            self.fail(f"Cannot write {path}: {exc.strerror or exc}")
            return None
        self.saved_call = call
        self.saved.emit(path, call.name)
        self.accept()
        return call
