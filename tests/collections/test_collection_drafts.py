"""From a view's call or a log row to a saved call (Qt-free parts of the GUI): which rows
can be saved, what the client added to a request is left out, secrets become
`${env:NAME}`, the assertions picked, a pointer worth suggesting, and a hostile row."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.collections.assertion_rows import AssertionRow, RowError, build_assertions
from inspector.collections.call_draft import CallDraft
from inspector.collections.collection import (
    LatencyAssertion,
    OutcomeAssertion,
    PointerAssertion,
    SnapshotAssertion,
)
from inspector.collections.drafts import (
    DraftError,
    draft_from_entry,
    saved_call,
    suggested_pointer,
    with_answer,
)
from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord, kind_of


def frame(log: TrafficLog, direction: str, message: dict[str, Any] | str, at: float) -> int:
    text = message if isinstance(message, str) else json.dumps(message)
    parsed = parse_frame(text)
    record = TrafficRecord(
        direction,  # type: ignore[arg-type]
        kind_of(parsed),
        text,
        at,
        at,
        "stdio",
        parsed,
        len(text),
    )
    return log.observe(record).index


def request(method: str, params: Any, rid: int = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}


def test_a_tool_call_row_and_its_answer_become_one_draft() -> None:
    log = TrafficLog()
    params = {
        "name": "echo",
        "arguments": {"message": "hi"},
        "_meta": {"progressToken": 7},
        "task": {"ttl": 1},
    }
    sent = frame(log, "out", request("tools/call", params), 1.0)
    answer = {"content": [{"type": "text", "text": "hi"}]}
    got = frame(log, "in", {"jsonrpc": "2.0", "id": 1, "result": answer}, 1.25)
    for index in (sent, got):  # the request row or its response row: the same call
        draft = draft_from_entry(log, log.entries[index])
        assert draft.method == "tools/call"
        assert draft.params == {"name": "echo", "arguments": {"message": "hi"}}
        assert draft.result == answer and draft.outcome == "ok"
        assert draft.latency_ms == pytest.approx(250)


def test_an_error_answer_and_rows_that_are_not_calls() -> None:
    log = TrafficLog()
    frame(log, "out", request("prompts/get", {"name": "nope"}), 0.0)
    error = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "unknown prompt"}}
    got = frame(log, "in", error, 0.1)
    draft = draft_from_entry(log, log.entries[got])
    assert draft.outcome == "error" and draft.error_code == -32602
    listed = frame(log, "out", request("tools/list", {}, 2), 0.2)
    with pytest.raises(DraftError, match="only tools/call"):
        draft_from_entry(log, log.entries[listed])
    asked = frame(log, "in", request("sampling/createMessage", {"messages": []}, 3), 0.3)
    with pytest.raises(DraftError, match="this client sent"):
        draft_from_entry(log, log.entries[asked])
    # hostile request rows: no params, params not an object, text not JSON
    bare = frame(log, "out", {"jsonrpc": "2.0", "id": 4, "method": "tools/call"}, 0.4)
    with pytest.raises(DraftError, match="no params object"):
        draft_from_entry(log, log.entries[bare])
    odd = frame(log, "out", request("tools/call", [1, 2], 5), 0.4)
    with pytest.raises(DraftError):
        draft_from_entry(log, log.entries[odd])
    note = frame(log, "in", "not json at all", 0.5)
    with pytest.raises(DraftError):
        draft_from_entry(log, log.entries[note])


def test_the_answer_of_an_identical_earlier_request_is_attached() -> None:
    log = TrafficLog()
    params = {
        "ref": {"type": "ref/prompt", "name": "review_code"},
        "argument": {"name": "language", "value": "py"},
    }
    frame(log, "out", request("completion/complete", params), 0.0)
    values = {"completion": {"values": ["python"], "hasMore": False}}
    frame(log, "in", {"jsonrpc": "2.0", "id": 1, "result": values}, 0.01)
    draft = with_answer(log, CallDraft("completion/complete", params))
    assert draft.result == values
    other = {**params, "argument": {"name": "language", "value": "ru"}}
    alone = with_answer(log, CallDraft("completion/complete", other))
    assert alone.result is None
    call = saved_call(draft, "complete language", (OutcomeAssertion("ok"),))
    assert call.kind == "completion" and call.ref == params["ref"]
    assert call.argument == {"name": "language", "value": "py"}


def test_assertions_secrets_and_names() -> None:
    result = {"content": [{"type": "text", "text": "done"}], "structuredContent": {"n": 1}}
    draft = CallDraft(
        "tools/call",
        {"name": "deploy", "arguments": {"target": "prod", "apiKey": "sk-123456", "pin": "1234"}},
        result=result,
        latency_ms=80,
    )
    schema = {"properties": {"pin": {"type": "string", "format": "password"}}}
    rows = [
        AssertionRow("outcome", value="ok"),
        AssertionRow("equals", "/content/0/text", '"done"'),
        AssertionRow("latency", value="500"),
        AssertionRow("snapshot"),
    ]
    choices, _catalog = build_assertions(rows, draft, None)
    call = saved_call(draft, "  deploy prod  ", choices, schema=schema)
    assert call.name == "deploy prod"
    assert call.arguments == {
        "target": "prod",
        "apiKey": "${env:APIKEY}",
        "pin": "${env:PIN}",
    }
    assert call.assertions == (
        OutcomeAssertion("ok"),
        PointerAssertion("/content/0/text", "equals", "done"),
        LatencyAssertion(500),
        SnapshotAssertion(result),
    )
    error, _ = build_assertions([AssertionRow("outcome", value="error", code=-32603)], draft, None)
    assert saved_call(draft, "x", error).assertions == (OutcomeAssertion("error", -32603),)
    with pytest.raises(DraftError, match="needs a name"):
        saved_call(draft, "   ", choices)
    never_ran = CallDraft("resources/read", {"uri": "demo://readme"})
    with pytest.raises(RowError, match="no result to keep"):
        build_assertions([AssertionRow("snapshot")], never_ran, None)
    assert saved_call(never_ran, "readme").uri == "demo://readme"
    with pytest.raises(DraftError, match="cannot be saved"):
        saved_call(CallDraft("tools/list", {}), "x")


def test_suggested_pointers() -> None:
    assert suggested_pointer({"content": [{"type": "text", "text": "a"}]}) == (
        "/content/0/text",
        "a",
    )
    assert suggested_pointer({"contents": [{"uri": "u", "text": "b"}]}) == ("/contents/0/text", "b")
    prompt = {"messages": [{"role": "user", "content": {"type": "text", "text": "c"}}]}
    assert suggested_pointer(prompt) == ("/messages/0/content/text", "c")
    assert suggested_pointer({"structuredContent": {"a/b": 2}}) == ("/structuredContent/a~1b", 2)
    assert suggested_pointer({"completion": {"values": ["x"]}}) == ("/completion/values", ["x"])
    assert suggested_pointer({"content": "not a list"}) is None
    assert suggested_pointer(None) is None


def test_legacy_asks_go_to_the_latest_call_still_waiting() -> None:
    log = TrafficLog()
    a = frame(log, "out", request("tools/call", {"name": "a", "arguments": {}}, 1), 0.0)
    b = frame(log, "out", request("tools/call", {"name": "b", "arguments": {}}, 2), 0.1)
    ask = {"messages": [{"role": "user", "content": {"type": "text", "text": "for b"}}]}
    frame(log, "in", request("sampling/createMessage", {**ask, "_meta": {"x": 1}}, 10), 0.2)
    reply = {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"}
    frame(log, "out", {"jsonrpc": "2.0", "id": 10, "result": reply}, 0.3)
    frame(log, "in", {"jsonrpc": "2.0", "id": 2, "result": {"content": []}}, 0.4)
    frame(log, "in", request("elicitation/create", {"message": "for a"}, 11), 0.5)
    no = {"jsonrpc": "2.0", "id": 11, "error": {"code": -1, "message": "User rejected"}}
    frame(log, "out", no, 0.6)
    frame(log, "in", {"jsonrpc": "2.0", "id": 1, "result": {"content": []}}, 0.7)
    for_a = draft_from_entry(log, log.entries[a]).answers
    for_b = draft_from_entry(log, log.entries[b]).answers
    assert [(x.method, x.params, x.result) for x in for_b] == [
        ("sampling/createMessage", ask, reply)
    ]
    assert [(x.method, x.params, x.reject) for x in for_a] == [
        ("elicitation/create", {"message": "for a"}, "User rejected")
    ]
    call = saved_call(draft_from_entry(log, log.entries[b]), "b")
    assert call.answers == for_b
