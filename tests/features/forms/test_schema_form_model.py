"""The Qt-free part of schema forms: one test per schema construct, coercion, validation."""

from __future__ import annotations

import urllib.request
from typing import Any

import pytest

from inspector.features.forms.fields import (
    MAX_DEPTH,
    MAX_PROPERTIES,
    UNSET,
    FieldSpec,
    build_form,
    format_number,
    initial_value,
    parse_number,
    path_str,
    split_known,
    validate_values,
    validator_class,
)
from inspector.features.forms.secret_fields import looks_secret, secret_reason


def field(schema: dict[str, Any], name: str = "x", required: bool = False) -> FieldSpec:
    obj: dict[str, Any] = {"type": "object", "properties": {name: schema}}
    if required:
        obj["required"] = [name]
    plan = build_form(obj)
    assert plan.root is not None
    spec = plan.root.child(name)
    assert spec is not None
    return spec


# -- constructs -----------------------------------------------------------------------


def test_string_with_formats_and_lengths() -> None:
    spec = field({"type": "string", "format": "email", "minLength": 3, "maxLength": 40})
    assert (spec.kind, spec.format, spec.min_length, spec.max_length) == (
        "string",
        "email",
        3,
        40,
    )
    assert not spec.multiline
    for fmt in ("uri", "date", "date-time"):
        assert field({"type": "string", "format": fmt}).format == fmt


def test_long_text_is_multiline() -> None:
    assert field({"type": "string"}, name="body").multiline
    assert field({"type": "string", "maxLength": 5000}).multiline
    assert field({"type": "string", "default": "a\nb"}).multiline
    assert not field({"type": "string"}, name="city").multiline
    assert not field({"type": "string", "maxLength": 40}, name="message").multiline


def test_number_and_integer_bounds() -> None:
    spec = field({"type": "integer", "minimum": 1, "maximum": 50, "default": 5})
    assert (spec.kind, spec.minimum, spec.maximum, spec.default) == ("integer", 1, 50, 5)
    spec = field({"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5})
    assert (spec.kind, spec.minimum, spec.exclusive_minimum, spec.step) == (
        "number",
        0,
        True,
        0.5,
    )
    legacy = field({"type": "number", "minimum": 0, "exclusiveMinimum": True})
    assert legacy.minimum == 0 and legacy.exclusive_minimum


def test_boolean() -> None:
    spec = field({"type": "boolean", "default": False})
    assert spec.kind == "boolean" and spec.default is False


def test_enum_and_titled_enums() -> None:
    plain = field({"type": "string", "enum": ["low", "high"]})
    assert plain.kind == "enum" and [c.label for c in plain.choices] == ["low", "high"]
    colors = [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]
    titled = field({"type": "string", "oneOf": colors})
    assert [(c.value, c.label) for c in titled.choices] == [("r", "Red"), ("g", "Green")]
    legacy = field({"type": "string", "enum": ["a", "b"], "enumNames": ["Alpha", "Beta"]})
    assert [(c.value, c.label) for c in legacy.choices] == [("a", "Alpha"), ("b", "Beta")]
    numbers = field({"enum": [1, 2, None]})
    assert [c.label for c in numbers.choices] == ["1", "2", "null"]


def test_const_is_a_read_only_choice() -> None:
    spec = field({"const": "v1"})
    assert spec.kind == "enum" and spec.read_only and spec.default == "v1"


def test_arrays_and_multi_select() -> None:
    tags = field({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3})
    assert tags.kind == "array" and tags.item is not None and tags.item.kind == "string"
    assert tags.item.keep_empty and (tags.min_items, tags.max_items) == (1, 3)
    multi = field({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}})
    assert multi.kind == "multi_enum" and [c.value for c in multi.choices] == ["a", "b"]
    titled = field({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}})
    assert titled.kind == "multi_enum" and titled.choices[0].label == "A"
    tuple_ = field({"type": "array", "prefixItems": [{"type": "string"}]})
    assert tuple_.kind == "json" and tuple_.why_json


def test_nested_objects_and_required_markers() -> None:
    spec = field(
        {
            "type": "object",
            "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
            "required": ["name"],
        },
        name="assignee",
        required=True,
    )
    assert spec.kind == "object" and spec.required
    assert [(p.name, p.required) for p in spec.properties] == [("name", True), ("email", False)]


def test_defaults_applied() -> None:
    plan = build_form(
        {
            "type": "object",
            "properties": {
                "mode": {"type": "string", "default": "auto"},
                "n": {"type": "integer"},
                "opts": {"type": "object", "properties": {"deep": {"default": True}}},
            },
        }
    )
    assert plan.root is not None
    assert initial_value(plan.root) == {"mode": "auto", "opts": {"deep": True}}


def test_descriptions_and_titles_are_kept() -> None:
    spec = field({"type": "string", "title": "City", "description": "Where <b>you</b> live"})
    assert spec.label == "City" and spec.description == "Where <b>you</b> live"


def test_nullable_forms() -> None:
    spec = field({"type": ["string", "null"]})
    assert spec.kind == "string" and spec.nullable
    spec = field({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}], "title": "N"})
    assert spec.kind == "integer" and spec.nullable and spec.minimum == 0 and spec.title == "N"
    several = field({"type": ["string", "number"]})
    assert several.kind == "json" and "several types" in (several.why_json or "")


def test_local_refs_resolve_and_remote_refs_fall_back() -> None:
    plan = build_form(
        {
            "type": "object",
            "$defs": {"Color": {"type": "string", "enum": ["red", "blue"]}},
            "properties": {
                "color": {"$ref": "#/$defs/Color"},
                "remote": {"$ref": "https://example.com/schema.json"},
                "loop": {"$ref": "#/properties/loop"},
            },
        }
    )
    assert plan.root is not None
    color, remote, loop = plan.root.properties
    assert color.kind == "enum"
    assert remote.kind == "json" and "never fetched" in (remote.why_json or "")
    assert loop.kind == "json"
    assert any("never fetched" in w for w in plan.warnings)


def test_complex_combinators_and_maps_fall_back_to_json() -> None:
    one_of = field({"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]})
    assert one_of.kind == "json" and "oneOf with 3" in (one_of.why_json or "")
    all_of = field({"allOf": [{"type": "string"}, {"minLength": 2}]})
    assert all_of.kind == "json"
    single = field({"allOf": [{"type": "string"}], "description": "d"})
    assert single.kind == "string" and single.description == "d"
    mapping = field({"type": "object", "additionalProperties": {"type": "string"}})
    assert mapping.kind == "json"
    patterned = field({"type": "object", "patternProperties": {"^x": {}}})
    assert patterned.kind == "json"


def test_root_that_is_not_an_object_is_json_only() -> None:
    plan = build_form({"type": "array"})
    assert plan.root is None and plan.why_json_only
    assert build_form(None).root is not None  # no schema: an empty object
    assert build_form("nonsense").root is None


def test_additional_properties_on_the_root_is_noted() -> None:
    plan = build_form(
        {"type": "object", "properties": {"a": {}}, "additionalProperties": {"type": "string"}}
    )
    assert plan.root is not None and plan.root.extra_keys
    assert any("additionalProperties" in w for w in plan.warnings)
    assert split_known(plan.root, {"a": 1, "b": "x"}) == ({"a": 1}, {"b": "x"})


# -- values ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "integer", "expected"),
    [
        ("", False, UNSET),
        ("  ", True, UNSET),
        ("12", True, 12),
        ("12", False, 12),
        ("1.5", False, 1.5),
        ("3.0", True, 3),
        ("1e3", True, 1000),
        ("1.5", True, 1.5),  # validation says "not an integer"; Send anyway still can
        ("abc", False, "abc"),
        ("-", False, "-"),
    ],
)
def test_parse_number(text: str, integer: bool, expected: Any) -> None:
    value = parse_number(text, integer)
    assert value == expected and type(value) is type(expected)


def test_format_number_round_trips() -> None:
    for value in (0, 7, -3, 1.5, 0.1, 2.0, 1e20):
        assert parse_number(format_number(value), isinstance(value, int)) == value


def test_path_str() -> None:
    assert path_str(()) == "(arguments)"
    assert path_str(("assignee", "email")) == "assignee.email"
    assert path_str(("tags", 0, "name")) == "tags[0].name"


def test_secret_names_and_formats() -> None:
    assert looks_secret("api_key") and looks_secret("password") and looks_secret("githubToken")
    assert looks_secret("x", {"type": "string", "format": "password"})
    assert looks_secret("x", {"writeOnly": True})
    assert not looks_secret("title") and not looks_secret("author")


def test_secret_names_are_whole_words_not_substrings() -> None:
    """Issue 18.6: "maxTokens" is not a secret because it contains "token"."""
    for name in ("maxTokens", "max_tokens", "tokenCount", "spin", "authorName", "passage"):
        assert not looks_secret(name), name
    for name in ("token", "accessToken", "github_token", "API_KEY", "apiKey", "sessionId"):
        assert looks_secret(name), name
    assert secret_reason("x", {"format": "password"}) == "format: password"
    assert secret_reason("x", {"writeOnly": True}) == "writeOnly"
    assert secret_reason("tenant", None, ["tenant"]) == "its name is in the secret field names"
    assert secret_reason("token", None, []) is None  # the user's list decides


# -- validation -----------------------------------------------------------------------

TICKET = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "minLength": 3},
        "tags": {"type": "array", "items": {"type": "string"}},
        "assignee": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "email": {"format": "email"}},
            "required": ["name"],
        },
        "due": {"type": "string", "format": "date"},
        "when": {"type": "string", "format": "date-time"},
        "site": {"type": "string", "format": "uri"},
    },
    "required": ["title"],
}


def test_errors_point_at_their_fields() -> None:
    report = validate_values(
        TICKET,
        {
            "tags": ["ok", 2],
            "assignee": {"email": "nope"},
            "due": "2024-02-30",
            "when": "yesterday",
            "site": "not a uri",
        },
    )
    where = {e.where: e.message for e in report.errors}
    assert where["title"] == "required"
    assert where["assignee.name"] == "required"
    assert where["assignee.email"] == "not a valid email address"
    assert "string" in where["tags[1]"]
    assert where["due"].startswith("not a valid date")
    assert where["when"].startswith("not a valid date and time")
    assert where["site"].startswith("not a valid URI")
    assert validate_values(TICKET, {"title": "Bug", "when": "2025-01-31T09:30:00Z"}).ok


def test_each_missing_required_field_is_reported_once() -> None:
    # jsonschema gives one "required" error per missing name (issue 31, item 1).
    schema = {
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"],
    }
    assert [str(e) for e in validate_values(schema, {}).errors] == ["a: required", "b: required"]


def test_draft_chosen_by_dollar_schema() -> None:
    assert validator_class({}).__name__ == "Draft202012Validator"
    seven = {"$schema": "http://json-schema.org/draft-07/schema#"}
    assert validator_class(seven).__name__ == "Draft7Validator"
    # draft 7 reads `items` as a list (a tuple); 2020-12 would reject that schema
    schema = {**seven, "type": "array", "items": [{"type": "string"}]}
    assert validate_values(schema, [1]).errors


def test_invalid_schema_is_a_problem_not_an_error() -> None:
    report = validate_values({"type": "object", "properties": {"a": {"type": "strin"}}}, {})
    assert report.ok and report.schema_problem
    assert "not a valid JSON Schema" in report.schema_problem


def test_remote_refs_are_never_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("a $ref was fetched")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    schema = {"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}
    report = validate_values(schema, {"a": 1})
    assert report.schema_problem and "never fetched" in report.schema_problem


def test_local_refs_validate() -> None:
    schema = {
        "type": "object",
        "$defs": {"N": {"type": "integer"}},
        "properties": {"n": {"$ref": "#/$defs/N"}},
    }
    assert [e.where for e in validate_values(schema, {"n": "x"}).errors] == ["n"]


def test_deep_and_wide_schemas_fall_back_to_json() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(400):  # far beyond the recursion a naive builder survives
        deep = {"type": "object", "properties": {"x": deep}}
    plan = build_form(deep)
    assert plan.root is not None
    assert any(f"nested deeper than {MAX_DEPTH} levels" in w for w in plan.warnings)
    wide = {f"p{i}": {"type": "string"} for i in range(MAX_PROPERTIES + 1)}
    spec = field({"type": "object", "properties": wide})
    assert spec.kind == "json" and "too many for a form" in (spec.why_json or "")
    report = validate_values(deep, {"x": {"x": 1}})  # no crash: a problem, said in words
    assert report.schema_problem == "the schema is nested too deeply to check"
