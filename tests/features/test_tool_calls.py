"""Qt-free parts of the tool Call view: result checks, call records, the JSON tree, and
remembered arguments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.features.forms.argument_memory import ArgumentMemory, strip_secrets
from inspector.features.forms.json_tree import CHILD_LIMIT, JsonNode
from inspector.features.tool_calls import ToolCallRecord, check_result
from inspector.protocol.machine.events import ProgressUpdate, RequestFailed
from inspector.protocol.wire.jsonrpc import ErrorResponse
from inspector.session import RequestCancelled, RequestTimeout, ServerError

OUTPUT = {
    "type": "object",
    "properties": {"sum": {"type": "number"}, "items": {"type": "array"}},
    "required": ["sum"],
}


def text(value: str) -> dict[str, str]:
    return {"type": "text", "text": value}


# -- check_result -------------------------------------------------------------------


def test_structured_content_valid_and_matching() -> None:
    structured = {"sum": 3}
    check = check_result(
        {"content": [text(json.dumps(structured))], "structuredContent": structured}, OUTPUT
    )
    assert check.structured_errors == [] and check.validated
    assert check.content_match == "matches the JSON in content[0]" and check.content_match_ok


def test_structured_content_invalid_is_positioned() -> None:
    check = check_result({"content": [], "structuredContent": {"sum": "three", "items": 4}}, OUTPUT)
    assert [(e.where, e.message) for e in check.structured_errors] == [
        ("items", "4 is not of type 'array'"),
        ("sum", "'three' is not of type 'number'"),
    ]


def test_text_json_that_differs_from_structured_content() -> None:
    check = check_result({"content": [text('{"sum": 4}')], "structuredContent": {"sum": 3}}, OUTPUT)
    assert not check.content_match_ok
    assert check.content_match is not None and "sum: 4 in the text, 3 in structuredContent" in (
        check.content_match
    )
    missing = check_result({"content": [text("3")], "structuredContent": {"sum": 3}}, OUTPUT)
    assert missing.content_match is not None and "SHOULD" in missing.content_match
    keys = check_result({"content": [text('{"a": 1}')], "structuredContent": {"sum": 3}})
    assert keys.content_match is not None and "sum is only in structuredContent" in (
        keys.content_match
    )


def test_output_schema_without_structured_content() -> None:
    check = check_result({"content": [text("3")]}, OUTPUT)
    assert [e.message for e in check.structured_errors] == [
        "the tool declares an outputSchema but sent no structuredContent"
    ]
    # a tool error is not held to the outputSchema
    failed = check_result({"content": [text("no")], "isError": True}, OUTPUT)
    assert failed.is_error and failed.structured_errors == []


def test_malformed_results_are_problems() -> None:
    assert check_result("nope").problems == ["the result is not an object"]
    check = check_result({"isError": "yes"})
    assert "the result has no 'content' (the spec requires it)" in check.problems
    assert "'isError' is not a boolean" in check.problems
    assert check_result({"content": {"type": "text"}}).content == [{"type": "text"}]


def test_invalid_output_schema_is_not_used() -> None:
    check = check_result({"content": [], "structuredContent": {}}, {"type": "nope"})
    assert check.schema_problem and not check.validated


# -- records ------------------------------------------------------------------------


def test_record_progress_and_outcomes() -> None:
    seen: list[str] = []
    record = ToolCallRecord("slow", {"n": 1})
    off = record.on_change(lambda r: seen.append(r.status))
    record.on_progress(ProgressUpdate("t", 2, 4, "half way", 1))
    assert record.fraction == 0.5 and record.progress_message == "half way"
    record.on_progress(ProgressUpdate("t", 3, None, None, 1))
    assert record.fraction is None and record.progress_message == "half way"
    record.finish({"content": [text("done")], "isError": True})
    assert record.status == "tool_error" and seen[-1] == "tool_error"
    assert record.elapsed() == record.elapsed()  # frozen once finished
    off()
    record.finish({"content": []})
    assert seen[-1] == "tool_error"  # unsubscribed


CALL = (1, "tools/call")
BAD_PARAMS = ErrorResponse(1, -32602, "bad", {"x": 1})


@pytest.mark.parametrize(
    ("exc", "status", "title"),
    [
        (
            ServerError(RequestFailed(*CALL, "error", "boom", BAD_PARAMS)),
            "rpc_error",
            "JSON-RPC error -32602 (Invalid params)",
        ),
        (RequestCancelled(RequestFailed(*CALL, "cancelled", "cancelled")), "cancelled", ""),
        (RequestTimeout(RequestFailed(*CALL, "timeout", "timed out")), "timeout", ""),
    ],
)
def test_record_failures(exc: ServerError, status: str, title: str) -> None:
    record = ToolCallRecord("t", {})
    record.fail(exc)
    assert record.status == status and not record.running
    if title:
        assert record.error_title == title and record.error_data == {"x": 1}
        assert record.error_message == "bad"


# -- JSON tree ----------------------------------------------------------------------


def test_json_tree_nodes_and_paths() -> None:
    holder = JsonNode.root({"a": [1, {"b": None}], "s": "x" * 500})
    (root,) = holder.children()
    assert root.summary == "{2 keys}" and root.kind == "object"
    a, s = root.children()
    assert (a.key, a.summary, a.path) == ("a", "[2 items]", ("a",))
    assert s.summary.endswith('…"') and s.kind == "string"
    node = holder.find(("a", 1, "b"))
    assert node is not None and node.kind == "null" and node.where == "a[1].b"
    assert holder.find(("nope",)) is None


def test_json_tree_caps_children() -> None:
    holder = JsonNode.root(list(range(CHILD_LIMIT + 5)))
    kids = holder.children()[0].children()
    assert len(kids) == CHILD_LIMIT + 1
    assert kids[-1].more == 5 and kids[-1].summary == "5 more not shown"


# -- remembered arguments -----------------------------------------------------------


SCHEMA = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "pin": {"type": "string", "format": "password"},
        "account": {
            "type": "object",
            "properties": {"user": {"type": "string"}, "apiKey": {"type": "string"}},
        },
    },
}


def test_secrets_are_never_stored(tmp_path: Path) -> None:
    args = {
        "query": "q",
        "pin": "1234",
        "account": {"user": "ann", "apiKey": "sk-1"},
        "github_token": "ghp",
    }
    assert strip_secrets(args, SCHEMA) == {"query": "q", "account": {"user": "ann"}}
    memory = ArgumentMemory(tmp_path / "arguments.json")
    assert memory.remember("p1", "search", args, SCHEMA)
    text = (tmp_path / "arguments.json").read_text()
    assert "1234" not in text and "sk-1" not in text and "ghp" not in text
    again = ArgumentMemory(tmp_path / "arguments.json")
    assert again.recall("p1", "search") == {"query": "q", "account": {"user": "ann"}}
    assert again.recall("p2", "search") is None
    assert again.recall("p1", "search", kind="prompts") is None


def test_max_tokens_is_remembered_and_the_names_list_is_the_users(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {
            "maxTokens": {"type": "integer"},
            "token": {"type": "string"},
            "tenant": {"type": "string"},
            "secretish": {"type": "string", "writeOnly": True},
            "nested": {"type": "object", "properties": {"pw": {"format": "password"}}},
        },
    }
    memory = ArgumentMemory(tmp_path / "arguments.json")
    args = {"maxTokens": 100, "token": "t0k", "tenant": "acme", "secretish": "s"}
    assert memory.remember("p", "llm", args, schema)
    assert memory.recall("p", "llm") == {"maxTokens": 100, "tenant": "acme"}
    assert memory.not_remembered(schema) == [
        ("token", "its name is in the secret field names"),
        ("secretish", "writeOnly"),
        ("nested.pw", "format: password"),
    ]
    memory.set_secret_names([*memory.secret_names, "tenant"])
    assert memory.recall("p", "llm") == {"maxTokens": 100}  # dropped at once
    again = ArgumentMemory(tmp_path / "arguments.json")
    assert "tenant" in again.secret_names
    assert "acme" not in (tmp_path / "arguments.json").read_text()
    again.set_secret_names(["password"])
    assert again.remember("p", "llm", args, schema)
    assert again.recall("p", "llm") == {"maxTokens": 100, "token": "t0k", "tenant": "acme"}


def test_memory_forgets_and_survives_damage(tmp_path: Path) -> None:
    path = tmp_path / "arguments.json"
    memory = ArgumentMemory(path)
    memory.remember("p", "a", {"x": 1})
    memory.remember("p", "b", {"x": 2})
    memory.forget("p", "a")
    assert memory.recall("p", "a") is None and memory.recall("p", "b") == {"x": 2}
    assert not memory.remember("p", "big", {"x": "y" * 100_000})  # too big to keep
    path.write_text("{not json")
    damaged = ArgumentMemory(path)
    assert damaged.recall("p", "b") is None
    assert list(tmp_path.glob("arguments.damaged-*.json"))
    damaged.remember("p", "c", {"ok": True})
    assert json.loads(path.read_text())["profiles"]["p"]["tools:c"]["arguments"] == {"ok": True}
