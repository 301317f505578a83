"""The Save call dialog's assertion rows, Qt-free: every kind becomes the model's
assertion; what is wrong is named with its row and column; kinds that cannot apply say
why; the catalog kinds go into the tool's catalog entry, merged with one already there."""

from __future__ import annotations

import pytest

from inspector.collections.assertion_rows import (
    AssertionRow,
    RowError,
    add_catalog_entry,
    build_assertions,
    catalog_entry,
    unavailable,
)
from inspector.collections.call_draft import CallDraft
from inspector.collections.collection import (
    Collection,
    InputSchemaAssertion,
    LatencyAssertion,
    OutcomeAssertion,
    OutputSchemaAssertion,
    PointerAssertion,
    SavedCall,
    SnapshotAssertion,
    ToolExistsAssertion,
)
from inspector.collections.file import dumps_collection, loads_collection

TOOL = {
    "name": "add",
    "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}}},
    "outputSchema": {"type": "object"},
}
RESULT = {"content": [{"type": "text", "text": "3"}], "structuredContent": {"sum": 3}}
DRAFT = CallDraft("tools/call", {"name": "add", "arguments": {"a": 1}}, result=RESULT)


def test_every_kind_becomes_its_assertion_and_round_trips_through_the_file() -> None:
    rows = [
        AssertionRow("outcome", value="error", code=-32602),
        AssertionRow("equals", "/structuredContent/sum", "3"),
        AssertionRow("contains", "/content/0", '{"type": "text"}'),
        AssertionRow("matches", "/content/0/text", r"^\d+$"),
        AssertionRow("type", "/structuredContent/sum", " integer "),
        AssertionRow("outputSchema"),
        AssertionRow("latency", value="250"),
        AssertionRow("snapshot"),
        AssertionRow("toolExists"),
        AssertionRow("inputSchema"),
    ]
    own, catalog = build_assertions(rows, DRAFT, TOOL)
    assert own[:7] == (
        OutcomeAssertion("error", -32602),
        PointerAssertion("/structuredContent/sum", "equals", 3),
        PointerAssertion("/content/0", "contains", {"type": "text"}),
        PointerAssertion("/content/0/text", "matches", r"^\d+$"),
        PointerAssertion("/structuredContent/sum", "type", "integer"),
        OutputSchemaAssertion(),
        LatencyAssertion(250.0),
    )
    assert isinstance(own[7], SnapshotAssertion)
    assert catalog == (ToolExistsAssertion(True), InputSchemaAssertion(TOOL["inputSchema"]))
    # what the dialog builds, the file reads back the same (the loader's own checks agree)
    collection = Collection("c", [SavedCall("add", "tool", tool="add", assertions=own)])
    collection.add(catalog_entry("add", catalog))
    again = loads_collection(dumps_collection(collection), "c.json")
    assert again.calls[0].assertions == own and again.calls[1].assertions == catalog


@pytest.mark.parametrize(
    ("row", "column", "words"),
    [
        (AssertionRow("equals", "content/0", "1"), "pointer", "is not a JSON Pointer"),
        (AssertionRow("contains", "/a~2b", "1"), "pointer", "'~' must be followed by 0"),
        (AssertionRow("equals", "/a", "hello"), "value", "the value is not JSON"),
        (AssertionRow("contains", "/a", ""), "value", "the value is not JSON"),
        (AssertionRow("matches", "/a", "(unclosed"), "value", "not a valid regular expression"),
        (AssertionRow("matches", "/a", ""), "value", "write the regular expression"),
        (AssertionRow("type", "/a", "float"), "value", "'float' is not a JSON type"),
        (AssertionRow("latency", value="0"), "value", "above 0"),
        (AssertionRow("latency", value="soon"), "value", "above 0"),
        (AssertionRow("outcome", value="maybe"), "value", "must be one of ok, isError"),
    ],
)
def test_what_is_wrong_is_named_with_its_row(row: AssertionRow, column: str, words: str) -> None:
    with pytest.raises(RowError) as caught:
        build_assertions([AssertionRow("latency", value="9"), row], DRAFT, TOOL)
    assert caught.value.row == 1 and caught.value.column == column
    assert words in str(caught.value)


def test_kinds_that_cannot_apply_say_why() -> None:
    never_ran = CallDraft("tools/call", {"name": "add"})
    assert unavailable("snapshot", never_ran, TOOL) == (
        "run the call first: there is no result to keep"
    )
    prompt = CallDraft("prompts/get", {"name": "p"}, result={"messages": []})
    for kind in ("outputSchema", "toolExists", "inputSchema"):
        assert unavailable(kind, prompt, None) == "tool calls only"  # type: ignore[arg-type]
    plain = {"name": "echo", "inputSchema": {"type": "object"}}
    assert unavailable("outputSchema", DRAFT, plain) == "the tool declares no outputSchema"
    assert unavailable("outputSchema", DRAFT, None) is None  # unknown: the run will tell
    assert "not known" in str(unavailable("inputSchema", DRAFT, None))
    with pytest.raises(RowError, match="the tool declares no outputSchema"):
        build_assertions([AssertionRow("outputSchema")], DRAFT, plain)
    with pytest.raises(RowError, match="one outcome"):
        build_assertions([AssertionRow("outcome", value="ok")] * 2, DRAFT, TOOL)


def test_the_catalog_entry_is_merged_into_the_one_in_the_file() -> None:
    kept = PointerAssertion("/description", "contains", "Add")
    old = SavedCall(
        "catalog: add",
        "catalog",
        tool="add",
        assertions=(ToolExistsAssertion(True), InputSchemaAssertion({"type": "object"}), kept),
    )
    collection = Collection("c", [old])
    new_schema = InputSchemaAssertion(TOOL["inputSchema"])
    merged = add_catalog_entry(collection, catalog_entry("add", (new_schema,)))
    assert [c.name for c in collection.calls] == ["catalog: add"]
    assert merged.assertions == (ToolExistsAssertion(True), kept, new_schema)
    # a call of that name that is not this tool's catalog entry is left alone
    other = Collection("c", [SavedCall("catalog: add", "tool", tool="add")])
    added = add_catalog_entry(other, catalog_entry("add", (ToolExistsAssertion(True),)))
    assert added.name == "catalog: add (2)" and len(other.calls) == 2
