"""Modern (2026-07-28) request metadata headers: Value Encoding, Mcp-Name, x-mcp-header."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from inspector.protocol.wire.http_headers import (
    encode_header_value,
    parse_tool_headers,
    request_headers,
)

V = "2026-07-28"


# spec 2026-07-28 basic/transports/streamable-http, "Value Encoding", the examples table.
@pytest.mark.parametrize(
    ("original", "encoded"),
    [
        ("us-west1", "us-west1"),
        ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
        (" padded ", "=?base64?IHBhZGRlZCA=?="),
        ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
        ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
    ],
)
def test_value_encoding_table_of_the_spec(original: str, encoded: str) -> None:
    assert encode_header_value(original) == encoded


@pytest.mark.parametrize(
    "value",
    [
        "tab\tinside",  # a control character
        "trailing ",
        " leading",
        "cr\rinside",
        "nul\x00",
        "del\x7f",
        "café",
        "=?base64?x?=",
    ],
)
def test_values_that_must_be_base64(value: str) -> None:
    encoded = encode_header_value(value)
    assert encoded.startswith("=?base64?") and encoded.endswith("?=")
    assert base64.b64decode(encoded[9:-2]).decode("utf-8") == value


@pytest.mark.parametrize("value", ["", "a b", "!#$%&'*+-.^_`|~", "x=?base64?y", "=?base64?"])
def test_values_that_stay_plain(value: str) -> None:
    assert encode_header_value(value) == value


def test_every_request_carries_version_and_method() -> None:
    assert request_headers("tools/list", None, V) == {
        "MCP-Protocol-Version": V,
        "Mcp-Method": "tools/list",
    }
    assert "Mcp-Name" not in request_headers("server/discover", {"_meta": {}}, V)


@pytest.mark.parametrize(
    ("method", "params", "name"),
    [
        ("tools/call", {"name": "get_weather", "arguments": {}}, "get_weather"),
        ("prompts/get", {"name": "greet"}, "greet"),
        ("resources/read", {"uri": "file:///projects/myapp/config.json"}, None),
        ("resources/read", {"uri": "greeting://Zoë"}, "=?base64?Z3JlZXRpbmc6Ly9ab8Or?="),
        ("tools/call", {"name": " spaced"}, "=?base64?IHNwYWNlZA==?="),
    ],
)
def test_mcp_name(method: str, params: dict[str, Any], name: str | None) -> None:
    expected = name if name is not None else params.get("uri", params.get("name"))
    headers = request_headers(method, params, V)
    assert headers["Mcp-Method"] == method
    assert headers["Mcp-Name"] == expected


def test_mcp_name_is_absent_when_the_body_has_no_string_name() -> None:
    assert "Mcp-Name" not in request_headers("tools/call", {"arguments": {}}, V)
    assert "Mcp-Name" not in request_headers("resources/read", {"uri": 5}, V)
    assert "Mcp-Name" not in request_headers("completion/complete", {"name": "x"}, V)


EXECUTE_SQL = {
    "type": "object",
    "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "query": {"type": "string"},
    },
    "required": ["region", "query"],
}


def test_the_spec_example_tool() -> None:
    spec = parse_tool_headers(EXECUTE_SQL)
    assert spec.valid and spec.headers == ((("region",), "Region"),)
    params = {"name": "execute_sql", "arguments": {"region": "us-west1", "query": "SELECT 1"}}
    assert request_headers("tools/call", params, V, spec) == {
        "MCP-Protocol-Version": V,
        "Mcp-Method": "tools/call",
        "Mcp-Name": "execute_sql",
        "Mcp-Param-Region": "us-west1",
    }


def _schema(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def _param_headers(schema: dict[str, Any], arguments: Any) -> dict[str, str]:
    spec = parse_tool_headers(schema)
    assert spec.valid, spec.describe_problems()
    headers = request_headers("tools/call", {"name": "t", "arguments": arguments}, V, spec)
    return {k: v for k, v in headers.items() if k.startswith("Mcp-Param-")}


def test_type_conversion() -> None:
    schema = _schema(
        s={"type": "string", "x-mcp-header": "S"},
        i={"type": "integer", "x-mcp-header": "I"},
        b={"type": "boolean", "x-mcp-header": "B"},
        f={"type": "boolean", "x-mcp-header": "F"},
    )
    headers = _param_headers(schema, {"s": "Hello, 世界", "i": -7, "b": True, "f": False})
    assert headers == {
        "Mcp-Param-S": "=?base64?SGVsbG8sIOS4lueVjA==?=",
        "Mcp-Param-I": "-7",
        "Mcp-Param-B": "true",
        "Mcp-Param-F": "false",
    }


def test_an_integral_float_is_sent_as_an_integer() -> None:
    schema = _schema(i={"type": "integer", "x-mcp-header": "I"})
    assert _param_headers(schema, {"i": 42.0}) == {"Mcp-Param-I": "42"}


@pytest.mark.parametrize("value", [2**53 - 1, -(2**53) + 1, 2**53, -(2**53), 10**30])
def test_integers_at_and_beyond_the_safe_range_keep_their_exact_decimal(value: int) -> None:
    """Beyond 2^53-1 the value breaks the schema's contract, but the header still carries the
    exact decimal (a rounded float would silently disagree with the body)."""
    schema = _schema(i={"type": "integer", "x-mcp-header": "I"})
    assert _param_headers(schema, {"i": value}) == {"Mcp-Param-I": str(value)}


@pytest.mark.parametrize("arguments", [{}, {"region": None}, None, {"other": 1}, "not an object"])
def test_null_or_absent_values_omit_the_header(arguments: Any) -> None:
    assert _param_headers(EXECUTE_SQL, arguments) == {}


def test_nested_properties_are_allowed_and_read_at_their_exact_path() -> None:
    schema = _schema(
        target={
            "type": "object",
            "properties": {
                "tenant": {"type": "string", "x-mcp-header": "Tenant"},
                "deep": {
                    "type": "object",
                    "properties": {"zone": {"type": "integer", "x-mcp-header": "Zone"}},
                },
            },
        }
    )
    spec = parse_tool_headers(schema)
    assert spec.valid
    assert spec.headers == (
        (("target", "tenant"), "Tenant"),
        (("target", "deep", "zone"), "Zone"),
    )
    headers = _param_headers(schema, {"target": {"tenant": "acme", "deep": {"zone": 3}}})
    assert headers == {"Mcp-Param-Tenant": "acme", "Mcp-Param-Zone": "3"}
    # A top-level argument of the same name is not the nested one.
    assert _param_headers(schema, {"tenant": "acme", "target": {"deep": None}}) == {}


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        (_schema(a={"type": "string", "x-mcp-header": ""}), "non-empty"),
        (_schema(a={"type": "string", "x-mcp-header": 5}), "non-empty string"),
        (_schema(a={"type": "string", "x-mcp-header": "Two Words"}), "field name"),
        (_schema(a={"type": "string", "x-mcp-header": "Colon:"}), "field name"),
        (_schema(a={"type": "string", "x-mcp-header": "Line\nBreak"}), "field name"),
        (_schema(a={"type": "string", "x-mcp-header": "Ünï"}), "field name"),
        (_schema(a={"type": "number", "x-mcp-header": "N"}), "'number'"),
        (_schema(a={"type": "object", "x-mcp-header": "O"}), "'object'"),
        (_schema(a={"type": "array", "x-mcp-header": "A"}), "'array'"),
        (_schema(a={"x-mcp-header": "Untyped"}), "None"),
        (_schema(a={"type": ["string", "null"], "x-mcp-header": "U"}), "type"),
        (
            _schema(
                a={"type": "string", "x-mcp-header": "Region"},
                b={"type": "string", "x-mcp-header": "region"},
            ),
            "used twice",
        ),
    ],
)
def test_invalid_annotations(schema: dict[str, Any], reason: str) -> None:
    spec = parse_tool_headers(schema)
    assert not spec.valid
    assert reason in spec.describe_problems()


@pytest.mark.parametrize(
    "schema",
    [
        # items (an array's elements)
        _schema(
            tags={"type": "array", "items": {"type": "string", "x-mcp-header": "Tag"}},
        ),
        # items with nested properties: still not a pure properties chain
        _schema(
            rows={
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "string", "x-mcp-header": "Id"}},
                },
            }
        ),
        # anyOf / oneOf / allOf / not
        _schema(a={"anyOf": [{"type": "string", "x-mcp-header": "A"}, {"type": "integer"}]}),
        _schema(a={"oneOf": [{"type": "string", "x-mcp-header": "A"}]}),
        {"type": "object", "allOf": [_schema(a={"type": "string", "x-mcp-header": "A"})]},
        _schema(a={"not": {"type": "string", "x-mcp-header": "A"}}),
        # if / then / else
        {"type": "object", "if": _schema(a={"type": "string", "x-mcp-header": "A"})},
        # a $ref'd definition is not statically reachable
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"type": "string", "x-mcp-header": "A"}},
        },
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/definitions/A"}},
            "definitions": {"A": {"type": "string", "x-mcp-header": "A"}},
        },
        # additionalProperties / patternProperties
        {"type": "object", "additionalProperties": {"type": "string", "x-mcp-header": "A"}},
        {"type": "object", "patternProperties": {"^a": {"type": "string", "x-mcp-header": "A"}}},
        # the root itself is not a property
        {"type": "object", "x-mcp-header": "Root", "properties": {}},
    ],
    ids=[
        "items",
        "items-properties",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "if",
        "$defs",
        "definitions",
        "additionalProperties",
        "patternProperties",
        "root",
    ],
)
def test_annotations_that_are_not_statically_reachable(schema: dict[str, Any]) -> None:
    spec = parse_tool_headers(schema)
    assert not spec.valid
    assert "reachable through 'properties' alone" in spec.describe_problems()


def test_instance_data_is_not_mistaken_for_an_annotation() -> None:
    schema = _schema(
        a={
            "type": "object",
            "default": {"x-mcp-header": "NotAnAnnotation"},
            "examples": [{"x-mcp-header": "Nope"}],
            "const": {"x-mcp-header": "Nope"},
        },
        # a property that happens to be called x-mcp-header
        **{"x-mcp-header": {"type": "string"}},
    )
    spec = parse_tool_headers(schema)
    assert spec.valid and spec.headers == ()


def test_one_bad_annotation_names_where_it_is() -> None:
    spec = parse_tool_headers(
        _schema(
            ok={"type": "string", "x-mcp-header": "Ok"},
            nested={"type": "object", "properties": {"n": {"type": "number", "x-mcp-header": "N"}}},
        )
    )
    assert not spec.valid
    assert spec.describe_problems().startswith("nested/n: ")


@pytest.mark.parametrize("schema", [None, "object", [], {"type": "object"}, {"properties": 3}])
def test_schemas_without_annotations(schema: Any) -> None:
    spec = parse_tool_headers(schema)
    assert spec.valid and spec.headers == ()


def test_a_very_deep_schema_does_not_overflow_the_stack() -> None:
    schema: dict[str, Any] = {"type": "string", "x-mcp-header": "Deep"}
    for i in range(5000):
        schema = {"type": "object", "properties": {f"p{i}": schema}}
    spec = parse_tool_headers(schema)
    assert spec.valid and len(spec.headers) == 1 and len(spec.headers[0][0]) == 5000
