"""A form built from a JSON Schema, with a raw JSON editor always one click away.

The Form and JSON views stay in sync both ways: switching shows the same values, and a
valid edit in the JSON view reaches the form as soon as the user pauses. Keys the form has
no field for (additionalProperties, a schema the form cannot express) are kept and sent.
`validation_errors()` validates with jsonschema and puts each error next to its field;
the banner under the form offers "Send anyway" to test the server's own validation.
`problems_changed` says how many problems are shown (0 when they are gone), so that a view
can drop its "Fix the arguments" hint and make room for the banner. What the values are
called ("arguments" of a tool or prompt, "fields" of an elicitation) is `set_noun`'s.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from jsonschema.exceptions import SchemaError
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.features.forms.fields import (
    FieldError,
    FormPlan,
    ValidationReport,
    build_form,
    initial_value,
    path_str,
    split_known,
    validate_values,
    validator_class,
)
from inspector.ui.forms.completer import CompletionProvider, FieldCompleter
from inspector.ui.forms.editors import StringEditor
from inspector.ui.forms.rows import FieldRow, ObjectEditor
from inspector.ui.widgets.highlighter import JsonHighlighter
from inspector.ui.widgets.plain_text import PlainLabel, mark_checked_bold, plain_tooltip, short
from inspector.ui.widgets.theme import colors

__all__ = ["SchemaForm"]

Mode = Literal["form", "json"]
_SYNC_MS = 300
_BANNER_LINES = 6


class SchemaForm(QWidget):
    changed = Signal()
    send_anyway_requested = Signal()  # the user chose to send despite validation errors
    problems_changed = Signal(int)  # how many problems the form shows now (0: none)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._schema: dict[str, Any] = {"type": "object"}
        self._plan: FormPlan = build_form(self._schema)
        self._root: ObjectEditor | None = None
        self._extras: dict[str, Any] = {}
        self._json_value: dict[str, Any] = {}
        self._json_error: str | None = None
        self._syncing = False
        self._errors_shown = False
        self._mode: Mode = "form"
        self._schema_problem: str | None = None
        self._noun = "arguments"

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)

        bar = QHBoxLayout()
        self.form_button = self._toggle("Form", "")
        self.json_button = self._toggle("JSON", "")
        group = QButtonGroup(self)
        group.setExclusive(True)
        group.addButton(self.form_button)
        group.addButton(self.json_button)
        self.form_button.setChecked(True)
        self.form_button.clicked.connect(lambda: self.set_mode("form"))
        self.json_button.clicked.connect(lambda: self.set_mode("json"))
        bar.addWidget(self.form_button)
        bar.addWidget(self.json_button)
        bar.addStretch(1)
        self.reset_button = QToolButton(self)
        self.reset_button.setText("Reset")
        self.reset_button.setToolTip("Back to the schema's defaults")
        self.reset_button.clicked.connect(self.reset_to_defaults)
        bar.addWidget(self.reset_button)
        layout.addLayout(bar)

        self.warning_label = PlainLabel("", wrap=True)
        self.warning_label.setStyleSheet(f"color: {colors().warn.name()};")
        self.warning_label.hide()
        layout.addWidget(self.warning_label)

        self.stack = QStackedWidget(self)
        self.form_area = QScrollArea(self.stack)
        self.form_area.setWidgetResizable(True)
        self.form_area.setFrameShape(QFrame.Shape.NoFrame)
        self.stack.addWidget(self.form_area)
        json_page = QWidget(self.stack)
        json_layout = QVBoxLayout(json_page)
        json_layout.setContentsMargins(0, 0, 0, 0)
        self.json_edit = QPlainTextEdit(json_page)
        self.json_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.json_edit.setTabChangesFocus(False)
        self.json_edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self._highlighter = JsonHighlighter(self.json_edit.document())
        json_layout.addWidget(self.json_edit, 1)
        self.json_error_label = PlainLabel("", wrap=True)
        self.json_error_label.setStyleSheet(f"color: {colors().error.name()};")
        self.json_error_label.hide()
        json_layout.addWidget(self.json_error_label)
        self.stack.addWidget(json_page)
        layout.addWidget(self.stack, 1)

        self.banner = QFrame(self)
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        banner_layout = QHBoxLayout(self.banner)
        banner_layout.setContentsMargins(8, 4, 8, 4)
        self.banner_label = PlainLabel("", wrap=True)
        self.banner_label.setStyleSheet(f"color: {colors().error.name()};")
        banner_layout.addWidget(self.banner_label, 1)
        self.send_anyway_button = QPushButton("Send anyway", self.banner)
        self.send_anyway_button.clicked.connect(self.send_anyway_requested)
        banner_layout.addWidget(self.send_anyway_button, 0, Qt.AlignmentFlag.AlignTop)
        self.banner.hide()
        layout.addWidget(self.banner)

        self.note_label = PlainLabel("", wrap=True)
        self.note_label.setStyleSheet(f"color: {colors().muted.name()};")
        self.note_label.hide()
        layout.addWidget(self.note_label)

        self._json_timer = QTimer(self)
        self._json_timer.setSingleShot(True)
        self._json_timer.setInterval(_SYNC_MS)
        self._json_timer.timeout.connect(self._sync_from_json)
        self.json_edit.textChanged.connect(self._on_json_text)
        self._revalidate_timer = QTimer(self)
        self._revalidate_timer.setSingleShot(True)
        self._revalidate_timer.setInterval(_SYNC_MS)
        self._revalidate_timer.timeout.connect(self._revalidate)
        self.completer = FieldCompleter(self.values, self)
        self.completer.failed.connect(self._show_note)
        self.set_noun("arguments")
        self.set_schema(self._schema)

    def set_noun(self, noun: str) -> None:
        """What the values are called in the form's texts: "arguments" (a tool's, a
        prompt's) or "fields" (what an elicitation asks for)."""
        self._noun = noun
        self.json_button.setToolTip(plain_tooltip(f"Edit the {noun} as raw JSON"))
        self.send_anyway_button.setToolTip(
            plain_tooltip(
                f"Send these {noun} although they do not match the schema\n"
                "(to test the server's own validation)"
            )
        )
        self._show_form_tip()
        self._show_warnings()

    def _toggle(self, text: str, tip: str) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(plain_tooltip(tip))
        button.setCheckable(True)
        button.setAutoRaise(False)
        button.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        mark_checked_bold(button)
        return button

    # ------------------------------------------------------------------ contract
    def set_schema(self, schema: dict[str, Any], values: dict[str, Any] | None = None) -> None:
        self._schema = schema if isinstance(schema, dict) else {}
        self._plan = build_form(schema)
        self._extras = {}
        self._json_error = None
        self._errors_shown = False
        self.banner.hide()
        self.completer.clear()
        self._schema_problem = _schema_problem(self._schema)
        old = self.form_area.takeWidget()
        if old is not None:
            old.deleteLater()
        self._root = None
        root_spec = self._plan.root
        if root_spec is not None:
            page = QWidget()
            page_layout = QVBoxLayout(page)
            page_layout.setContentsMargins(2, 2, 6, 2)
            self._root = ObjectEditor(root_spec, page, root=True)
            self._root.changed.connect(self._on_form_changed)
            page_layout.addWidget(self._root)
            if not root_spec.properties:
                text = f"No {self._noun}."
                if root_spec.extra_keys and self._schema.get("additionalProperties") is not None:
                    text += " Keys can be added in the JSON view."
                empty = PlainLabel(text)
                empty.setStyleSheet(f"color: {colors().muted.name()};")
                page_layout.addWidget(empty)
            page_layout.addStretch(1)
            self.form_area.setWidget(page)
            for name, row in self._root.rows.items():
                editor = row.editor
                if isinstance(editor, StringEditor) and editor.line_edit is not None:
                    self.completer.attach(name, editor.line_edit)
        self._show_warnings()
        self.form_button.setEnabled(root_spec is not None)
        self._show_form_tip()
        start = values if values is not None else self._initial_values()
        self._mode = "form" if root_spec is not None else "json"
        self.set_values(start)
        self._apply_mode()
        self.clear_errors()

    def values(self) -> dict[str, Any]:
        if self._mode == "json":
            parsed, _error = self._parse_json()
            return parsed if parsed is not None else dict(self._json_value)
        if self._root is None:
            return dict(self._json_value)
        value = self._root.get()
        result = dict(value) if isinstance(value, dict) else {}
        result.update(self._extras)
        return result

    def set_values(self, values: dict[str, Any]) -> None:
        values = dict(values) if isinstance(values, dict) else {}
        self._json_value = values
        self._syncing = True
        try:
            if self._root is not None and self._plan.root is not None:
                known, self._extras = split_known(self._plan.root, values)
                self._root.put(known)
            if self._mode == "json":
                self._write_json(values)
        finally:
            self._syncing = False
        self._show_extras()
        self._after_change()

    def validation_errors(self) -> list[str]:
        """Validate the current values; errors go next to their fields (and into the banner
        with "Send anyway"). Returns them as "path: message" lines; [] when all is well."""
        report = self.report()
        self._show_report(report)
        return [str(e) for e in report.errors]

    def set_completer(self, provider: CompletionProvider | None) -> None:
        self.completer.provider = provider

    # ------------------------------------------------------------------ more API
    @property
    def plan(self) -> FormPlan:
        return self._plan

    @property
    def schema(self) -> dict[str, Any]:
        return self._schema

    def preferred_height(self) -> int:
        """The height that shows the whole form without scrolling (toolbar and notes too)."""
        page = self.form_area.widget() if self._mode == "form" else None
        body = page.sizeHint().height() if page is not None else 240
        extra = sum(
            w.sizeHint().height() + 6
            for w in (self.form_button, self.warning_label, self.banner, self.note_label)
            if w is self.form_button or not w.isHidden()
        )
        return body + extra + 8

    def mode(self) -> Mode:
        return self._mode

    def json_problem(self) -> str | None:
        """Why the JSON editor's text is not a JSON object (None when it is, or in form
        mode): what is sent or saved must be exactly what the user sees."""
        return self._parse_json()[1] if self._mode == "json" else None

    def check(self) -> bool:
        """Validate and show the result; True when the values can be sent as they are."""
        return not self.validation_errors()

    def report(self) -> ValidationReport:
        values = self.values()
        report = validate_values(self._schema, values)
        local: list[FieldError] = []
        if self._mode == "json" and self._json_error is not None:
            local.append(FieldError((), f"the JSON is not valid: {self._json_error}"))
        elif self._mode == "form" and self._root is not None:
            for name, row in self._root.rows.items():
                local.extend(FieldError((name, *path), msg) for path, msg in row.problems())
        report.errors = local + report.errors
        return report

    def clear_errors(self) -> None:
        self._errors_shown = False
        self.banner.hide()
        if self._root is not None:
            for row in self._root.rows.values():
                row.clear_errors()
        self.problems_changed.emit(0)

    def reset_to_defaults(self) -> None:
        self.set_values(self._initial_values())

    def row(self, *path: str | int) -> FieldRow | None:
        """The row of a field, e.g. row("assignee", "email") or row("tags", 0)."""
        if self._root is None or not path:
            return None
        first = self._root.rows.get(str(path[0]))
        if first is None:
            return None
        found, rest = first.locate(tuple(path[1:]))
        return found if not rest else None

    def set_mode(self, mode: Mode) -> bool:
        """Switch between the form and the JSON editor, carrying the values across.
        Returns False when the JSON cannot go back to the form (invalid: the error shows)."""
        if mode == self._mode:
            self._apply_mode()
            return True
        if mode == "json":
            self._write_json(self.values())
            self._mode = "json"
        else:
            if self._root is None:
                self._apply_mode()
                return False
            parsed, error = self._parse_json()
            if parsed is None:
                self._show_json_error(error or "not valid JSON")
                self._apply_mode()
                return False
            self._mode = "form"
            self.set_values(parsed)
        self._apply_mode()
        if self._errors_shown:
            self._revalidate()
        return True

    # ------------------------------------------------------------------ internals
    def _initial_values(self) -> dict[str, Any]:
        if self._plan.root is None:
            default = self._schema.get("default")
            return dict(default) if isinstance(default, dict) else {}
        value = initial_value(self._plan.root)
        return dict(value) if isinstance(value, dict) else {}

    def _apply_mode(self) -> None:
        self.stack.setCurrentIndex(0 if self._mode == "form" else 1)
        self.form_button.setChecked(self._mode == "form")
        self.json_button.setChecked(self._mode == "json")

    def _write_json(self, values: dict[str, Any]) -> None:
        text = json.dumps(values, indent=2, ensure_ascii=False)
        if self.json_edit.toPlainText() != text:
            self._syncing = True
            try:
                self.json_edit.setPlainText(text)
            finally:
                self._syncing = False
        self._json_error = None
        self.json_error_label.hide()

    def _parse_json(self) -> tuple[dict[str, Any] | None, str | None]:
        text = self.json_edit.toPlainText().strip()
        if not text:
            return {}, None
        try:
            value = json.loads(text)
        except ValueError as exc:
            return None, str(exc)
        if not isinstance(value, dict):
            return None, f"the {self._noun} must be a JSON object, not a {type(value).__name__}"
        return value, None

    def _on_json_text(self) -> None:
        if self._syncing:
            return
        self._json_timer.start()
        self.changed.emit()

    def _sync_from_json(self) -> None:
        parsed, error = self._parse_json()
        if parsed is None:
            self._show_json_error(error or "not valid JSON")
            return
        self._json_error = None
        self.json_error_label.hide()
        self._json_value = parsed
        if self._root is not None and self._plan.root is not None:
            self._syncing = True
            try:
                known, self._extras = split_known(self._plan.root, parsed)
                self._root.put(known)
            finally:
                self._syncing = False
            self._show_extras()
        self._after_change()

    def _show_json_error(self, error: str) -> None:
        self._json_error = error
        self.json_error_label.setText(f"Not valid: {error}")
        self.json_error_label.show()

    def _on_form_changed(self) -> None:
        if self._syncing:
            return
        self._after_change()

    def _after_change(self) -> None:
        if self._errors_shown:
            self._revalidate_timer.start()
        self.changed.emit()

    def _revalidate(self) -> None:
        if self._errors_shown:
            self._show_report(self.report())

    def _show_report(self, report: ValidationReport) -> None:
        self._errors_shown = True
        if self._root is not None:
            for row in self._root.rows.values():
                row.clear_errors()
        elsewhere: list[FieldError] = []
        by_row: dict[int, tuple[FieldRow, list[str]]] = {}
        for error in report.errors:
            target = self._row_for(error)
            if target is None:
                elsewhere.append(error)
                continue
            row, rest = target
            message = error.message if not rest else f"{path_str(rest)}: {error.message}"
            by_row.setdefault(id(row), (row, []))[1].append(message)
        for row, messages in by_row.values():
            row.set_errors(messages)
        n = len(report.errors)
        if n:
            lines = [f"{n} problem{'s' if n != 1 else ''} with these {self._noun}:"]
            lines += [short(str(e), 160) for e in report.errors[:_BANNER_LINES]]
            if n > _BANNER_LINES:
                lines.append(f"… and {n - _BANNER_LINES} more")
            self.banner_label.setText("\n".join(lines))
        self.banner.setVisible(bool(n))
        self.problems_changed.emit(n)

    def _row_for(self, error: FieldError) -> tuple[FieldRow, tuple[str | int, ...]] | None:
        if self._root is None or self._mode != "form" or not error.path:
            return None
        first = self._root.rows.get(str(error.path[0]))
        if first is None:
            return None
        return first.locate(error.path[1:])

    def _show_warnings(self) -> None:
        lines = []
        if self._plan.root is None:
            lines.append(
                f"No form for this schema ({self._plan.why_json_only}): "
                f"edit the {self._noun} as JSON."
            )
        elif self._plan.warnings:
            shown = "; ".join(self._plan.warnings[:4])
            more = len(self._plan.warnings) - 4
            lines.append(
                f"Edited as JSON where the form cannot show the schema: {shown}"
                + (f" (and {more} more)" if more > 0 else "")
            )
        if self._schema_problem:
            lines.append(
                f"The schema itself is not valid ({self._schema_problem}); "
                f"the {self._noun} are not validated before sending."
            )
        self.warning_label.setText("\n".join(short(line, 400) for line in lines))
        self.warning_label.setVisible(bool(lines))

    def _show_form_tip(self) -> None:
        self.form_button.setToolTip(
            plain_tooltip(
                f"Edit the {self._noun} in a form"
                if self._plan.root is not None
                else f"No form: {self._plan.why_json_only}"
            )
        )

    def _show_extras(self) -> None:
        if self._extras:
            names = ", ".join(sorted(self._extras))
            self._show_note(f"Also sent (only in the JSON view): {short(names, 120)}")
        elif self.note_label.text().startswith("Also sent"):
            self.note_label.hide()

    def _show_note(self, text: str) -> None:
        self.note_label.setText(text)
        self.note_label.show()

    def json_text(self) -> str:
        return self.json_edit.toPlainText()

    def set_json_text(self, text: str) -> None:
        """Type into the JSON editor (as the user would); synced to the form after a pause."""
        self.json_edit.setPlainText(text)

    def flush(self) -> None:
        """Apply a pending JSON edit now (tests; before sending)."""
        if self._json_timer.isActive():
            self._json_timer.stop()
            self._sync_from_json()


def _schema_problem(schema: dict[str, Any]) -> str | None:
    try:
        validator_class(schema).check_schema(schema)
    except SchemaError as exc:
        return short(exc.message, 200)
    except Exception as exc:  # a schema odd enough to break the checker itself
        return short(f"{type(exc).__name__}: {exc}", 200)
    return None
