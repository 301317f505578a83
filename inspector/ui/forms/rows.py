"""One field of the form (a `FieldRow`), and the containers: objects and arrays.

A row holds the typed editor for its schema, a "null" switch for nullable fields, the error
line under it, and falls back to a JSON editor when the value does not fit the typed editor
(a string where a number belongs, an unknown enum value, keys the schema does not list).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.features.forms.fields import MAX_ITEMS, UNSET, FieldSpec, Path, initial_value
from inspector.ui.forms.editors import (
    BoolEditor,
    Editor,
    EnumEditor,
    JsonFieldEditor,
    MultiEnumEditor,
    NumberEditor,
    StringEditor,
)
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip, short
from inspector.ui.widgets.theme import colors

__all__ = ["ArrayEditor", "FieldLabel", "FieldRow", "ObjectEditor", "describe"]


def describe(spec: FieldSpec) -> str:
    """The tooltip of a field: its description, then what it takes."""
    facts: list[str] = [spec.kind if spec.kind != "json" else "JSON"]
    if spec.format:
        facts.append(spec.format)
    if spec.minimum is not None:
        facts.append(f"{'>' if spec.exclusive_minimum else '≥'} {spec.minimum:g}")
    if spec.maximum is not None:
        facts.append(f"{'<' if spec.exclusive_maximum else '≤'} {spec.maximum:g}")
    if spec.min_length is not None:
        facts.append(f"at least {spec.min_length} characters")
    if spec.max_length is not None:
        facts.append(f"at most {spec.max_length} characters")
    if spec.nullable:
        facts.append("nullable")
    facts.append("required" if spec.required else "optional")
    if spec.why_json:
        facts.append(f"edited as JSON: {spec.why_json}")
    lines = [spec.description] if spec.description else []
    lines.append(" · ".join(facts))
    return "\n\n".join(lines)


def make_editor(spec: FieldSpec, parent: QWidget | None = None) -> Editor:
    """The editor of `spec`'s kind (`_EDITOR_OF`); JSON text for any other kind."""
    return _EDITOR_OF.get(spec.kind, JsonFieldEditor)(spec, parent)


class FieldLabel(QWidget):
    """The field's name (its title when it has one), a red star when required."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(2)
        self.name = PlainLabel(short(spec.label, 40))
        layout.addWidget(self.name)
        self.star: QLabel | None = None
        if spec.required:
            self.star = PlainLabel("*")
            self.star.setStyleSheet(f"color: {colors().error.name()}; font-weight: bold;")
            self.star.setToolTip("required")
            layout.addWidget(self.star)
        layout.addStretch(1)
        tip = describe(spec)
        if spec.title and spec.title != spec.name:
            tip = f"{spec.name}\n\n{tip}"
        self.setToolTip(plain_tooltip(tip))
        self.setSizePolicy(self.sizePolicy().horizontalPolicy(), self.sizePolicy().verticalPolicy())


class FieldRow(QWidget):
    """One value: the typed editor or its JSON fallback, null switch, errors, caption."""

    changed = Signal()

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        line = QHBoxLayout()
        line.setSpacing(4)
        outer.addLayout(line)
        self._line = line
        self.editor: Editor = make_editor(spec, self)
        self.editor.changed.connect(self.changed)
        self.editor.setToolTip(plain_tooltip(describe(spec)))
        line.addWidget(self.editor, 1)
        self.raw: JsonFieldEditor | None = None  # set while the value is edited as JSON
        self.back: QToolButton | None = None
        self.null_box: QCheckBox | None = None
        if spec.nullable:
            self.null_box = QCheckBox("null", self)
            self.null_box.setToolTip("Send null for this field")
            self.null_box.toggled.connect(self._on_null)
            line.addWidget(self.null_box, 0, Qt.AlignmentFlag.AlignTop)
        self.error_label = PlainLabel("", wrap=True)
        self.error_label.setStyleSheet(f"color: {colors().error.name()};")
        self.error_label.hide()
        outer.addWidget(self.error_label)
        caption = spec.description if spec.kind not in ("object",) else ""
        if spec.why_json and spec.kind == "json":
            caption = f"{caption}  (JSON: {spec.why_json})" if caption else f"JSON: {spec.why_json}"
        self.caption = PlainLabel(short(caption, 160), wrap=True)
        self.caption.setStyleSheet(f"color: {colors().muted.name()};")
        self.caption.setToolTip(plain_tooltip(spec.description))
        self.caption.setVisible(bool(caption))
        outer.addWidget(self.caption)

    # -- values ----------------------------------------------------------------
    def get(self) -> Any:
        if self.null_box is not None and self.null_box.isChecked():
            return None
        if self.raw is not None:
            return self.raw.get()
        return self.editor.get()

    def put(self, value: Any) -> bool:
        """Show `value`; a value the typed editor cannot show moves the row to JSON.
        Returns False only for the root, which has no JSON fallback of its own."""
        if value is None and self.null_box is not None:
            self.null_box.setChecked(True)
            return True
        if self.null_box is not None and self.null_box.isChecked():
            self.null_box.setChecked(False)
        if self.editor.put(value):
            self._leave_raw()
            return True
        self._enter_raw(value)
        return True

    def reset(self) -> None:
        self.put(initial_value(self.spec))

    def problems(self) -> list[tuple[Path, str]]:
        """Local problems of this row and those below it (relative paths)."""
        found: list[tuple[Path, str]] = []
        if self.raw is not None:
            found.extend(((), p) for p in self.raw.problems())
        elif not (self.null_box is not None and self.null_box.isChecked()):
            found.extend(((), p) for p in self.editor.problems())
            for key, row in self.children_rows():
                found.extend(((key, *path), p) for path, p in row.problems())
        return found

    # -- JSON fallback ---------------------------------------------------------
    def _enter_raw(self, value: Any) -> None:
        if self.spec.kind == "json":
            self.editor.put(value)
            return
        if self.raw is None:
            raw = JsonFieldEditor(self.spec, self)
            raw.changed.connect(self.changed)
            self.raw = raw
            back = QToolButton(self)
            back.setText("Form")
            back.setToolTip(
                "This value does not fit the form field, so it is edited as JSON.\n"
                "Click to go back to the form field (the JSON value is dropped)."
            )
            back.clicked.connect(self._back_to_form)
            self.back = back
            self._line.insertWidget(0, raw, 1)
            self._line.insertWidget(1, back, 0, Qt.AlignmentFlag.AlignTop)
            self.editor.hide()
        self.raw.put(value)
        self.changed.emit()

    def _leave_raw(self) -> None:
        if self.raw is None:
            return
        self.raw.hide()
        self.raw.deleteLater()
        self.raw = None
        if self.back is not None:
            self.back.hide()
            self.back.deleteLater()
            self.back = None
        self.editor.show()

    def _back_to_form(self) -> None:
        self._leave_raw()
        self.editor.put(initial_value(self.spec))
        self.changed.emit()

    @property
    def is_raw(self) -> bool:
        return self.raw is not None

    def _on_null(self, on: bool) -> None:
        self.editor.setEnabled(not on)
        if self.raw is not None:
            self.raw.setEnabled(not on)
        self.changed.emit()

    # -- errors ----------------------------------------------------------------
    def children_rows(self) -> Iterator[tuple[str | int, FieldRow]]:
        if self.raw is None and isinstance(self.editor, ObjectEditor | ArrayEditor):
            yield from self.editor.child_rows()

    def locate(self, path: Path) -> tuple[FieldRow, Path]:
        """The deepest row on `path`, and what is left of the path below it."""
        if not path:
            return self, ()
        for key, row in self.children_rows():
            if key == path[0]:
                return row.locate(path[1:])
        return self, path

    def set_errors(self, messages: list[str]) -> None:
        self.error_label.setText("\n".join(messages))
        self.error_label.setVisible(bool(messages))

    def clear_errors(self) -> None:
        self.set_errors([])
        for _key, row in self.children_rows():
            row.clear_errors()


class ObjectEditor(Editor):
    """The properties of an object, one row each: label on the left, editor on the right."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None, *, root: bool = False):
        super().__init__(spec, parent)
        self.root = root
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        body: QWidget = self
        if not root:
            frame = QFrame(self)
            frame.setFrameShape(QFrame.Shape.StyledPanel)
            outer.addWidget(frame)
            body = frame
        grid = QGridLayout() if root else QGridLayout(body)
        if root:
            outer.addLayout(grid)
        else:
            grid.setContentsMargins(8, 6, 8, 6)
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(6)
        grid.setColumnStretch(1, 1)
        self.rows: dict[str, FieldRow] = {}
        for index, prop in enumerate(spec.properties):
            label = FieldLabel(prop, body)
            row = FieldRow(prop, body)
            row.changed.connect(self.changed)
            grid.addWidget(label, index, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(row, index, 1)
            self.rows[prop.name] = row
        if not spec.properties and not root:
            grid.addWidget(PlainLabel("(no properties)"), 0, 0)

    def child_rows(self) -> Iterator[tuple[str | int, FieldRow]]:
        yield from self.rows.items()

    def get(self) -> Any:
        values = {}
        for name, row in self.rows.items():
            value = row.get()
            if value is not UNSET:
                values[name] = value
        if not values and not self.spec.required and not self.spec.keep_empty and not self.root:
            return UNSET
        return values

    def put(self, value: Any) -> bool:
        if value is UNSET:
            value = {}
        if not isinstance(value, dict):
            return False
        if set(value) - set(self.rows):
            return False  # keys the form has no field for: the JSON editor keeps them
        for name, row in self.rows.items():
            row.put(value.get(name, UNSET))
        return True


class ArrayEditor(Editor):
    """A list of item rows with remove buttons, and "Add item"."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        assert spec.item is not None
        self.item_spec: FieldSpec = spec.item
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(4)
        self.items_box = QVBoxLayout()
        self.items_box.setSpacing(4)
        outer.addLayout(self.items_box)
        self.items: list[tuple[QWidget, FieldRow]] = []
        bar = QHBoxLayout()
        self.add_button = QPushButton("+ Add item", self)
        self.add_button.setToolTip(plain_tooltip(f"Add an item to {spec.label}"))
        self.add_button.clicked.connect(self._add_clicked)
        bar.addWidget(self.add_button)
        self.count_label = PlainLabel("")
        self.count_label.setStyleSheet(f"color: {colors().muted.name()};")
        bar.addWidget(self.count_label)
        bar.addStretch(1)
        outer.addLayout(bar)
        self._update_count()

    def child_rows(self) -> Iterator[tuple[str | int, FieldRow]]:
        for index, (_holder, row) in enumerate(self.items):
            yield index, row

    def _add_clicked(self) -> None:
        row = self.add_item()
        row.reset()
        self.changed.emit()

    def add_item(self) -> FieldRow:
        holder = QWidget(self)
        line = QHBoxLayout(holder)
        line.setContentsMargins(0, 0, 0, 0)
        index_label = PlainLabel(f"{len(self.items) + 1}.")
        index_label.setStyleSheet(f"color: {colors().muted.name()};")
        index_label.setMinimumWidth(index_label.fontMetrics().horizontalAdvance("99."))
        line.addWidget(index_label, 0, Qt.AlignmentFlag.AlignTop)
        row = FieldRow(self.item_spec, holder)
        row.changed.connect(self.changed)
        line.addWidget(row, 1)
        remove = QToolButton(holder)
        remove.setText("−")
        remove.setToolTip("Remove this item")
        remove.clicked.connect(lambda: self.remove_item(holder))
        line.addWidget(remove, 0, Qt.AlignmentFlag.AlignTop)
        self.items_box.addWidget(holder)
        self.items.append((holder, row))
        self._update_count()
        return row

    def remove_item(self, holder: QWidget) -> None:
        for i, (h, _row) in enumerate(self.items):
            if h is holder:
                del self.items[i]
                self.items_box.removeWidget(h)
                h.hide()
                h.deleteLater()
                break
        self._renumber()
        self._update_count()
        self.changed.emit()

    def _renumber(self) -> None:
        for i, (holder, _row) in enumerate(self.items):
            label = holder.findChild(QLabel)
            if label is not None:
                label.setText(f"{i + 1}.")

    def _update_count(self) -> None:
        bounds = []
        if self.spec.min_items is not None:
            bounds.append(f"at least {self.spec.min_items}")
        if self.spec.max_items is not None:
            bounds.append(f"at most {self.spec.max_items}")
        n = len(self.items)
        text = f"{n} item{'s' if n != 1 else ''}"
        self.count_label.setText(f"{text} ({', '.join(bounds)})" if bounds else text)

    def get(self) -> Any:
        values = [row.get() for _holder, row in self.items]
        values = [None if v is UNSET else v for v in values]
        if not values and not self.spec.required and not self.spec.keep_empty:
            return UNSET
        return values

    def put(self, value: Any) -> bool:
        if value is UNSET:
            value = []
        if not isinstance(value, list) or len(value) > MAX_ITEMS:
            return False  # the row shows it as JSON (thousands of rows would freeze)
        while len(self.items) > len(value):
            self.remove_item(self.items[-1][0])
        while len(self.items) < len(value):
            self.add_item()
        for (_holder, row), item in zip(self.items, value, strict=True):
            row.put(item)
        self.changed.emit()
        return True


# The editor of each kind of field (make_editor); a kind not here is edited as JSON text.
_EDITOR_OF: Final[dict[str, type[Editor]]] = {
    "string": StringEditor,
    "number": NumberEditor,
    "integer": NumberEditor,
    "boolean": BoolEditor,
    "enum": EnumEditor,
    "multi_enum": MultiEnumEditor,
    "object": ObjectEditor,
    "array": ArrayEditor,
}
