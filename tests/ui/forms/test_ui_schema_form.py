"""SchemaForm: one test per schema construct with form <-> JSON round-trips, the JSON view
in sync both ways, errors next to their fields, Send anyway, and completions."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QPlainTextEdit
from pytestqt.qtbot import QtBot

from inspector.features.forms.fields import UNSET
from inspector.ui.forms import SchemaForm
from inspector.ui.forms.editors import (
    BoolEditor,
    EnumEditor,
    JsonFieldEditor,
    MultiEnumEditor,
    NumberEditor,
    StringEditor,
)
from inspector.ui.forms.rows import ArrayEditor, FieldLabel, FieldRow
from tests.helpers.gui import run

pytestmark = pytest.mark.timeout(60)


def obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> Any:
    schema: dict[str, Any] = {"type": "object", "properties": properties, **extra}
    if required:
        schema["required"] = required
    return schema


@pytest.fixture
def form(qtbot: QtBot) -> SchemaForm:
    widget = SchemaForm()
    qtbot.addWidget(widget)
    widget.resize(600, 500)
    return widget


def round_trip(form: SchemaForm, schema: dict[str, Any], values: dict[str, Any]) -> None:
    """Form -> values -> JSON view -> form: the same values every way."""
    form.set_schema(schema, values)
    assert form.values() == values
    assert form.set_mode("json")
    assert json.loads(form.json_text()) == values
    assert form.values() == values
    assert form.set_mode("form")
    assert form.values() == values


def row(form: SchemaForm, *path: str | int) -> FieldRow:
    found = form.row(*path)
    assert found is not None, path
    return found


# -- constructs ---------------------------------------------------------------------


def test_string_and_formats(form: SchemaForm) -> None:
    schema = obj(
        {
            "name": {"type": "string"},
            "email": {"type": "string", "format": "email"},
            "site": {"type": "string", "format": "uri"},
            "due": {"type": "string", "format": "date"},
            "at": {"type": "string", "format": "date-time"},
        }
    )
    round_trip(form, schema, {"name": "Ann", "email": "a@b.c", "due": "2025-01-02"})
    email = row(form, "email").editor
    assert isinstance(email, StringEditor) and email.line_edit is not None
    assert email.line_edit.placeholderText() == "name@example.com"
    form.set_values({})
    assert form.values() == {}  # empty strings are left out
    due = row(form, "due").editor
    assert isinstance(due, StringEditor)
    due._fill_now()
    assert len(form.values()["due"]) == 10


def test_long_text_is_multiline(form: SchemaForm) -> None:
    round_trip(form, obj({"body": {"type": "string"}}), {"body": "line 1\nline 2"})
    assert isinstance(row(form, "body").editor, StringEditor)
    assert row(form, "body").editor.findChild(QPlainTextEdit) is not None
    # a short field grows to several lines when a value needs them
    round_trip(form, obj({"city": {"type": "string"}}), {"city": "two\nlines"})
    editor = row(form, "city").editor
    assert isinstance(editor, StringEditor) and editor.text_edit is not None


def test_numbers_do_not_force_a_default(form: SchemaForm) -> None:
    schema = obj(
        {
            "n": {"type": "integer", "minimum": 1, "maximum": 50},
            "x": {"type": "number"},
            "d": {"type": "integer", "default": 5},
        }
    )
    form.set_schema(schema)
    assert form.values() == {"d": 5}
    editor = row(form, "n").editor
    assert isinstance(editor, NumberEditor)
    editor.edit.stepBy(1)  # from empty: the first step lands on the minimum
    assert form.values()["n"] == 1
    editor.edit.stepBy(100)
    assert form.values()["n"] == 50  # clamped to the maximum
    round_trip(form, schema, {"n": 7, "x": 1.25, "d": 5})
    round_trip(form, schema, {"x": -3})


def test_number_text_that_is_not_a_number_is_kept_for_validation(
    form: SchemaForm, qtbot: QtBot
) -> None:
    form.set_schema(obj({"n": {"type": "integer"}}))
    editor = row(form, "n").editor
    assert isinstance(editor, NumberEditor)
    editor.edit.setText("1.5")
    assert form.values() == {"n": 1.5}
    assert form.validation_errors() == ["n: 1.5 is not of type 'integer'"]


def test_boolean(form: SchemaForm) -> None:
    schema = obj({"opt": {"type": "boolean"}, "req": {"type": "boolean"}}, ["req"])
    form.set_schema(schema)
    assert form.values() == {"req": False}  # the optional one is "not set"
    opt = row(form, "opt").editor
    assert isinstance(opt, BoolEditor) and opt.box.text() == "not set"
    opt.box.setCheckState(Qt.CheckState.Checked)
    assert form.values() == {"opt": True, "req": False}
    round_trip(form, schema, {"opt": False, "req": True})


def test_optional_boolean_one_click_gives_true_and_clear_gives_not_set(
    form: SchemaForm, qtbot: QtBot
) -> None:
    """Issue 18.5: with or without a default, one click on a "not set" box gives true;
    the Clear button (shown only while a value is set) brings "not set" back."""
    schema = obj({"plain": {"type": "boolean"}, "defaulted": {"type": "boolean", "default": False}})
    form.set_schema(schema)
    form.show()
    for name in ("plain", "defaulted"):
        editor = row(form, name).editor
        assert isinstance(editor, BoolEditor)
        editor.put(UNSET)
        assert editor.box.text() == "not set" and not editor.clear_button.isVisible()
        qtbot.mouseClick(editor.box, Qt.MouseButton.LeftButton)
        assert editor.get() is True and editor.box.text() == "true"
        assert editor.clear_button.isVisible()
        qtbot.mouseClick(editor.box, Qt.MouseButton.LeftButton)
        assert editor.get() is False and editor.box.text() == "false"
        qtbot.mouseClick(editor.box, Qt.MouseButton.LeftButton)
        assert editor.get() is True
        qtbot.mouseClick(editor.clear_button, Qt.MouseButton.LeftButton)
        assert editor.get() is UNSET and editor.box.text() == "not set"
        assert name not in form.values()
    # A default is shown as that value (set), and cleared to leave the field out.
    form.set_schema(schema)
    defaulted = row(form, "defaulted").editor
    assert isinstance(defaulted, BoolEditor)
    shown = defaulted.get()
    if shown is not UNSET:
        qtbot.mouseClick(defaulted.box, Qt.MouseButton.LeftButton)
        assert defaulted.get() is (not shown)


def test_required_boolean_has_no_clear(form: SchemaForm) -> None:
    form.set_schema(obj({"req": {"type": "boolean"}}, ["req"]))
    form.show()
    editor = row(form, "req").editor
    assert isinstance(editor, BoolEditor)
    assert not editor.clear_button.isVisible() and editor.get() is False


def test_enums_titled_and_legacy(form: SchemaForm) -> None:
    schema = obj(
        {
            "p": {"type": "string", "enum": ["low", "high"], "default": "low"},
            "c": {"oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
            "l": {"type": "string", "enum": ["a", "b"], "enumNames": ["Alpha", "Beta"]},
        }
    )
    form.set_schema(schema)
    assert form.values() == {"p": "low"}
    c = row(form, "c").editor
    assert isinstance(c, EnumEditor)
    labels = [c.combo.itemText(i) for i in range(c.combo.count())]
    assert labels == ["(not set)", "Red  (r)", "Green  (g)"]
    c.combo.setCurrentIndex(2)
    assert form.values()["c"] == "g"
    round_trip(form, schema, {"p": "high", "c": "r", "l": "b"})


def test_enum_value_not_in_the_list_is_kept_as_json(form: SchemaForm) -> None:
    schema = obj({"p": {"type": "string", "enum": ["low", "high"]}})
    round_trip(form, schema, {"p": "urgent"})
    assert row(form, "p").is_raw
    assert form.validation_errors()[0].startswith("p: 'urgent' is not one of")


def test_multi_select(form: SchemaForm) -> None:
    schema = obj({"colors": {"type": "array", "items": {"enum": ["red", "green", "blue"]}}})
    round_trip(form, schema, {"colors": ["red", "blue"]})
    editor = row(form, "colors").editor
    assert isinstance(editor, MultiEnumEditor)
    editor.boxes[1].setChecked(True)
    assert form.values() == {"colors": ["red", "green", "blue"]}
    for box in editor.boxes:
        box.setChecked(False)
    assert form.values() == {}


def test_arrays_add_and_remove(form: SchemaForm, qtbot: QtBot) -> None:
    schema = obj({"tags": {"type": "array", "items": {"type": "string"}}})
    form.set_schema(schema)
    editor = row(form, "tags").editor
    assert isinstance(editor, ArrayEditor)
    qtbot.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
    assert form.values() == {"tags": ["", ""]}
    first = row(form, "tags", 0).editor
    assert isinstance(first, StringEditor) and first.line_edit is not None
    first.line_edit.setText("bug")
    editor.remove_item(editor.items[1][0])
    assert form.values() == {"tags": ["bug"]}
    round_trip(form, schema, {"tags": ["a", "b", "c"]})
    numbers = obj({"v": {"type": "array", "items": {"type": "number"}, "default": [3, 1]}})
    form.set_schema(numbers)
    assert form.values() == {"v": [3, 1]}
    round_trip(form, numbers, {"v": [1.5, 2]})


def test_nested_objects_and_required_markers(form: SchemaForm) -> None:
    schema = obj(
        {
            "title": {"type": "string"},
            "assignee": obj(
                {"name": {"type": "string"}, "email": {"type": "string", "format": "email"}},
                ["name"],
            ),
        },
        ["title"],
    )
    round_trip(form, schema, {"title": "T", "assignee": {"name": "Ann", "email": "a@b.c"}})
    labels = {label.name.text(): label.star is not None for label in form.findChildren(FieldLabel)}
    assert labels == {"title": True, "assignee": False, "name": True, "email": False}
    form.set_values({"title": "T"})
    assert form.values() == {"title": "T"}  # an empty optional object is left out


def test_array_of_objects(form: SchemaForm) -> None:
    person = obj({"name": {"type": "string"}, "age": {"type": "integer"}})
    schema = obj({"people": {"type": "array", "items": person}})
    round_trip(form, schema, {"people": [{"name": "A", "age": 3}, {"name": "B"}]})


def test_defaults_applied_and_reset(form: SchemaForm) -> None:
    schema = obj(
        {
            "mode": {"type": "string", "enum": ["auto", "fail"], "default": "auto"},
            "steps": {"type": "integer", "default": 5},
            "q": {"type": "string", "default": "What is MCP?"},
            "flag": {"type": "boolean", "default": True},
        }
    )
    form.set_schema(schema)
    defaults = {"mode": "auto", "steps": 5, "q": "What is MCP?", "flag": True}
    assert form.values() == defaults
    form.set_values({"mode": "fail"})
    form.reset_to_defaults()
    assert form.values() == defaults
    form.set_schema(schema, {"steps": 9})  # given values win over defaults
    assert form.values() == {"steps": 9}


def test_descriptions_are_escaped_tooltips_and_plain_captions(form: SchemaForm) -> None:
    form.set_schema(obj({"x": {"type": "string", "description": "<b>bold</b> & <i>more</i>"}}))
    label = form.findChildren(FieldLabel)[0]
    assert "&lt;b&gt;bold&lt;/b&gt;" in label.toolTip() and "<b>" not in label.toolTip()
    caption = row(form, "x").caption
    assert caption.textFormat() == Qt.TextFormat.PlainText
    assert caption.text() == "<b>bold</b> & <i>more</i>"


def test_nullable(form: SchemaForm) -> None:
    schema = obj(
        {
            "n": {"type": ["integer", "null"]},
            "s": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        }
    )
    round_trip(form, schema, {"n": None, "s": "x"})
    round_trip(form, schema, {"n": 4, "s": None})
    null_box = row(form, "n").null_box
    assert isinstance(null_box, QCheckBox)
    null_box.setChecked(True)
    assert form.values()["n"] is None


def test_what_the_form_cannot_express_is_a_json_field(form: SchemaForm) -> None:
    schema = obj(
        {
            "remote": {"$ref": "https://example.com/thing.json"},
            "either": {"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "array"}]},
            "map": {"type": "object", "additionalProperties": {"type": "number"}},
            "name": {"type": "string"},
        }
    )
    form.set_schema(schema)
    for name in ("remote", "either", "map"):
        assert isinstance(row(form, name).editor, JsonFieldEditor), name
    assert form.warning_label.isVisible() or not form.isVisible()
    assert "never fetched" in form.warning_label.text()
    round_trip(form, schema, {"remote": {"a": [1]}, "either": 3, "map": {"k": 1.5}, "name": "n"})
    editor = row(form, "either").editor
    assert isinstance(editor, JsonFieldEditor)
    editor.edit.setPlainText("{oops")
    assert "either: not valid JSON" in form.validation_errors()[0]


def test_json_only_schema(form: SchemaForm) -> None:
    form.set_schema({"type": "array", "items": {"type": "string"}})
    assert form.mode() == "json" and not form.form_button.isEnabled()
    form.set_json_text('{"a": 1}')
    form.flush()
    assert form.values() == {"a": 1}


def test_invalid_schema_gets_a_warning_and_the_editor(form: SchemaForm) -> None:
    form.set_schema(obj({"a": {"type": "strin"}, "b": {"type": "string"}}))
    assert "not valid" in form.warning_label.text()
    assert form.validation_errors() == []  # not validated: a warning, never a blocker
    form.set_mode("json")
    form.set_json_text('{"a": 1, "b": "x"}')
    form.flush()
    assert form.set_mode("form") and form.values() == {"a": 1, "b": "x"}


# -- the JSON view ------------------------------------------------------------------

TICKET = obj(
    {
        "title": {"type": "string", "minLength": 3},
        "priority": {"type": "string", "enum": ["low", "medium", "high"], "default": "medium"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "assignee": obj(
            {"name": {"type": "string"}, "email": {"type": "string", "format": "email"}},
            ["name"],
        ),
    },
    ["title"],
)


def test_json_edits_reach_the_form_and_back(form: SchemaForm) -> None:
    form.set_schema(TICKET)
    form.set_mode("json")
    form.set_json_text('{"title": "Crash", "tags": ["x"], "assignee": {"name": "Bo"}}')
    form.flush()
    name = row(form, "assignee", "name").editor
    assert isinstance(name, StringEditor) and name.line_edit is not None
    assert name.line_edit.text() == "Bo"
    form.set_mode("form")
    name.line_edit.setText("Cy")
    form.set_mode("json")
    assert json.loads(form.json_text())["assignee"] == {"name": "Cy"}


def test_invalid_json_keeps_the_last_good_values(form: SchemaForm) -> None:
    form.set_schema(TICKET, {"title": "Good"})
    form.set_mode("json")
    form.set_json_text('{"title": ')
    form.flush()
    assert form.json_error_label.text().startswith("Not valid")
    assert form.values() == {"title": "Good"}
    assert not form.set_mode("form")  # refused: the JSON view stays, with the error
    assert form.mode() == "json"
    assert any("not valid" in e for e in form.validation_errors())
    form.set_json_text("[1]")
    assert not form.set_mode("form")
    assert "must be a JSON object" in form.json_error_label.text()


def test_keys_without_a_field_are_kept(form: SchemaForm) -> None:
    round_trip(form, TICKET, {"title": "Bug", "x-extra": {"deep": 1}})
    assert "x-extra" in form.note_label.text()
    # a nested key the schema does not list moves that field to JSON, and keeps it
    round_trip(form, TICKET, {"title": "Bug", "assignee": {"name": "A", "phone": "1"}})
    assert row(form, "assignee").is_raw


# -- validation ---------------------------------------------------------------------


def test_errors_sit_next_to_their_fields(form: SchemaForm) -> None:
    form.set_schema(TICKET, {"title": "x", "tags": ["ok", 5], "assignee": {"email": "nope"}})
    errors = form.validation_errors()
    assert errors == [
        "assignee.email: not a valid email address",
        "assignee.name: required",
        "tags[1]: 5 is not of type 'string'",
        "title: 'x' is too short",
    ]
    assert row(form, "title").error_label.text() == "'x' is too short"
    assert row(form, "assignee", "name").error_label.text() == "required"
    assert row(form, "assignee", "email").error_label.text() == "not a valid email address"
    assert row(form, "tags", 1).error_label.text() == "5 is not of type 'string'"
    assert not form.banner.isHidden() and "4 problems" in form.banner_label.text()
    # fixing a field clears its error once the user pauses
    title = row(form, "title").editor
    assert isinstance(title, StringEditor) and title.line_edit is not None
    title.line_edit.setText("Long enough")
    form._revalidate()
    assert row(form, "title").error_label.text() == ""
    form.set_values({"title": "Fine"})
    assert form.check() and form.banner.isHidden()


def test_send_anyway(form: SchemaForm, qtbot: QtBot) -> None:
    form.set_schema(TICKET, {})
    assert not form.check()
    with qtbot.waitSignal(form.send_anyway_requested, timeout=1000):
        qtbot.mouseClick(form.send_anyway_button, Qt.MouseButton.LeftButton)
    assert form.values() == {}  # what will be sent, unvalidated


# -- completions --------------------------------------------------------------------


def test_completions_are_debounced_and_stale_answers_dropped(
    form: SchemaForm, loop: asyncio.AbstractEventLoop
) -> None:
    asked: list[tuple[str, str, dict[str, Any]]] = []

    async def provider(name: str, prefix: str, values: dict[str, Any]) -> list[str]:
        asked.append((name, prefix, values))
        return [f"{prefix}-one", f"{prefix}-two", 3]  # type: ignore[list-item]

    form.set_schema(obj({"lang": {"type": "string"}, "owner": {"type": "string", "default": "me"}}))
    form.set_completer(provider)
    form.show()
    editor = row(form, "lang").editor
    assert isinstance(editor, StringEditor) and editor.line_edit is not None
    edit = editor.line_edit

    async def scenario() -> None:
        edit.setFocus()
        for text in ("p", "py"):
            edit.setText(text)
            edit.textEdited.emit(text)
            await asyncio.sleep(0.05)
        deadline = loop.time() + 5
        while not asked or form.completer.task is None or not form.completer.task.done():
            assert loop.time() < deadline, "the provider was never asked"
            await asyncio.sleep(0.01)

    run(loop, scenario(), 10)
    assert asked == [("lang", "py", {"lang": "py", "owner": "me"})]  # one request: debounced
    completer = edit.completer()
    assert completer is not None
    model = completer.model()
    shown = [model.index(i, 0).data() for i in range(model.rowCount())]
    assert shown == ["py-one", "py-two"]


def test_a_failing_provider_is_a_note(form: SchemaForm, loop: asyncio.AbstractEventLoop) -> None:
    async def provider(name: str, prefix: str, values: dict[str, Any]) -> list[str]:
        raise RuntimeError("server said no")

    form.set_schema(obj({"lang": {"type": "string"}}))
    form.set_completer(provider)
    editor = row(form, "lang").editor
    assert isinstance(editor, StringEditor) and editor.line_edit is not None
    edit = editor.line_edit

    async def scenario() -> None:
        edit.setText("p")
        edit.textEdited.emit("p")
        deadline = loop.time() + 5
        while "unavailable" not in form.note_label.text():
            assert loop.time() < deadline
            await asyncio.sleep(0.01)

    run(loop, scenario(), 10)
    assert "server said no" in form.note_label.text()


def test_a_huge_array_value_is_shown_as_json(form: SchemaForm) -> None:
    schema = obj({"v": {"type": "array", "items": {"type": "number"}}})
    values = {"v": list(range(5000))}
    form.set_schema(schema, values)
    assert row(form, "v").is_raw and form.values() == values
