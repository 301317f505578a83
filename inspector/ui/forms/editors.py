"""Typed editors for one schema field each: string, number, boolean, enum, multi-select, JSON.

An editor shows one value and reads it back: `get()` returns the value or UNSET (left
empty: omitted), `put(value)` shows a value and returns False when it cannot (the row then
falls back to a JSON editor, so nothing the user or the JSON view set is ever lost).
Objects and arrays live in containers.py.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.features.forms.fields import UNSET, FieldSpec, format_number, parse_number
from inspector.ui.forms.number_edit import NumberEdit

__all__ = [
    "BoolEditor",
    "Editor",
    "EnumEditor",
    "JsonFieldEditor",
    "MultiEnumEditor",
    "NumberEditor",
    "StringEditor",
    "same_json",
]

_PLACEHOLDERS = {
    "email": "name@example.com",
    "uri": "https://…",
    "url": "https://…",
    "date": "YYYY-MM-DD",
    "date-time": "YYYY-MM-DDTHH:MM:SSZ",
    "time": "HH:MM:SS",
    "uuid": "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
    "ipv4": "192.0.2.1",
    "hostname": "example.com",
}


_VISIBLE_CHOICES = 8


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values (True is not 1, 1 is 1.0)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


class Editor(QWidget):
    changed = Signal()

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec

    def get(self) -> Any:
        raise NotImplementedError

    def put(self, value: Any) -> bool:
        raise NotImplementedError

    def problems(self) -> list[str]:
        """What the editor itself knows is wrong (e.g. text that is not JSON)."""
        return []

    def set_enabled_value(self, enabled: bool) -> None:
        self.setEnabled(enabled)


def _row(parent: QWidget) -> QHBoxLayout:
    layout = QHBoxLayout(parent)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(4)
    return layout


class StringEditor(Editor):
    """A line, or several lines for long text; format hints as placeholders."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self._layout = _row(self)
        self.line_edit: QLineEdit | None = None
        self.text_edit: QPlainTextEdit | None = None
        if spec.multiline:
            self._make_multiline("")
        else:
            self._make_line()
        if spec.format == "password" or spec.secret:
            self._add_reveal()
        elif spec.format in ("date", "date-time"):
            fill = QToolButton(self)
            fill.setText("Today" if spec.format == "date" else "Now")
            fill.setToolTip("Fill in the current " + ("date" if spec.format == "date" else "time"))
            fill.clicked.connect(self._fill_now)
            self._layout.addWidget(fill)
        if not spec.multiline and not spec.secret and not spec.format and not spec.read_only:
            expand = QToolButton(self)
            expand.setText("⤢")
            expand.setToolTip("Edit on several lines")
            expand.setAutoRaise(True)
            expand.clicked.connect(lambda: self._make_multiline(self._text()))
            self._expand = expand
            self._layout.addWidget(expand)

    def _make_line(self) -> None:
        edit = QLineEdit(self)
        edit.setPlaceholderText(self._placeholder())
        if self.spec.max_length is not None:
            edit.setMaxLength(max(self.spec.max_length, 1) + 1000)  # let validation say "too long"
        edit.textChanged.connect(self.changed)
        if self.spec.read_only:
            edit.setReadOnly(True)
        self.line_edit = edit
        self._layout.insertWidget(0, edit, 1)

    def _make_multiline(self, text: str) -> None:
        if self.text_edit is not None:
            return
        edit = QPlainTextEdit(self)
        edit.setPlaceholderText(self._placeholder())
        edit.setTabChangesFocus(True)
        edit.setFixedHeight(max(edit.fontMetrics().lineSpacing() * 5 + 12, 72))
        edit.setPlainText(text)
        edit.textChanged.connect(self.changed)
        if self.line_edit is not None:
            self._layout.removeWidget(self.line_edit)
            self.line_edit.deleteLater()
            self.line_edit = None
            expand = getattr(self, "_expand", None)
            if isinstance(expand, QToolButton):
                expand.hide()
        self.text_edit = edit
        self._layout.insertWidget(0, edit, 1)
        self.changed.emit()

    def _placeholder(self) -> str:
        fmt = self.spec.format or ""
        if fmt in _PLACEHOLDERS:
            return _PLACEHOLDERS[fmt]
        if self.spec.pattern:
            return f"matches {self.spec.pattern}"[:80]
        return ""

    def _add_reveal(self) -> None:
        if self.line_edit is None:
            return
        self.line_edit.setEchoMode(QLineEdit.EchoMode.Password)
        reveal = QToolButton(self)
        reveal.setText("Show")
        reveal.setCheckable(True)
        reveal.setToolTip("Show or hide the value (it is never remembered)")

        def toggled(on: bool) -> None:
            if self.line_edit is not None:
                mode = QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password
                self.line_edit.setEchoMode(mode)
            reveal.setText("Hide" if on else "Show")

        reveal.toggled.connect(toggled)
        self._layout.addWidget(reveal)

    def _fill_now(self) -> None:
        if self.spec.format == "date":
            self._set_text(date.today().isoformat())
        else:
            now = datetime.now(UTC).replace(microsecond=0)
            self._set_text(now.isoformat().replace("+00:00", "Z"))

    def _text(self) -> str:
        if self.text_edit is not None:
            return self.text_edit.toPlainText()
        return self.line_edit.text() if self.line_edit is not None else ""

    def _set_text(self, text: str) -> None:
        if "\n" in text and self.text_edit is None:
            self._make_multiline(text)
            return
        if self.text_edit is not None:
            if self.text_edit.toPlainText() != text:
                self.text_edit.setPlainText(text)
        elif self.line_edit is not None and self.line_edit.text() != text:
            self.line_edit.setText(text)

    def get(self) -> Any:
        text = self._text()
        if not text and not self.spec.keep_empty:
            return UNSET
        return text

    def put(self, value: Any) -> bool:
        if value is UNSET:
            self._set_text("")
            return True
        if not isinstance(value, str):
            return False
        self._set_text(value)
        return True


class NumberEditor(Editor):
    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        integer = spec.kind == "integer"
        step = spec.step if spec.step is not None else 1.0
        self.edit = NumberEdit(integer, spec.minimum, spec.maximum, step, self)
        self.edit.textChanged.connect(self.changed)
        self.edit.setReadOnly(spec.read_only)
        _row(self).addWidget(self.edit, 1)

    def get(self) -> Any:
        value = parse_number(self.edit.text(), self.spec.kind == "integer")
        if value is UNSET and self.spec.keep_empty:
            return None
        return value

    def put(self, value: Any) -> bool:
        if value is UNSET:
            self.edit.clear()
            return True
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        self.edit.setText(format_number(value))
        return True


class BoolEditor(Editor):
    """A two-state checkbox; when the field may be omitted it starts "not set" and a Clear
    button brings "not set" back. One click always gives true from "not set" (Qt's own
    tristate cycle went false → not set → true)."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.box = QCheckBox(self)
        self.tristate = not spec.required and not spec.keep_empty  # "not set" is possible
        self._unset = self.tristate
        self.clear_button = QToolButton(self)
        self.clear_button.setText("Clear")
        self.clear_button.setToolTip("Leave this field out of the request (not set)")
        self.clear_button.setAutoRaise(True)
        self.clear_button.clicked.connect(self.clear)
        self.box.clicked.connect(self._clicked)  # the user's click, not setCheckState
        self.box.stateChanged.connect(self._on_state)
        row = _row(self)
        row.addWidget(self.box)
        row.addWidget(self.clear_button)
        row.addStretch(1)
        self._on_state()

    @property
    def is_unset(self) -> bool:
        return self._unset

    def clear(self) -> None:
        """Back to "not set" (the field is left out)."""
        if self.tristate:
            self._unset = True
            self.box.blockSignals(True)
            self.box.setCheckState(Qt.CheckState.Unchecked)
            self.box.blockSignals(False)
            self._on_state()

    def _clicked(self, _checked: bool) -> None:
        self._unset = False
        self._on_state()

    def _on_state(self) -> None:
        if self._unset and self.box.checkState() == Qt.CheckState.Checked:
            self._unset = False  # checked from code (a test, an accessibility tool)
        if self._unset:
            text = "not set"
        else:
            text = "true" if self.box.checkState() == Qt.CheckState.Checked else "false"
        self.box.setText(text)
        self.clear_button.setVisible(self.tristate and not self._unset)
        self.changed.emit()

    def get(self) -> Any:
        if self._unset:
            return UNSET
        return self.box.checkState() == Qt.CheckState.Checked

    def put(self, value: Any) -> bool:
        if value is UNSET:
            self.clear()
            if not self.tristate:
                self.box.setCheckState(Qt.CheckState.Unchecked)
            return True
        if not isinstance(value, bool):
            return False
        self._unset = False
        state = Qt.CheckState.Checked if value else Qt.CheckState.Unchecked
        self.box.blockSignals(True)
        self.box.setCheckState(state)
        self.box.blockSignals(False)
        self._on_state()
        return True


class EnumEditor(Editor):
    """A drop-down of the enum's values, labelled with their titles (oneOf const/title or
    the legacy enumNames); a "(not set)" entry when the field may be left out."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.combo = QComboBox(self)
        self.combo.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.has_blank = not spec.keep_empty and not spec.read_only
        if self.has_blank:
            self.combo.addItem("(not set)" if not spec.required else "(choose…)")
        for choice in spec.choices:
            shown = choice.label
            if choice.label != _as_text(choice.value):
                shown = f"{choice.label}  ({_as_text(choice.value)})"
            self.combo.addItem(shown)
        self.combo.setEnabled(not spec.read_only)
        self.combo.currentIndexChanged.connect(self.changed)
        _row(self).addWidget(self.combo, 1)

    def get(self) -> Any:
        index = self.combo.currentIndex() - (1 if self.has_blank else 0)
        if index < 0 or index >= len(self.spec.choices):
            return UNSET if not self.spec.keep_empty else None
        return self.spec.choices[index].value

    def put(self, value: Any) -> bool:
        if value is UNSET:
            self.combo.setCurrentIndex(0)
            return True
        for i, choice in enumerate(self.spec.choices):
            if same_json(choice.value, value):
                self.combo.setCurrentIndex(i + (1 if self.has_blank else 0))
                return True
        return False


class MultiEnumEditor(Editor):
    """An array of enum values: one checkbox per choice (a scrolling list beyond eight)."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        holder = QWidget()
        column = QVBoxLayout(holder)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        self.boxes: list[QCheckBox] = []
        for choice in spec.choices:
            box = QCheckBox(choice.label, holder)
            box.toggled.connect(lambda _on: self.changed.emit())
            column.addWidget(box)
            self.boxes.append(box)
        row = _row(self)
        if len(spec.choices) > _VISIBLE_CHOICES:
            scroll = QScrollArea(self)
            scroll.setWidgetResizable(True)
            scroll.setWidget(holder)
            line = max(self.boxes[0].sizeHint().height(), 16) + column.spacing()
            scroll.setFixedHeight(line * _VISIBLE_CHOICES + 2 * scroll.frameWidth())
            row.addWidget(scroll, 1)
        else:
            row.addWidget(holder, 1)

    def get(self) -> Any:
        chosen = [
            c.value for c, box in zip(self.spec.choices, self.boxes, strict=True) if box.isChecked()
        ]
        if not chosen and not self.spec.required and not self.spec.keep_empty:
            return UNSET
        return chosen

    def put(self, value: Any) -> bool:
        if value is UNSET:
            value = []
        if not isinstance(value, list):
            return False
        indexes = []
        for v in value:
            found = next(
                (i for i, c in enumerate(self.spec.choices) if same_json(c.value, v)), None
            )
            if found is None or found in indexes:
                return False  # an unknown or repeated value: the JSON editor keeps it
            indexes.append(found)
        order = [self.spec.choices[i].value for i in sorted(indexes)]
        if not same_json(order, value):
            return False  # the order matters to JSON; keep it exactly
        for i, box in enumerate(self.boxes):
            box.blockSignals(True)
            box.setChecked(i in indexes)
            box.blockSignals(False)
        self.changed.emit()
        return True


class JsonFieldEditor(Editor):
    """Any JSON value, typed as JSON text: for what the form cannot express."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.edit = QPlainTextEdit(self)
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.edit.setTabChangesFocus(True)
        self.edit.setPlaceholderText('JSON value, e.g. {"key": 1} or [1, 2] or "text"')
        self.edit.textChanged.connect(self.changed)
        self.edit.textChanged.connect(self._fit)
        self._fit()
        _row(self).addWidget(self.edit, 1)

    def _fit(self) -> None:
        """One line for a short value, up to eight for a long one."""
        lines = min(max(self.edit.document().blockCount(), 1), 8)
        margins = self.edit.contentsMargins()
        extra = 2 * self.edit.frameWidth() + 2 * int(self.edit.document().documentMargin())
        height = self.edit.fontMetrics().lineSpacing() * lines + extra + margins.top()
        self.edit.setFixedHeight(height + margins.bottom() + 2)

    def get(self) -> Any:
        text = self.edit.toPlainText().strip()
        if not text:
            return UNSET if not self.spec.keep_empty else None
        try:
            return json.loads(text)
        except ValueError:
            return UNSET

    def problems(self) -> list[str]:
        text = self.edit.toPlainText().strip()
        if not text:
            return []
        try:
            json.loads(text)
        except ValueError as exc:
            return [f"not valid JSON: {exc}"]
        return []

    def put(self, value: Any) -> bool:
        if value is UNSET:
            text = ""
        else:
            compact = json.dumps(value, ensure_ascii=False)
            text = (
                compact if len(compact) <= 60 else json.dumps(value, ensure_ascii=False, indent=2)
            )
        if self.edit.toPlainText() != text:
            self.edit.setPlainText(text)
        return True


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
