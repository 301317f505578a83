"""Collection files: stable text, and every kind of bad file refused with the file, the
line and the reason (never a traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.collections.collection import (
    Collection,
    InputSchemaAssertion,
    LatencyAssertion,
    OutcomeAssertion,
    OutputSchemaAssertion,
    PointerAssertion,
    SavedAnswer,
    SavedCall,
    SnapshotAssertion,
    ToolExistsAssertion,
)
from inspector.collections.file import (
    MAX_FILE_BYTES,
    CollectionError,
    dumps_collection,
    load_collection,
    loads_collection,
    save_collection,
)


def _every_kind() -> Collection:
    return Collection(
        name="demo",
        calls=[
            SavedCall(
                "echo",
                "tool",
                tool="echo",
                arguments={"message": "héllo ${env:WHO}"},
                timeout_ms=2500,
                answers=(SavedAnswer("sampling/createMessage", {}, {"role": "assistant"}),),
                assertions=(
                    OutcomeAssertion("ok"),
                    PointerAssertion("/content/0/text", "equals", "hi"),
                    PointerAssertion("/content", "contains", {"type": "text"}),
                    PointerAssertion("/content/0/text", "matches", "^h"),
                    PointerAssertion("", "type", "object"),
                    OutputSchemaAssertion(),
                    SnapshotAssertion({"content": []}, ("/content/*/text",)),
                    LatencyAssertion(500),
                ),
            ),
            SavedCall("readme", "resource", uri="demo://readme"),
            SavedCall("greet", "prompt", prompt="greet", arguments={"name": "x"}),
            SavedCall(
                "complete",
                "completion",
                ref={"type": "ref/prompt", "name": "review_code"},
                argument={"name": "language", "value": "py"},
                assertions=(OutcomeAssertion("error", -32602),),
            ),
            SavedCall(
                "catalog: echo",
                "catalog",
                tool="echo",
                assertions=(ToolExistsAssertion(True), InputSchemaAssertion({"type": "object"})),
            ),
        ],
    )


def test_round_trip_is_stable_and_reviewable(tmp_path: Path) -> None:
    path = tmp_path / "demo.collection.json"
    save_collection(path, _every_kind())
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert '\n  "version": 1,\n  "name": "demo",\n  "calls": [\n    {\n      "name": "echo"' in text
    assert "héllo" in text  # not \u escapes
    again = load_collection(path)
    assert again == _every_kind()
    assert dumps_collection(again) == text  # load + save changes nothing
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left


def _error(text: str) -> CollectionError:
    with pytest.raises(CollectionError) as info:
        loads_collection(text, "tests.json")
    return info.value


def _doc(*calls: str) -> str:
    return '{\n  "version": 1,\n  "calls": [\n' + ",\n".join(calls) + "\n  ]\n}\n"


def test_bad_json_names_file_line_and_column() -> None:
    err = _error('{\n  "version": 1,\n  "calls": [\n    {"name": "a",}\n  ]\n}')
    assert err.line == 4
    assert str(err).startswith("tests.json:4: column 18: ")


def test_unknown_assertion_names_its_line_and_the_known_ones() -> None:
    err = _error(
        _doc(
            '    {"name": "ok", "kind": "tool", "tool": "echo"}',
            '    {"name": "echo", "kind": "tool", "tool": "echo",\n'
            '     "assert": [\n       {"outcome": "ok"},\n       {"looksLike": 3}]}',
        )
    )
    assert err.line == 8
    assert "calls[1] 'echo' assert[1]" in err.where
    assert "unknown assertion ('looksLike')" in err.reason and "latencyUnderMs" in err.reason


@pytest.mark.parametrize(
    ("assertion", "reason"),
    [
        ('{"pointer": "content/0", "equals": 1}', "is not a JSON Pointer"),
        ('{"pointer": "/a~2b", "equals": 1}', "'~' must be followed by 0"),
        ('{"pointer": "/a", "matches": "(unclosed"}', "not a valid regular expression"),
        ('{"pointer": "/a", "type": "float"}', "'type' must be one of"),
        ('{"pointer": "/a"}', "give exactly one of equals"),
        ('{"pointer": "/a", "equals": 1, "contains": 2}', "give exactly one of"),
        ('{"outcome": "fine"}', "must be one of ok, isError, error, timeout"),
        ('{"outcome": "ok", "code": 3}', 'goes with \\"outcome\\": \\"error\\"'.replace("\\", "")),
        ('{"latencyUnderMs": -1}', "positive number"),
        ('{"snapshot": {}, "ignore": ["content"]}', "is not a JSON Pointer"),
        ('{"toolExists": true}', "catalog entries only"),
        ('{"outputSchema": true}', 'write it as {"outputSchema": "valid"}'),
    ],
)
def test_bad_assertions_are_refused_with_the_reason(assertion: str, reason: str) -> None:
    err = _error(
        _doc(f'    {{"name": "x", "kind": "tool", "tool": "t", "assert": [\n{assertion}]}}')
    )
    assert reason in err.reason
    assert err.line == 5  # the assertion's own line
    assert "calls[0] 'x' assert[0]" in err.where


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[]", "a collection is a JSON object"),
        ('{"version": 1}', "must be a list of saved calls"),
        ('{"calls": []}', "must be the number 1"),
        ('{"version": 2, "calls": []}', "newer MCP Inspector"),
        ('{"version": 1, "calls": [], "extra": 1}', "unknown key(s) 'extra'"),
        ('{"version": 1, "version": 1, "calls": []}', "appears twice"),
        ('{"version": 1, "calls": [{"kind": "tool"}]}', "needs a 'name'"),
        ('{"version": 1, "calls": [{"name": "a", "kind": "shell"}]}', "'kind' must be one of"),
        ('{"version": 1, "calls": [{"name": "a", "kind": "tool"}]}', "a tool call needs 'tool'"),
        (
            '{"version": 1, "calls": [{"name": "a", "kind": "tool", "tool": "t"},'
            '{"name": "a", "kind": "tool", "tool": "t"}]}',
            "is used twice",
        ),
        ('{"version": 1, "calls": [{"name": "a", "kind": "tool", "tool": 3}]}', "must be a string"),
        (
            '{"version": 1, "calls": [{"name": "a", "kind": "completion", '
            '"ref": {"type": "x"}, "argument": {"name": "n", "value": "v"}}]}',
            "ref/prompt or ref/resource",
        ),
        (
            '{"version": 1, "calls": [{"name": "a", "kind": "tool", "tool": "t", '
            '"answers": [{"method": "sampling/createMessage"}]}]}',
            "exactly one of 'result' and 'reject'",
        ),
        ('{"version": 1, "calls": [], "name": NaN}', "NaN is not JSON"),
        ("", "Expecting value"),
    ],
)
def test_bad_collections_are_refused(text: str, reason: str) -> None:
    err = _error(text)
    assert reason in str(err)


def test_hostile_files_are_refused_not_crashed(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"version": 1, "calls": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert "nested too deeply" in str(_load_error(deep))
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    assert "too big for a collection" in str(_load_error(huge))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{"version": 1,\n "name": "\xff\xfe"}')
    err = _load_error(binary)
    assert err.line == 2 and "not UTF-8" in err.reason
    assert "cannot read" in str(_load_error(tmp_path / "missing.json"))


def _load_error(path: Path) -> CollectionError:
    with pytest.raises(CollectionError) as info:
        load_collection(path)
    assert str(info.value).startswith(str(path))
    return info.value


def test_a_byte_order_mark_and_unicode_are_fine() -> None:
    text = "\ufeff" + json.dumps({"version": 1, "name": "ü", "calls": []})
    assert loads_collection(text).name == "ü"


def test_unique_names_and_put() -> None:
    c = Collection()
    first = c.add(SavedCall("echo", "tool", tool="echo"))
    second = c.add(SavedCall("echo", "tool", tool="echo"))
    assert (first.name, second.name) == ("echo", "echo (2)")
    c.put(SavedCall("echo", "resource", uri="x://y"))
    assert c.call("echo") is not None and c.call("echo").kind == "resource"  # type: ignore[union-attr]
    assert c.remove("echo (2)") and not c.remove("nope")


def test_the_documented_example_is_a_valid_collection() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "collections.md").read_text()
    example = doc.split("```json\n", 1)[1].split("```", 1)[0]
    collection = loads_collection(example, "docs/collections.md")
    assert [c.kind for c in collection.calls] == [
        "catalog", "tool", "tool", "tool", "resource", "prompt", "completion",
    ]  # fmt: skip
    assert collection.era == "legacy"
