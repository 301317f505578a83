"""The "Save call" dialog's assertions: a compact table, one row per assertion (its kind,
a JSON Pointer where the kind takes one, and what is expected), "Add assertion" offering
every kind the collection file knows (those that cannot apply to this call are greyed out
with the reason), and "Remove". Each row is checked as it is typed; what is wrong shows
under the table, the row marked, before anything is saved (`assertion_rows`).

A row's expected value is preset from the call's result at its pointer, and follows the
pointer as it is edited until the value is typed over. A preset regex escapes only what a
regex reads as special: "Hello there (world)" gives `^Hello there \\(world\\)`, with no
backslash before each space."""

from __future__ import annotations

import json
from typing import Any, Final

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.collections.assertion_rows import (
    JSON_TYPE_NAMES,
    KINDS,
    AssertionRow,
    RowError,
    RowKind,
    build_assertions,
    kind_info,
    unavailable,
)
from inspector.collections.call_draft import CallDraft
from inspector.collections.checks import json_type
from inspector.collections.drafts import suggested_pointer
from inspector.collections.pointer import MISSING, parse_pointer, resolve_pointer
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["AssertionEditor"]

COL_KIND, COL_POINTER, COL_VALUE = range(3)
_OUTCOME_TEXTS: Final = (
    ("ok", "ok (a result, not isError)"),
    ("isError", "isError: true (the tool failed)"),
    ("error", "a JSON-RPC error"),
    ("timeout", "a timeout"),
)
_ERROR_STYLE: Final = "border: 1px solid {color};"
_REGEX_SPECIAL: Final = frozenset("\\.^$*+?{}[]|()")
_MIN_ROWS: Final = 5  # the table's height in rows: room to add a few without scrolling
_MAX_ROWS: Final = 10


def regex_literal(text: str) -> str:
    """`text` as a regex that matches it literally, escaping only what a regex reads as
    special (re.escape also escapes spaces and more, for verbose patterns)."""
    return "".join("\\" + c if c in _REGEX_SPECIAL else c for c in text)


def preset_text(kind: RowKind, value: Any) -> str:
    """What a row of `kind` expects, preset from `value` (the result at its pointer)."""
    if kind == "matches":
        return "^" + regex_literal(value[:40]) if isinstance(value, str) else ""
    if kind == "type":
        return json_type(value)
    return json.dumps(value, ensure_ascii=False)


class _OutcomeCell(QWidget):
    """The outcome kind, and the JSON-RPC code when it is an error."""

    def __init__(self, outcome: str, code: int | None, on_change: Any) -> None:
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.combo = QComboBox()
        self.combo.setObjectName("outcomeKind")
        for value, text in _OUTCOME_TEXTS:
            self.combo.addItem(text, value)
        self.combo.setCurrentIndex(max(0, self.combo.findData(outcome)))
        self.code = QSpinBox()
        self.code.setObjectName("outcomeCode")
        self.code.setRange(-(2**31), 2**31 - 1)
        self.code.setValue(code if code is not None else -32603)
        self.code.setPrefix("code ")
        self.code.setToolTip("The JSON-RPC error code expected")
        layout.addWidget(self.combo, 1)
        layout.addWidget(self.code)
        self.combo.currentIndexChanged.connect(lambda _i: self._shown(on_change))
        self.code.valueChanged.connect(lambda _v: on_change())
        self._shown(None)

    def _shown(self, on_change: Any) -> None:
        self.code.setVisible(self.combo.currentData() == "error")
        if on_change is not None:
            on_change()


class AssertionEditor(QWidget):
    changed = Signal()

    def __init__(
        self, draft: CallDraft, tool: dict[str, Any] | None, parent: QWidget | None = None
    ) -> None:
        """`tool`: the tool's definition from tools/list, when known (outputSchema and
        inputSchema assertions)."""
        super().__init__(parent)
        self.setObjectName("assertionEditor")
        self.draft = draft
        self.tool = tool
        self._kinds: list[RowKind] = []
        self._suggestion = suggested_pointer(draft.result)
        self._presets: dict[int, str] = {}  # a value cell's preset text, while not typed over

        self.table = QTableWidget(0, 3)
        self.table.setObjectName("assertionTable")
        self.table.setHorizontalHeaderLabels(["Assertion", "JSON Pointer", "Expect"])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(COL_KIND, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_POINTER, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(COL_VALUE, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnWidth(COL_POINTER, 180)
        self._row_height = self.table.fontMetrics().height() * 2 + 6
        self.table.verticalHeader().setDefaultSectionSize(self._row_height)

        self.menu = QMenu(self)
        self.menu.setToolTipsVisible(True)
        self.actions_by_kind: dict[str, QAction] = {}
        for info in KINDS:
            action = self.menu.addAction(info.title)
            why = unavailable(info.kind, draft, tool)
            tip = f"{info.title}: {info.hint}"
            if info.catalog and why is None:
                tip += f" (saved in the tool's catalog entry, “catalog: {self._tool_name()}”)"
            action.setToolTip(plain_tooltip(why or tip))
            action.setEnabled(why is None)
            action.triggered.connect(lambda _c=False, k=info.kind: self.add(k))
            self.actions_by_kind[info.kind] = action
        self.add_button = QToolButton()
        self.add_button.setObjectName("addAssertion")
        self.add_button.setText("Add assertion")
        self.add_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.add_button.setMenu(self.menu)
        self.remove_button = QPushButton("Remove")
        self.remove_button.setObjectName("removeAssertion")
        self.remove_button.setToolTip("Remove the selected assertion")
        self.remove_button.clicked.connect(self.remove_selected)
        self.table.itemSelectionChanged.connect(self._selection_changed)

        self.problem = PlainLabel(wrap=True)
        self.problem.setObjectName("assertionProblem")
        self.problem.setStyleSheet(f"color: {colors().error.name()}")
        self.problem.setVisible(False)

        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        layout.addWidget(self.problem)
        self.add("outcome")
        self._selection_changed()

    def _tool_name(self) -> str:
        name = self.draft.params.get("name")
        return name if isinstance(name, str) else "?"

    # ---------------------------------------------------------------- rows
    def add(self, kind: RowKind) -> int:
        """Add a row of `kind`, preset from the call's result; returns its index."""
        info = kind_info(kind)
        row = self.table.rowCount()
        self.table.insertRow(row)
        self._kinds.append(kind)
        item = QTableWidgetItem(info.title)
        tip = f"{info.title}: {info.hint}"
        if info.catalog:
            tip += f" (saved in the catalog entry “catalog: {self._tool_name()}”)"
        item.setToolTip(plain_tooltip(tip))
        self.table.setItem(row, COL_KIND, item)
        pointer, value = self._suggestion if self._suggestion is not None else ("", None)
        if info.pointer:
            edit = QLineEdit(pointer)
            edit.setObjectName("pointer")
            edit.setPlaceholderText("/content/0/text")
            edit.setToolTip(plain_tooltip("A JSON Pointer into the result (RFC 6901)"))
            edit.textChanged.connect(lambda _t, e=edit: self._pointer_edited(e))
            self.table.setCellWidget(row, COL_POINTER, edit)
        else:
            self.table.setItem(row, COL_POINTER, QTableWidgetItem(""))
        cell = self._value_cell(kind, value)
        if info.pointer:
            self._presets[id(cell)] = _cell_text(cell)
        self.table.setCellWidget(row, COL_VALUE, cell)
        self.table.selectRow(row)
        self._fit()
        self.check()
        return row

    def _pointer_edited(self, edit: QLineEdit) -> None:
        """A new pointer: the expected value follows it while it is still the preset."""
        row = next((r for r in range(self.table.rowCount()) if self.pointer_edit(r) is edit), None)
        if row is not None:
            cell = self.value_widget(row)
            preset = self._presets.get(id(cell)) if cell is not None else None
            if cell is not None and preset is not None and _cell_text(cell) == preset:
                value = self._result_at(edit.text())
                if value is not MISSING:
                    text = preset_text(self._kinds[row], value)
                    self._presets[id(cell)] = text
                    _set_cell_text(cell, text)
        self.check()

    def _result_at(self, pointer: str) -> Any:
        """The call's result at `pointer`; MISSING when there is none or it is not there."""
        if self.draft.result is None:
            return MISSING
        try:
            return resolve_pointer(self.draft.result, parse_pointer(pointer.strip()))
        except ValueError:
            return MISSING

    def _fit(self) -> None:
        """As high as its rows, 5 to 10 of them: room to add, scrolling beyond."""
        shown = min(max(self.table.rowCount(), _MIN_ROWS), _MAX_ROWS)
        frame = self.table.frameWidth() * 2 + self.table.horizontalHeader().sizeHint().height()
        self.table.setFixedHeight(frame + shown * self._row_height)

    def _value_cell(self, kind: RowKind, value: Any) -> QWidget:
        info = kind_info(kind)
        if kind == "outcome":
            return _OutcomeCell(self.draft.outcome or "ok", self.draft.error_code, self.check)
        if kind == "type":
            combo = QComboBox()
            combo.setEditable(True)
            combo.addItems(JSON_TYPE_NAMES)
            combo.setCurrentText(preset_text(kind, value) if value is not None else "string")
            combo.currentTextChanged.connect(lambda _t: self.check())
            return combo
        if kind == "latency":
            spin = QSpinBox()
            spin.setObjectName("latencyMs")
            spin.setRange(1, 3_600_000)
            spin.setSuffix(" ms")
            seen = self.draft.latency_ms
            spin.setValue(max(1000, int((seen or 0) * 5 // 100 * 100)))
            if seen is not None:
                spin.setToolTip(plain_tooltip(f"This call took {seen:.0f} ms"))
            spin.valueChanged.connect(lambda _v: self.check())
            return spin
        if kind in ("equals", "contains", "matches"):
            edit = QLineEdit(preset_text(kind, value) if value is not None else "")
            edit.setObjectName("assertValue")
            edit.setPlaceholderText(info.hint)
            edit.setCursorPosition(0)
            edit.textChanged.connect(lambda _t: self.check())
            return edit
        hint = info.hint
        if info.catalog:
            hint += f" (into “catalog: {self._tool_name()}”)"
        label = PlainLabel(hint)
        label.setStyleSheet(f"color: {colors().muted.name()}")
        return label

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True)
        for row in rows:
            self.table.removeRow(row)
            del self._kinds[row]
        self._fit()
        self.check()

    def _selection_changed(self) -> None:
        self.remove_button.setEnabled(bool(self.table.selectedIndexes()))

    def pointer_edit(self, row: int) -> QLineEdit | None:
        widget = self.table.cellWidget(row, COL_POINTER)
        return widget if isinstance(widget, QLineEdit) else None

    def value_widget(self, row: int) -> QWidget | None:
        return self.table.cellWidget(row, COL_VALUE)

    def set_row(self, row: int, *, pointer: str | None = None, value: str | None = None) -> None:
        """Type into a row (tests and scripts): its pointer, its value as text."""
        if pointer is not None:
            edit = self.pointer_edit(row)
            assert edit is not None, f"row {row} takes no pointer"
            edit.setText(pointer)
        if value is not None:
            widget = self.value_widget(row)
            if isinstance(widget, QLineEdit):
                widget.setText(value)
            elif isinstance(widget, QComboBox):
                widget.setCurrentText(value)
            elif isinstance(widget, QSpinBox):
                widget.setValue(int(value))
            elif isinstance(widget, _OutcomeCell):
                widget.combo.setCurrentIndex(widget.combo.findData(value))

    # ---------------------------------------------------------------- reading
    @property
    def kinds(self) -> list[RowKind]:
        return list(self._kinds)

    def rows(self) -> list[AssertionRow]:
        out: list[AssertionRow] = []
        for row, kind in enumerate(self._kinds):
            edit = self.pointer_edit(row)
            pointer = edit.text() if edit is not None else ""
            widget = self.value_widget(row)
            value, code = "", None
            if isinstance(widget, _OutcomeCell):
                value, code = str(widget.combo.currentData()), widget.code.value()
            elif isinstance(widget, QLineEdit):
                value = widget.text()
            elif isinstance(widget, QComboBox):
                value = widget.currentText()
            elif isinstance(widget, QSpinBox):
                value = str(widget.value())
            out.append(AssertionRow(kind, pointer, value, code))
        return out

    def check(self) -> RowError | None:
        """Check every row; show the first problem under the table and mark its cell."""
        for row in range(self.table.rowCount()):
            for col in (COL_POINTER, COL_VALUE):
                widget = self.table.cellWidget(row, col)
                if widget is not None and widget.styleSheet():
                    widget.setStyleSheet("")
        try:
            build_assertions(self.rows(), self.draft, self.tool)
        except RowError as exc:
            title = kind_info(self._kinds[exc.row]).title
            self.problem.setText(f"Assertion {exc.row + 1} ({title}): {exc}")
            self.problem.setVisible(True)
            cell = self.table.cellWidget(
                exc.row, COL_POINTER if exc.column == "pointer" else COL_VALUE
            )
            if cell is not None and not isinstance(cell, PlainLabel):
                cell.setStyleSheet(_ERROR_STYLE.format(color=colors().error.name()))
            self.changed.emit()
            return exc
        self.problem.setVisible(False)
        self.problem.setText("")
        self.changed.emit()
        return None


def _cell_text(cell: QWidget) -> str:
    if isinstance(cell, QLineEdit):
        return cell.text()
    if isinstance(cell, QComboBox):
        return cell.currentText()
    return ""


def _set_cell_text(cell: QWidget, text: str) -> None:
    if isinstance(cell, QLineEdit):
        cell.setText(text)
        cell.setCursorPosition(0)
    elif isinstance(cell, QComboBox):
        cell.setCurrentText(text)
