"""What the explorer shows for an item (Qt-free): badges with implied defaults, headers,
summaries, sizes, data: icons only, Details sections."""

from __future__ import annotations

import base64
from typing import Any

from inspector.features.catalog.format import (
    data_icon,
    detail_sections,
    human_size,
    item_badges,
    mirrored_headers,
    resource_annotations,
    secondary_text,
    tool_badges,
)
from inspector.features.catalog.lists import CatalogItem, CatalogKind
from inspector.features.mcp_models import (
    Icon,
    Prompt,
    Resource,
    ResourceTemplate,
    Tool,
    parse_lenient,
)

MODELS: dict[CatalogKind, Any] = {
    "tools": Tool,
    "resources": Resource,
    "templates": ResourceTemplate,
    "prompts": Prompt,
}


def item(kind: CatalogKind, key: str, raw: dict[str, Any]) -> CatalogItem:
    return CatalogItem(kind, key, raw, parse_lenient(MODELS[kind], raw))


def labels(raw: dict[str, Any]) -> list[tuple[str, bool]]:
    return [(b.label, b.implied) for b in tool_badges(parse_lenient(Tool, raw))]


def test_badges_follow_the_specs_implied_defaults() -> None:
    # No annotations: the spec says assume destructive and open-world.
    assert labels({"name": "t"}) == [("destructive", True), ("open-world", True)]
    assert labels({"name": "t", "annotations": {"readOnlyHint": True}}) == [
        ("read-only", False),
        ("open-world", True),
    ]
    explicit = {"destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
    assert labels({"name": "t", "annotations": explicit}) == [("idempotent", False)]
    assert labels({"name": "t", "annotations": {"destructiveHint": True}}) == [
        ("destructive", False),
        ("open-world", True),
    ]
    # destructive/idempotent do not apply to a read-only tool
    ro = {"readOnlyHint": True, "destructiveHint": True, "idempotentHint": True}
    assert labels({"name": "t", "annotations": ro}) == [("read-only", False), ("open-world", True)]
    tip = tool_badges(parse_lenient(Tool, {"name": "t"}))[0].tooltip
    assert "not set" in tip and "default is true" in tip


def test_mirrored_headers_and_exclusion_badges() -> None:
    schema = {
        "type": "object",
        "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
    }
    tool = parse_lenient(Tool, {"name": "t", "inputSchema": schema})
    assert mirrored_headers(tool) == [("Mcp-Param-Region", "region")]
    it = item("tools", "t", {"name": "t", "inputSchema": schema})
    assert "1 header" not in [b.label for b in item_badges(it)]
    badge = next(b for b in item_badges(it, mirror_headers=True) if b.label == "1 header")
    assert "Mcp-Param-Region ← region" in badge.tooltip
    it.excluded = "invalid x-mcp-header: x"
    assert item_badges(it)[0].label == "excluded"
    bad = item("tools", "b", {"name": "b", "inputSchema": "not a dict"})
    assert "malformed" in [b.label for b in item_badges(bad)]


def test_secondary_lines_per_kind() -> None:
    assert secondary_text(item("tools", "t", {"name": "t"})) == ""
    assert secondary_text(item("tools", "t", {"name": "t", "title": "T"})) == "t"
    res = {"uri": "file:///a", "name": "a", "mimeType": "text/plain", "size": 2048}
    assert secondary_text(item("resources", "file:///a", res)) == "file:///a · text/plain · 2.0 KB"
    tpl = {"uriTemplate": "x/{id}", "name": "x"}
    assert secondary_text(item("templates", "x/{id}", tpl)) == "x/{id}"
    prompt = {"name": "p", "arguments": [{"name": "a", "required": True}, {"name": "b"}]}
    assert secondary_text(item("prompts", "p", prompt)) == "(a*, b)"
    assert secondary_text(item("prompts", "q", {"name": "q"})) == "(no arguments)"


def test_sizes_and_resource_annotations() -> None:
    assert [human_size(n) for n in (None, 0, 1023, 1024, 5 * 1024 * 1024)] == [
        "",
        "0 B",
        "1023 B",
        "1.0 KB",
        "5.0 MB",
    ]
    ann = {"audience": ["user", "assistant"], "priority": 0.8, "lastModified": "2025-01-01"}
    assert resource_annotations(ann) == "for user, assistant · priority 0.8 · modified 2025-01-01"
    assert resource_annotations("junk") == ""


def test_resource_annotation_badges() -> None:
    raw = {
        "uri": "a:b",
        "name": "b",
        "annotations": {"audience": ["user"], "priority": 0.25, "lastModified": "2025-05-01"},
    }
    badges = item_badges(item("resources", "a:b", raw))
    assert [b.label for b in badges] == ["for user", "priority 0.25"]
    assert "last modified 2025-05-01" in badges[1].tooltip
    odd = item_badges(item("resources", "x", {"uri": "x", "annotations": [1]}))
    assert [b.label for b in odd] == ["malformed"]  # no pills from a non-object


def test_only_data_uri_icons_are_used() -> None:
    png = base64.b64encode(b"\x89PNG fake").decode()
    icons = [
        Icon(src="https://example.com/i.png"),
        Icon(src="data:image/svg+xml;base64," + png),
        Icon(src="data:image/png;base64,!!!"),
        Icon(src=f"data:image/png;base64,{png}", theme="dark"),
        Icon(src=f"data:image/png;base64,{png}", theme="light"),
    ]
    assert data_icon(icons) == ("image/png", b"\x89PNG fake")
    assert data_icon(icons[:3]) is None
    assert data_icon(None) is None


def test_detail_sections() -> None:
    raw = {"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {}, "_meta": {"k": 1}}
    titles = [t for t, _ in detail_sections(item("tools", "t", raw))]
    assert titles == ["Definition", "inputSchema", "outputSchema", "_meta"]
    prompt = item("prompts", "p", {"name": "p", "arguments": []})
    assert [t for t, _ in detail_sections(prompt)] == ["Definition", "arguments"]
