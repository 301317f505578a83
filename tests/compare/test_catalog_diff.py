"""The catalog diff on plain snapshots: matching by identity, structural changes, hints,
ignore paths, server info, and what a partial listing means."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from inspector.compare import (
    CatalogSnapshot,
    diff_catalogs,
    diff_json_report,
    diff_text,
    ignore_rules,
)


def tool(name: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": f"the {name} tool",
        "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}},
        **extra,
    }


def snap(**kw: Any) -> CatalogSnapshot:
    base: dict[str, Any] = {
        "server_info": {"name": "srv", "version": "1.0"},
        "capabilities": {"tools": {}},
        "era": "legacy",
        "protocol_version": "2025-11-25",
    }
    base.update(kw)
    return CatalogSnapshot(**base)


def test_same_catalog_in_another_order_and_era_is_the_same() -> None:
    left = snap(tools=[tool("a"), tool("b")], resources=[{"uri": "file:///x", "name": "x"}])
    right = snap(
        tools=[tool("b"), tool("a")],
        resources=[{"uri": "file:///x", "name": "x"}],
        era="modern",
        protocol_version="2026-07-28",
        transport="http",
    )
    diff = diff_catalogs(left, right)
    assert diff.same
    assert [i.status for i in diff.items] == ["same", "same", "same"]
    assert diff_text(diff).endswith("The catalogs are the same.")
    assert diff_json_report(diff)["same"] is True


def test_added_removed_changed_with_pointer_paths() -> None:
    changed = tool("echo", annotations={"readOnlyHint": True})
    changed["inputSchema"]["properties"]["x"]["type"] = "integer"
    changed["description"] = "new words"
    left = snap(tools=[tool("echo"), tool("gone")])
    right = snap(tools=[changed, tool("fresh")])
    diff = diff_catalogs(left, right)
    assert not diff.same
    by = {i.key: i for i in diff.differences}
    assert by["gone"].status == "removed" and by["fresh"].status == "added"
    echo = by["echo"]
    assert echo.status == "changed"
    assert echo.fields == ("description", "inputSchema", "annotations")
    paths = {c.path: (c.kind, c.old, c.new) for c in echo.changes}
    assert paths["/inputSchema/properties/x/type"] == ("changed", "string", "integer")
    assert paths["/description"] == ("changed", "the echo tool", "new words")
    assert paths["/annotations"] == ("added", None, {"readOnlyHint": True})
    text = diff_text(diff)
    assert '~ changed tool "echo": description, inputSchema, annotations' in text
    assert '~ /inputSchema/properties/x/type: "string" → "integer"' in text
    assert '- removed tool "gone"' in text and '+ added tool "fresh"' in text
    report = diff_json_report(diff)
    assert report["counts"]["tools"] == {
        "added": 1,
        "removed": 1,
        "changed": 1,
        "same": 0,
        "unlisted": 0,
    }


def test_every_definition_field_is_compared() -> None:
    fields = {
        "title": ("A", "B"),
        "icons": ([{"src": "a.png"}], [{"src": "b.png"}]),
        "_meta": ({"k": 1}, {"k": 2}),
        "outputSchema": ({"type": "object"}, {"type": "object", "required": ["r"]}),
    }
    for name, (old, new) in fields.items():
        diff = diff_catalogs(
            snap(tools=[tool("t", **{name: old})]), snap(tools=[tool("t", **{name: new})])
        )
        assert diff.differences[0].fields == (name,), name


def test_true_and_one_are_not_the_same_default() -> None:
    a = tool("t", inputSchema={"type": "object", "properties": {"f": {"default": 1}}})
    b = copy.deepcopy(a)
    b["inputSchema"]["properties"]["f"]["default"] = True
    diff = diff_catalogs(snap(tools=[a]), snap(tools=[b]))
    assert diff.differences[0].changes[0].path == "/inputSchema/properties/f/default"


def test_resources_templates_prompts_by_identity() -> None:
    left = snap(
        resources=[{"uri": "file:///a", "name": "a"}, {"uri": "file:///b", "name": "b"}],
        templates=[{"uriTemplate": "x://{id}", "name": "x"}],
        prompts=[{"name": "p", "arguments": [{"name": "q", "required": True}]}],
    )
    right = snap(
        resources=[{"uri": "file:///b", "name": "b"}, {"uri": "file:///a", "name": "A"}],
        templates=[{"uriTemplate": "x://{id}", "name": "x", "mimeType": "text/plain"}],
        prompts=[{"name": "p", "arguments": [{"name": "q", "required": False}]}],
    )
    diff = diff_catalogs(left, right)
    got = {(i.kind, i.key): [c.path for c in i.changes] for i in diff.differences}
    assert got == {
        ("resources", "file:///a"): ["/name"],
        ("templates", "x://{id}"): ["/mimeType"],
        ("prompts", "p"): ["/arguments/name=q/required"],
    }


def test_case_and_namespace_look_alikes_get_a_hint() -> None:
    left = snap(tools=[tool("issue_read"), tool("Search")])
    right = snap(tools=[tool("github__issue_read"), tool("search")])
    diff = diff_catalogs(left, right)
    hints = {i.key: (i.status, i.hint) for i in diff.differences}
    assert hints["issue_read"][0] == "removed" and "github__issue_read" in str(
        hints["issue_read"][1]
    )
    assert "namespace" in str(hints["github__issue_read"][1])
    assert hints["search"][0] == "added" and "case" in str(hints["search"][1])
    assert "hint: may be the same as" in diff_text(diff)
    assert not diff.same


def test_uris_get_no_namespace_hint_but_a_case_one() -> None:
    left = snap(resources=[{"uri": "http://h/A", "name": "a"}, {"uri": "file:///Doc", "name": "d"}])
    right = snap(
        resources=[{"uri": "https://h/A", "name": "a"}, {"uri": "file:///doc", "name": "d"}]
    )
    hints = {i.key: i.hint for i in diff_catalogs(left, right).differences}
    assert hints["http://h/A"] is None
    assert "case" in str(hints["file:///doc"])


def test_server_info_capabilities_instructions() -> None:
    left = snap(instructions="use it")
    right = snap(
        server_info={"name": "srv", "version": "2.0"},
        capabilities={"tools": {"listChanged": True}},
        instructions="use it well",
    )
    diff = diff_catalogs(left, right)
    assert {c.path for c in diff.info} == {
        "/serverInfo/version",
        "/capabilities/tools/listChanged",
        "/instructions",
    }
    assert not diff.same
    ignored = diff_catalogs(
        left, right, ignore_rules(["/serverInfo/version", "/capabilities/**", "/instructions"])
    )
    assert ignored.same


def test_ignore_paths_inside_items_and_whole_items() -> None:
    a = tool("t", _meta={"build": 1})
    b = tool("t", _meta={"build": 2}, description="other")
    left, right = snap(tools=[a, tool("debug")]), snap(tools=[b])
    rules = ignore_rules(["/tools/*/_meta", "/**/description", "/tools/debug"])
    assert diff_catalogs(left, right, rules).same
    partial = diff_catalogs(left, right, ignore_rules(["/tools/*/_meta"]))
    assert [(i.key, i.fields) for i in partial.differences] == [
        ("t", ("description",)),
        ("debug", ()),
    ]


def test_a_slash_in_a_key_is_escaped_in_ignore_paths() -> None:
    left = snap(resources=[{"uri": "file:///a", "name": "a"}])
    right = snap(resources=[{"uri": "file:///a", "name": "b"}])
    assert diff_catalogs(left, right, ignore_rules(["/resources/file:~1~1~1a/name"])).same


def test_bad_ignore_path_is_an_error() -> None:
    with pytest.raises(ValueError, match="JSON Pointer"):
        ignore_rules(["tools/x"])


def test_incomplete_listing_is_never_same() -> None:
    left = snap(tools=[tool("a")])
    right = snap(tools=[tool("a")], errors={"tools": "tools/list: server exited (code 1)"})
    diff = diff_catalogs(left, right)
    assert not diff.same and not diff.complete
    text = diff_text(diff)
    assert "the right side's tools listing is incomplete: tools/list: server exited" in text
    assert "incomplete" in text.splitlines()[-1]


def test_hostile_items_keep_their_place() -> None:
    left = snap(tools=[tool("dup"), tool("dup", description="second"), {"no": "name"}])
    right = snap(tools=[tool("dup"), {"no": "name"}, tool("evil\nline")])
    diff = diff_catalogs(left, right)
    keys = {i.key: i.status for i in diff.items}
    assert keys["dup"] == "same"
    assert keys["dup (duplicate 2)"] == "removed"
    assert keys['(no name) {"no": "name"}'] == "same"
    assert keys["evil\nline"] == "added"
    assert '"evil\\nline"' in diff_text(diff)  # a newline in a name cannot forge a line


def test_snapshot_json_round_trip() -> None:
    s = snap(
        tools=[tool("a")], prompts=[{"name": "p"}], instructions="hi", errors={"resources": "x"}
    )
    again = CatalogSnapshot.from_json(s.to_json())
    assert again == s
    assert CatalogSnapshot.from_json({"tools": "nope", "serverInfo": 3}).tools == []


def test_items_missing_from_a_partial_listing_are_unlisted_not_removed() -> None:
    left = snap(tools=[tool("a"), tool("b")], prompts=[{"name": "p"}])
    right = snap(tools=[tool("a")], errors={"tools": "tools/list: server exited (code 4)"})
    diff = diff_catalogs(left, right)
    status = {(i.kind, i.key): i.status for i in diff.items}
    assert status == {
        ("tools", "a"): "same",
        ("tools", "b"): "unlisted",
        ("prompts", "p"): "removed",
    }
    assert [i.key for i in diff.differences] == ["p"]
    assert diff.counts()["tools"]["unlisted"] == 1
