"""RFC 6570 templates of MCP resource templates: variables, checks, expansion, form schema."""

from __future__ import annotations

import pytest

from inspector.features.uri_template import UriTemplate, variables_schema


def test_simple_template() -> None:
    t = UriTemplate("demo://notes/{topic}")
    assert t.valid and t.names == ["topic"]
    assert t.expand({"topic": "debugging"}).uri == "demo://notes/debugging"
    assert t.expand({"topic": "a b/c"}).uri == "demo://notes/a%20b%2Fc"  # simple: encoded
    assert t.expand({}).missing == ("topic",)


def test_operators_and_optional_parts() -> None:
    t = UriTemplate("file:///{+path}{?q,limit}{#frag}")
    assert t.names == ["path", "q", "limit", "frag"]
    assert [v.optional for v in t.variables] == [False, True, True, True]
    got = t.expand({"path": "src/main.py", "q": "", "limit": 5})
    assert got.uri == "file:///src/main.py?limit=5"  # empty q is undefined: left out
    assert got.missing == ()


def test_explode_and_prefix() -> None:
    t = UriTemplate("x://{/segments*}{?tags*}{name:3}")
    assert [(v.name, v.explode, v.prefix) for v in t.variables] == [
        ("segments", True, None),
        ("tags", True, None),
        ("name", False, 3),
    ]
    uri = t.expand({"segments": ["a", "b"], "tags": ["x", "y"], "name": "abcdef"}).uri
    assert uri == "x:///a/b?tags=x&tags=y" + "abc"
    schema = variables_schema(t)
    assert schema["properties"]["segments"]["type"] == "array"
    assert schema["properties"]["name"] == {"type": "string", "maxLength": 3}


def test_repeated_variable_is_one_field() -> None:
    t = UriTemplate("x://{a}/{a}/{b}")
    assert t.names == ["a", "b"]
    assert t.expand({"a": "1", "b": "2"}).uri == "x://1/1/2"


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ("demo://{unclosed", "unclosed"),
        ("demo://x}", "unmatched '}'"),
        ("demo://{}", "is empty"),
        ("demo://{a b}", "not a valid variable"),
        ("demo://{=a}", "reserved operator"),
        ("demo://{a:abc}", "not a valid variable"),
        ("demo://{a:0}", "prefix length 0"),
        ("demo://{{a}}", "inside an expression"),
    ],
)
def test_malformed_templates_are_reported(template: str, problem: str) -> None:
    t = UriTemplate(template)
    assert not t.valid
    assert any(problem in p for p in t.problems), t.problems
    t.expand({"a": "1"})  # never raises


def test_schema_for_a_form() -> None:
    t = UriTemplate("demo://notes/{topic}{?lang}")
    schema = variables_schema(t, {"topic": "What the note is about"})
    assert schema["required"] == ["topic"]
    assert schema["properties"]["topic"] == {
        "type": "string",
        "description": "What the note is about",
    }
    assert schema["properties"]["lang"]["description"] == "query parameter"


def test_non_string_values() -> None:
    t = UriTemplate("x://{a}/{b}")
    assert t.expand({"a": 3, "b": True}).uri == "x://3/true"
