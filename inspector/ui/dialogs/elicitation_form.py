"""The form for an elicitation's requestedSchema (a flat object of primitive fields).

Built from `inspector.elicitation.ElicitForm` (parsed and checked without Qt). Each field
gets an editor, a required marker, its description as help text, and an error label
next to it; `values()` returns the content to send (unset optional fields left out).
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, Signal, SignalInstance
from PySide6.QtGui import QDoubleValidator, QIntValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.elicitation import ElicitField, ElicitForm, parse_json_value
from inspector.ui.dialogs.ask_dialog import plain
from inspector.ui.theme import colors

__all__ = ["ElicitationForm"]

_UNSET = "(not set)"
_PLACEHOLDERS = {
    "email": "name@example.com",
    "uri": "https://…",
    "date": "YYYY-MM-DD",
    "date-time": "YYYY-MM-DDTHH:MM:SSZ",
}


def _number_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class _FieldEditor:
    """One field: its editor widget and how to read it."""

    def __init__(self, field: ElicitField, changed: SignalInstance) -> None:
        self.field = field
        self.widget = self._build(field, changed)
        self.error = QLabel()
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setStyleSheet(f"color: {colors().error.name()};")
        self.error.hide()

    def _build(self, f: ElicitField, changed: SignalInstance) -> QWidget:
        if f.kind == "boolean":
            box = QCheckBox(f.label)
            box.setChecked(bool(f.default))
            box.toggled.connect(lambda *_: changed.emit())
            return box
        if f.kind == "enum":
            combo = QComboBox()
            if not f.required or f.default is None:
                combo.addItem(_UNSET, None)
            for value, label in f.options:
                combo.addItem(label if label == value else f"{label}  ({value})", value)
            if f.default is not None:
                combo.setCurrentIndex(max(0, combo.findData(str(f.default))))
            combo.currentIndexChanged.connect(lambda *_: changed.emit())
            return combo
        if f.kind == "multi":
            lst = QListWidget()
            chosen = set(f.default or [])
            for value, label in f.options:
                item = QListWidgetItem(label if label == value else f"{label}  ({value})")
                item.setData(Qt.ItemDataRole.UserRole, value)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(
                    Qt.CheckState.Checked if value in chosen else Qt.CheckState.Unchecked
                )
                lst.addItem(item)
            rows = min(len(f.options), 6)
            lst.setMaximumHeight(lst.sizeHintForRow(0) * rows + 2 * lst.frameWidth() + 4)
            lst.itemChanged.connect(lambda *_: changed.emit())
            return lst
        edit = QLineEdit()
        if f.kind == "integer":
            edit.setValidator(QIntValidator())
        elif f.kind == "number":
            validator = QDoubleValidator()
            validator.setNotation(QDoubleValidator.Notation.StandardNotation)
            edit.setValidator(validator)
        if f.kind in ("integer", "number"):
            bounds = []
            if f.minimum is not None:
                bounds.append(f"≥ {f.minimum:g}")
            if f.maximum is not None:
                bounds.append(f"≤ {f.maximum:g}")
            edit.setPlaceholderText(" and ".join(bounds) or f.kind)
        elif f.kind == "json":
            edit.setPlaceholderText("JSON value")
        elif f.format:
            edit.setPlaceholderText(_PLACEHOLDERS.get(f.format, f.format))
        if f.max_length is not None:
            edit.setMaxLength(max(f.max_length, 0) or 32767)
        if f.default is not None:
            if f.kind in ("integer", "number"):
                edit.setText(_number_text(f.default))
            elif f.kind == "json":
                edit.setText(json.dumps(f.default, ensure_ascii=False))
            else:
                edit.setText(str(f.default))
        edit.textChanged.connect(lambda *_: changed.emit())
        return edit

    def value(self) -> tuple[Any, str | None]:
        """(value, parse error); value None means unset."""
        f, w = self.field, self.widget
        if isinstance(w, QCheckBox):
            return w.isChecked(), None
        if isinstance(w, QComboBox):
            return w.currentData(), None
        if isinstance(w, QListWidget):
            checked = []
            for i in range(w.count()):
                item = w.item(i)
                if item.checkState() == Qt.CheckState.Checked:
                    checked.append(item.data(Qt.ItemDataRole.UserRole))
            return checked, None
        assert isinstance(w, QLineEdit)
        text = w.text()
        if text.strip() == "":
            return None, None
        if f.kind == "integer":
            try:
                return int(text.strip()), None
            except ValueError:
                return None, "not a whole number"
        if f.kind == "number":
            try:
                number = float(text.strip().replace(",", "."))
            except ValueError:
                return None, "not a number"
            return (int(number) if number.is_integer() else number), None
        if f.kind == "json":
            return parse_json_value(text)
        return text, None

    def set_error(self, message: str | None) -> None:
        self.error.setText(message or "")
        self.error.setVisible(bool(message))


class ElicitationForm(QWidget):
    changed = Signal()

    def __init__(self, form: ElicitForm) -> None:
        super().__init__()
        self.form = form
        self.editors: dict[str, _FieldEditor] = {}
        layout = QFormLayout(self)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for f in form.fields:
            editor = _FieldEditor(f, self.changed)
            self.editors[f.name] = editor
            cell = QWidget()
            column = QVBoxLayout(cell)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(2)
            column.addWidget(editor.widget)
            if f.description:
                help_text = plain(f.description)
                help_text.setEnabled(False)  # muted
                column.addWidget(help_text)
            column.addWidget(editor.error)
            label = "" if f.kind == "boolean" else f.label + (" *" if f.required else "")
            layout.addRow(plain(label, wrap=False) if label else QLabel(), cell)
        if not form.fields:
            layout.addRow(plain("The server asks for no fields: accept, decline or cancel."))

    def values(self) -> tuple[dict[str, Any], dict[str, str]]:
        """(content, parse errors per field)."""
        content: dict[str, Any] = {}
        errors: dict[str, str] = {}
        for name, editor in self.editors.items():
            value, error = editor.value()
            if error:
                errors[name] = error
            elif value is not None:
                content[name] = value
        return content, errors

    def show_errors(self, errors: dict[str, str]) -> None:
        for name, editor in self.editors.items():
            editor.set_error(errors.get(name))

    def widget(self, name: str) -> QWidget:
        """The editor of field `name` (for tests and focus)."""
        return self.editors[name].widget
