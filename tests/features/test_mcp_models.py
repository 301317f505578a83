"""Lenient models: whatever the server sends is kept and shown; problems are noted, never raised."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.features.mcp_models import (
    AudioContent,
    Capabilities,
    EmbeddedResource,
    ImageContent,
    Implementation,
    Prompt,
    Resource,
    ResourceLink,
    ResourceTemplate,
    TextContent,
    Tool,
    ToolAnnotations,
    UnknownContent,
    parse_content,
    parse_lenient,
)

TOOL = {
    "name": "get_weather",
    "title": "Weather",
    "description": "Forecast",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
    "annotations": {"readOnlyHint": True},
    "_meta": {"vendor/x": 1},
    "x-vendor-extension": {"keep": "me"},
}


def test_tool_parses_and_keeps_unknown_fields_and_raw() -> None:
    tool = parse_lenient(Tool, TOOL)
    assert tool.name == "get_weather"
    assert tool.display_name == "Weather"
    assert tool.inputSchema["properties"]["city"] == {"type": "string"}
    assert tool.meta == {"vendor/x": 1}
    assert tool.model_extra == {"x-vendor-extension": {"keep": "me"}}
    assert tool.raw == TOOL
    assert tool.problems == []


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ({"name": 5}, "name: Input should be a valid string"),
        ({"name": "t", "inputSchema": []}, "inputSchema: Input should be a valid dictionary"),
        ({"name": "t", "icons": [{"src": "a.png"}, 5]}, "icons.1:"),
        ({"name": "t", "annotations": "readonly"}, "annotations:"),
        ({"name": "t", "description": ["a", "b"]}, "description:"),
    ],
)
def test_wrong_types_are_recorded_not_raised(raw: dict[str, Any], problem: str) -> None:
    tool = parse_lenient(Tool, raw)
    assert any(p.startswith(problem) for p in tool.problems), tool.problems
    assert tool.raw == raw  # the user still sees exactly what came


def test_one_bad_field_keeps_the_good_ones() -> None:
    tool = parse_lenient(Tool, {"name": "echo", "description": 42, "x": 1})
    assert tool.name == "echo"
    assert tool.description is None
    assert tool.model_extra == {"x": 1}
    assert tool.problems == ["description: Input should be a valid string"]


@pytest.mark.parametrize("raw", [None, 5, "tool", ["a"], 1.5])
def test_not_an_object(raw: Any) -> None:
    tool = parse_lenient(Tool, raw)
    assert tool.name == ""
    assert tool.problems == [f"expected an object, got {type(raw).__name__}"]


def test_server_fields_named_like_ours_do_not_leak_into_problems() -> None:
    raw = {"name": "t", "problems": ["fake problem"], "raw": "x", "annotations": {"raw": 1}}
    tool = parse_lenient(Tool, raw)
    assert tool.problems == []
    assert tool.raw == raw
    assert tool.annotations is not None and tool.annotations.raw == {"raw": 1}


def test_display_name_falls_back_to_annotation_title_then_name() -> None:
    assert parse_lenient(Tool, {"name": "n", "annotations": {"title": "T"}}).display_name == "T"
    assert parse_lenient(Tool, {"name": "n"}).display_name == "n"


# ----------------------------------------------------------------- annotations
def hints(**values: Any) -> ToolAnnotations:
    return parse_lenient(ToolAnnotations, values)


def test_annotation_defaults_assume_the_worst() -> None:
    # spec: readOnly false, destructive true, idempotent false, openWorld true when absent.
    a = hints()
    assert (a.read_only, a.destructive, a.idempotent, a.open_world) == (False, True, False, True)


def test_read_only_tool_is_not_destructive() -> None:
    a = hints(readOnlyHint=True, destructiveHint=True)
    assert a.read_only and not a.destructive


def test_explicit_hints_win() -> None:
    a = hints(destructiveHint=False, idempotentHint=True, openWorldHint=False)
    assert (a.read_only, a.destructive, a.idempotent, a.open_world) == (False, False, True, False)


def test_open_world_does_not_depend_on_read_only() -> None:
    assert hints(readOnlyHint=True).open_world
    assert not hints(readOnlyHint=True, openWorldHint=False).open_world


def test_bad_hint_is_noted_and_falls_back_to_the_default() -> None:
    a = hints(destructiveHint="sometimes")
    assert a.destructive
    assert a.problems and a.problems[0].startswith("destructiveHint:")


# --------------------------------------------------------------------- content
@pytest.mark.parametrize(
    ("raw", "cls", "check"),
    [
        ({"type": "text", "text": "hi"}, TextContent, ("text", "hi")),
        (
            {"type": "image", "data": "AAAA", "mimeType": "image/png"},
            ImageContent,
            ("mimeType", "image/png"),
        ),
        (
            {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"},
            AudioContent,
            ("data", "AAAA"),
        ),
        (
            {"type": "resource_link", "uri": "file:///a", "name": "a"},
            ResourceLink,
            ("uri", "file:///a"),
        ),
        (
            {"type": "resource", "resource": {"uri": "file:///b", "text": "body"}},
            EmbeddedResource,
            ("text", "body"),
        ),
    ],
)
def test_each_content_type(raw: dict[str, Any], cls: type, check: tuple[str, Any]) -> None:
    block = parse_content(raw)
    assert type(block) is cls
    assert getattr(block, check[0]) == check[1]
    assert block.raw == raw
    assert block.problems == []


def test_embedded_blob_resource() -> None:
    block = parse_content({"type": "resource", "resource": {"uri": "x", "blob": "AAA="}})
    assert isinstance(block, EmbeddedResource)
    assert (block.text, block.blob) == (None, "AAA=")


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        ({"type": "hologram", "frames": 3}, "'hologram'"),
        ({"text": "no type"}, "None"),
        ({"type": 7}, "7"),
        ("just text", "None"),
    ],
)
def test_unknown_content_is_kept_and_flagged(raw: Any, kind: str) -> None:
    block = parse_content(raw)
    assert isinstance(block, UnknownContent)
    assert f"unknown content type {kind}" in block.problems
    if isinstance(raw, dict):
        assert block.raw == raw


def test_unknown_content_keeps_its_fields() -> None:
    block = parse_content({"type": "hologram", "frames": 3})
    assert block.type == "hologram"
    assert block.model_extra == {"frames": 3}


def test_content_with_a_wrong_field_type() -> None:
    block = parse_content({"type": "text", "text": 5})
    assert isinstance(block, TextContent)
    assert block.text == ""
    assert block.problems == ["text: Input should be a valid string"]


# ------------------------------------------------------------------ other models
def test_other_models_parse_leniently() -> None:
    res = parse_lenient(Resource, {"uri": "file:///a", "name": "a", "size": "big"})
    assert res.uri == "file:///a" and res.size is None and res.problems
    tmpl = parse_lenient(ResourceTemplate, {"uriTemplate": "file:///{p}", "name": "t"})
    assert tmpl.uriTemplate == "file:///{p}"
    prompt = parse_lenient(Prompt, {"name": "p", "arguments": [{"name": "a", "required": True}]})
    assert prompt.arguments is not None and prompt.arguments[0].required is True
    impl = parse_lenient(Implementation, {"name": "srv", "version": "1", "websiteUrl": "u"})
    assert impl.websiteUrl == "u"
    caps = parse_lenient(Capabilities, {"tools": {}, "experimental": {"x": {}}, "future": {}})
    assert caps.tools == {} and caps.resources is None
    assert caps.model_extra == {"future": {}}


def test_dump_leaves_out_our_bookkeeping() -> None:
    tool = parse_lenient(Tool, {"name": "t", "description": 3})
    dumped = tool.model_dump(by_alias=True, exclude_none=True)
    assert "raw" not in dumped and "problems" not in dumped
    assert dumped["name"] == "t"
