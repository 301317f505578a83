"""The "Save call…" dialog: which collection file (the profile's last one, recent ones, a
new one next to the server's code, or another file), the call's name, and the assertions
to add: the outcome, a JSON Pointer equals a value, latency under N ms, the current result
as a snapshot. Saving reads the file (an invalid one is never overwritten), adds the call
and writes it back through the collection model.
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
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from inspector.collections.file import CollectionError, load_collection, save_collection
from inspector.collections.model import Collection, SavedCall
from inspector.collections.pointer import parse_pointer
from inspector.collections.saving import default_name
from inspector.features.forms.secret_fields import DEFAULT_SECRET_NAMES
from inspector.ui.collections.drafts import (
    AssertionChoices,
    DraftError,
    Outcome,
    saved_call,
    secret_arguments,
    suggested_pointer,
)
from inspector.ui.widgets.code_view import code_view
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.screen_fit import fit_to_screen
from inspector.ui.widgets.theme import colors
from inspector.ui.workspace.call_draft import CallDraft

__all__ = ["SaveCallDialog", "add_to_file"]

_FILTER: Final = "Collections (*.json);;All files (*)"
_OUTCOMES: Final[tuple[tuple[str, Outcome], ...]] = (
    ("ok (a result, not isError)", "ok"),
    ("isError: true (the tool failed)", "isError"),
    ("a JSON-RPC error", "error"),
    ("a timeout", "timeout"),
)
_PREVIEW_LIMIT: Final = 20_000


def add_to_file(path: Path, call: SavedCall, *, replace: bool) -> SavedCall:
    """Add `call` to the collection in `path` (a new file when there is none) and write
    it. With `replace`, a call of the same name is replaced; without, a taken name gets a
    " (2)". Raises CollectionError (the file is invalid: it is left as it is) or OSError."""
    if path.exists():
        collection = load_collection(path)
    else:
        collection = Collection(name=path.name.split(".")[0])
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
    ) -> None:
        """`files`: the collections to offer, the last used first. `new_file`: where a new
        collection goes by default. `schema`: the tool's inputSchema (secret fields)."""
        super().__init__(parent)
        self.setObjectName("saveCallDialog")
        self.setWindowTitle("Save call")
        self.draft = draft
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
        fit_to_screen(self, 640, 480)

    # ---------------------------------------------------------------- assertions
    def _build_assertions(self) -> QGroupBox:
        draft = self.draft
        box = QGroupBox("Assertions (checked when the collection runs)")
        grid = QFormLayout(box)
        outcome = draft.outcome
        self.outcome_box = QCheckBox("Outcome is")
        self.outcome_box.setObjectName("assertOutcome")
        self.outcome_box.setChecked(True)
        self.outcome_combo = QComboBox()
        self.outcome_combo.setObjectName("outcomeKind")
        for text, value in _OUTCOMES:
            self.outcome_combo.addItem(text, value)
        self.outcome_combo.setCurrentIndex(
            next((i for i, (_t, v) in enumerate(_OUTCOMES) if v == (outcome or "ok")), 0)
        )
        self.code_spin = QSpinBox()
        self.code_spin.setObjectName("outcomeCode")
        self.code_spin.setRange(-(2**31), 2**31 - 1)
        self.code_spin.setValue(draft.error_code if draft.error_code is not None else -32603)
        self.code_spin.setPrefix("code ")
        self.code_spin.setToolTip("The JSON-RPC error code expected")
        self.outcome_combo.currentIndexChanged.connect(self._outcome_changed)
        row = QHBoxLayout()
        row.addWidget(self.outcome_combo, 1)
        row.addWidget(self.code_spin)
        grid.addRow(self.outcome_box, row)
        self._outcome_changed()

        self.pointer_box = QCheckBox("Value at")
        self.pointer_box.setObjectName("assertPointer")
        self.pointer_edit = QLineEdit()
        self.pointer_edit.setObjectName("pointer")
        self.pointer_edit.setPlaceholderText("/content/0/text")
        self.pointer_edit.setToolTip(plain_tooltip("A JSON Pointer into the result (RFC 6901)"))
        self.value_edit = QLineEdit()
        self.value_edit.setObjectName("pointerValue")
        self.value_edit.setPlaceholderText('equals this JSON, e.g. "Echo: hi" or 42')
        suggestion = suggested_pointer(draft.result)
        if suggestion is not None:
            pointer, value = suggestion
            self.pointer_edit.setText(pointer)
            self.value_edit.setText(json.dumps(value, ensure_ascii=False))
            self.value_edit.setCursorPosition(0)
        self.pointer_edit.textEdited.connect(lambda _t: self.pointer_box.setChecked(True))
        self.value_edit.textEdited.connect(lambda _t: self.pointer_box.setChecked(True))
        row = QHBoxLayout()
        row.addWidget(self.pointer_edit, 2)
        row.addWidget(PlainLabel("equals"))
        row.addWidget(self.value_edit, 3)
        grid.addRow(self.pointer_box, row)

        self.latency_box = QCheckBox("Latency under")
        self.latency_box.setObjectName("assertLatency")
        self.latency_spin = QSpinBox()
        self.latency_spin.setObjectName("latencyMs")
        self.latency_spin.setRange(1, 3_600_000)
        self.latency_spin.setSuffix(" ms")
        seen = draft.latency_ms
        self.latency_spin.setValue(max(1000, int((seen or 0) * 5 // 100 * 100)))
        if seen is not None:
            self.latency_spin.setToolTip(plain_tooltip(f"This call took {seen:.0f} ms"))
        self.latency_spin.valueChanged.connect(lambda _v: self.latency_box.setChecked(True))
        grid.addRow(self.latency_box, self.latency_spin)

        self.snapshot_box = QCheckBox("Snapshot the current result")
        self.snapshot_box.setObjectName("assertSnapshot")
        if draft.result is None:
            self.snapshot_box.setEnabled(False)
            self.snapshot_box.setToolTip("Run the call first: there is no result to keep")
        else:
            self.snapshot_box.setToolTip(
                "The result must stay the same (volatile fields such as timestamps and ids "
                "are ignored); “Update snapshot” in the Collections panel takes a new one"
            )
        grid.addRow(self.snapshot_box)
        if draft.outcome is None:
            note = _muted(PlainLabel("The call has not run here: only its request is known."))
            grid.addRow(note)
        return box

    def _outcome_changed(self, _index: int = 0) -> None:
        self.code_spin.setVisible(self.outcome_combo.currentData() == "error")

    def choices(self) -> AssertionChoices:
        """The assertions as the dialog shows them. Raises DraftError (bad pointer or JSON)."""
        outcome: Outcome | None = None
        if self.outcome_box.isChecked():
            outcome = self.outcome_combo.currentData()
        pointer: str | None = None
        value: Any = None
        if self.pointer_box.isChecked():
            pointer = self.pointer_edit.text().strip()
            try:
                parse_pointer(pointer)
            except ValueError as exc:
                raise DraftError(str(exc)) from exc
            try:
                value = json.loads(self.value_edit.text())
            except ValueError as exc:
                raise DraftError(
                    f'the value is not JSON ({exc}); write a string in quotes: "text"'
                ) from exc
        return AssertionChoices(
            outcome=outcome,
            error_code=self.code_spin.value(),
            pointer=pointer,
            pointer_value=value,
            latency_ms=float(self.latency_spin.value()) if self.latency_box.isChecked() else None,
            snapshot=self.snapshot_box.isChecked(),
        )

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
        try:
            call = saved_call(
                self.draft,
                self.name_edit.text(),
                self.choices(),
                schema=self.schema,
                secret_names=self.secret_names,
            )
        except DraftError as exc:
            self.fail(f"Cannot save: {exc}.")
            return None
        try:
            call = add_to_file(path, call, replace=self.replace_box.isChecked())
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
