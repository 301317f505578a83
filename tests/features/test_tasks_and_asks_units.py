"""Qt-free parts behind the server-ask dialogs, MRTR rounds and tasks, without any IO:
reading sampling and elicitation requests (bad input included), the canned replies store,
RequestRounds over a TrafficLog, task parsing both eras, and the protocol core's handling
of the tasks extension (per-request capabilities, resultType "task")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.features.asks.canned_replies import CannedReplies
from inspector.features.asks.elicitation import check_url, parse_form
from inspector.features.asks.sampling import (
    DEFAULT_MODEL,
    block_text,
    parse_sampling_request,
    sampling_result,
    transcript,
)
from inspector.features.tasks import (
    EXTENSION,
    TaskInfo,
    TaskStore,
    created_task,
    parse_task,
    task_request_params,
    tasks_mode,
)
from inspector.protocol.machine.events import ProtocolViolation, RequestCompleted
from inspector.protocol.wire.jsonrpc import Notification, Request, Response, encode
from inspector.protocol.wire.versions import Era
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord, kind_of
from inspector.traffic.rounds import RequestRounds, conversation_text
from tests.helpers.fake_server import META, modern_session, of_type

# ------------------------------------------------------------------ sampling


def test_sampling_request_every_field() -> None:
    r = parse_sampling_request(
        {
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "hi"}},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "image", "mimeType": "image/png", "data": "AAAA"},
                        {"type": "tool_use", "id": "t1", "name": "calc", "input": {"x": 1}},
                    ],
                },
                {
                    "role": "user",
                    "content": {
                        "type": "tool_result",
                        "toolUseId": "t1",
                        "content": [{"type": "text", "text": "2"}],
                    },
                },
            ],
            "systemPrompt": "be brief",
            "maxTokens": 50,
            "modelPreferences": {
                "hints": [{"name": "sonnet"}, {"name": "haiku"}, {"bad": 1}],
                "costPriority": 0.2,
                "speedPriority": 1,
                "intelligencePriority": 0,
            },
            "includeContext": "thisServer",
            "temperature": 0.3,
            "stopSequences": ["\n\n", 5],
            "tools": [{"name": "calc", "description": "adds"}],
            "toolChoice": {"mode": "required"},
            "metadata": {"k": "v"},
        }
    )
    assert r.problems == []
    assert [m.role for m in r.messages] == ["user", "assistant", "user"]
    assert r.hints == ["sonnet", "haiku"] and r.suggested_model == "sonnet"
    assert (r.cost_priority, r.speed_priority, r.intelligence_priority) == (0.2, 1.0, 0.0)
    assert r.include_context == "thisServer" and r.temperature == 0.3
    assert r.stop_sequences == ["\n\n"]
    assert r.tools[0]["name"] == "calc" and r.tool_choice == {"mode": "required"}
    text = transcript(r)
    assert "── user ──\nhi" in text
    assert "[image: image/png, about 3 bytes]" in text
    assert '[tool use t1: calc({"x": 1})]' in text
    assert "[tool result t1]\n2" in text


def test_sampling_request_bad_input_is_described_not_raised() -> None:
    r = parse_sampling_request(
        {
            "messages": [{"role": "robot", "content": 7}, "nope"],
            "maxTokens": "many",
            "systemPrompt": {"x": 1},
            "modelPreferences": {"costPriority": 3},
        }
    )
    assert r.max_tokens is None and r.system_prompt == '{"x": 1}'
    joined = " | ".join(r.problems)
    for needle in ("role is 'robot'", "content is not", "messages[1] is not", "maxTokens is"):
        assert needle in joined
    assert "costPriority is 3" in joined and "systemPrompt is not a string" in joined
    assert parse_sampling_request({}).problems[:2] == [
        "messages is missing or not a list",
        "maxTokens is missing (the spec requires it)",
    ]
    assert r.suggested_model == DEFAULT_MODEL


def test_sampling_result_and_blocks() -> None:
    assert sampling_result("x", model="m", stop_reason="endTurn") == {
        "role": "assistant",
        "content": {"type": "text", "text": "x"},
        "model": "m",
        "stopReason": "endTurn",
    }
    assert "stopReason" not in sampling_result("x")
    assert sampling_result("x", model="")["model"] == DEFAULT_MODEL
    html = block_text({"type": "text", "text": "<b>not bold</b>"})
    assert html == "<b>not bold</b>"  # plain text, verbatim
    link = block_text({"type": "resource_link", "uri": "file:///a"})
    assert link == "[resource link file:///a]"
    assert block_text({"type": "mystery", "x": 1}) == '{"type": "mystery", "x": 1}'


# ------------------------------------------------------------------ elicitation


SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 2, "maxLength": 5},
        "mail": {"type": "string", "format": "email"},
        "site": {"type": "string", "format": "uri"},
        "day": {"type": "string", "format": "date"},
        "at": {"type": "string", "format": "date-time"},
        "n": {"type": "integer", "minimum": 1, "maximum": 3, "default": 2},
        "x": {"type": "number", "maximum": 1.5},
        "ok": {"type": "boolean", "default": True},
        "color": {"type": "string", "enum": ["r", "g"], "enumNames": ["Red", "Green"]},
        "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}]},
        "tags": {
            "type": "array",
            "items": {"anyOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}]},
            "maxItems": 1,
            "default": ["a"],
        },
    },
    "required": ["name"],
}


def test_elicitation_form_fields_and_defaults() -> None:
    form = parse_form(SCHEMA)
    assert form.problems == []
    kinds = {f.name: f.kind for f in form.fields}
    assert kinds["color"] == "enum" and kinds["size"] == "enum" and kinds["tags"] == "multi"
    color = next(f for f in form.fields if f.name == "color")
    assert color.options == [("r", "Red"), ("g", "Green")]
    assert form.defaults() == {"n": 2, "ok": True, "tags": ["a"]}


def test_elicitation_bad_schemas() -> None:
    assert parse_form(None).problems == ["requestedSchema is missing or not an object"]
    form = parse_form(
        {
            "type": "array",
            "properties": {
                "nested": {"type": "object", "properties": {}},
                "list": {"type": "array", "items": {"type": "string"}},
                "weird": 5,
                "badDefault": {"type": "integer", "default": "x"},
                "badEnumDefault": {"type": "string", "enum": ["a"], "default": "z"},
            },
            "required": ["ghost"],
        }
    )
    joined = " | ".join(form.problems)
    assert "type is 'array'" in joined and "'ghost' is required" in joined
    assert "nested: type 'object' is outside" in joined
    assert "list: an array without enum items" in joined
    assert "weird: the property schema is not an object" in joined
    assert "badDefault: the default 'x' is not a number" in joined
    assert "badEnumDefault: the default 'z' is not one of the options" in joined
    assert {f.name: f.kind for f in form.fields}["nested"] == "json"


@pytest.mark.parametrize(
    ("url", "refused"),
    [
        ("https://example.com/a?b=c", None),
        ("http://localhost:8080/", None),
        ("HTTPS://EXAMPLE.COM", None),
        ("javascript:alert(1)", "scheme is 'javascript'"),
        ("file:///etc/passwd", "scheme is 'file'"),
        ("data:text/html,<b>x</b>", "scheme is 'data'"),
        ("https://", "no host"),
        ("https://exa mple.com", "spaces"),
        ("https://exa\x07mple.com/", "control"),
        ("", "no URL"),
        (None, "no URL"),
    ],
)
def test_url_checks(url: Any, refused: str | None) -> None:
    result = check_url(url)
    if refused is None:
        assert result is None
    else:
        assert result is not None and refused in result


# ------------------------------------------------------------------ canned replies


def test_canned_replies_store(tmp_path: Path) -> None:
    path = tmp_path / "canned.json"
    store = CannedReplies(path)
    changes: list[int] = []
    store.on_changed(lambda: changes.append(1))
    assert store.active("p") is None
    store.put("p", {"role": "assistant", "content": {"type": "text", "text": "x"}, "model": "m"})
    assert store.active("p") is not None and changes == [1]
    store.set_enabled("p", False)
    assert store.active("p") is None and store.get("p") is not None
    again = CannedReplies(path)
    reply = again.get("p")
    assert reply is not None and reply.enabled is False and reply.result["model"] == "m"
    again.forget("p")
    assert CannedReplies(path).get("p") is None
    if hasattr(path, "stat"):
        assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_canned_replies_never_overwrite_an_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "canned.json"
    path.write_text("{broken", "utf-8")
    store = CannedReplies(path)
    assert store.load_error is not None
    store.put("p", {"model": "m"})
    assert path.read_text("utf-8") == "{broken"


# ------------------------------------------------------------------ MRTR rounds


def record(log: TrafficLog, direction: str, message: Any) -> None:
    log.observe(
        TrafficRecord(
            direction=direction,  # type: ignore[arg-type]
            kind=kind_of(message),
            raw=encode(message),
            mono=0.0,
            wall=0.0,
            transport="stdio",
            frame=message,
        )
    )


def test_request_rounds_link_retries_by_key() -> None:
    log = TrafficLog()
    rounds = RequestRounds(log)
    keys = {1: 7, 2: 8, 3: 7, 4: 7}  # wire id -> core key
    rounds.set_key_lookup(lambda wid: keys.get(wid))  # type: ignore[arg-type]
    changed: list[list[int]] = []
    rounds.on_change(changed.append)
    record(log, "out", Request(1, "tools/call", {"name": "t"}))  # 0
    record(log, "out", Request(2, "tools/list", None))  # 1
    record(log, "in", Response(1, {"resultType": "input_required", "inputRequests": {"k": {}}}))
    record(log, "in", Response(2, {"tools": []}))  # 3
    record(log, "out", Request(3, "tools/call", {"name": "t", "inputResponses": {"k": {}}}))
    assert changed == [[0, 2, 4]]
    record(log, "in", Notification("notifications/progress", {}))  # 5
    record(log, "in", Response(3, {"resultType": "input_required", "requestState": "s"}))  # 6
    record(log, "out", Request(4, "tools/call", {"name": "t", "requestState": "s"}))  # 7
    record(log, "in", Response(4, {"content": []}))  # 8
    assert [rounds.mark(i) for i in range(8)] == [
        "round 1/3",
        "",
        "round 1/3",
        "",
        "round 2/3",
        "",
        "round 2/3",
        "round 3/3",
    ]
    # the final answer's mark adds the operation's times (whole, server, user)
    final = rounds.mark(8)
    assert final.startswith("round 3/3 · ") and " in all: server " in final and ", user " in final
    assert rounds.conversation(8) == [0, 2, 4, 6, 7, 8]
    assert rounds.conversation(1) == [] and rounds.conversation(99) == []
    text = conversation_text(log, rounds.conversation(0), rounds)
    assert "original request" in text and "input required (inputRequests: k)" in text
    assert "retry with inputResponses for k" in text and "retry with requestState only" in text
    assert text.rstrip().endswith("}") and "final answer" in text
    log.clear()
    assert rounds.conversation(0) == []


def test_request_rounds_without_lookup_mark_nothing() -> None:
    log = TrafficLog()
    rounds = RequestRounds(log)
    record(log, "out", Request(1, "tools/call", {}))
    assert rounds.mark(0) == "" and rounds.round_of(0) is None


# ------------------------------------------------------------------ tasks


def test_parse_task_both_eras() -> None:
    legacy = parse_task(
        {
            "taskId": "t1",
            "status": "working",
            "createdAt": "2025-01-01T00:00:00Z",
            "lastUpdatedAt": "2025-01-01T00:00:01Z",
            "ttl": 60000,
            "pollInterval": 500,
            "statusMessage": "busy",
        },
        Era.LEGACY,
    )
    assert legacy is not None and legacy.ttl_ms == 60000 and legacy.poll_interval_ms == 500
    modern = parse_task(
        {"taskId": "t2", "status": "completed", "ttlMs": None, "pollIntervalMs": 100, "result": {}},
        Era.MODERN,
    )
    assert modern is not None and modern.ttl_ms is None and modern.terminal
    assert modern.result == {}
    odd = parse_task({"taskId": "t3", "status": "sleeping"}, Era.LEGACY)
    assert odd is not None and odd.problems == ("status 'sleeping' is not a task status",)
    assert parse_task({"status": "working"}, Era.LEGACY) is None
    assert parse_task("x", Era.LEGACY) is None


def test_created_task_and_modes() -> None:
    assert created_task({"task": {"taskId": "a", "status": "working"}}, Era.LEGACY) is not None
    assert created_task({"content": []}, Era.LEGACY) is None
    assert created_task({"resultType": "task", "taskId": "b", "status": "working"}, Era.MODERN)
    assert created_task({"taskId": "b"}, Era.MODERN) is None  # no resultType: not a task
    assert tasks_mode(Era.LEGACY, {"tasks": {"list": {}}}) == "legacy"
    assert tasks_mode(Era.LEGACY, {}) is None
    assert tasks_mode(Era.MODERN, {"extensions": {EXTENSION: {}}}) == "modern"
    assert tasks_mode(Era.MODERN, {"tasks": {}}) is None
    params = task_request_params({"name": "t", "_meta": {"keep": 1}}, "modern")
    assert params["_meta"]["keep"] == 1
    assert params["_meta"][META + "clientCapabilities"] == {"extensions": {EXTENSION: {}}}
    assert task_request_params({"name": "t"}, "legacy", 5000)["task"] == {"ttl": 5000}


def test_task_store_merges_and_notifies() -> None:
    store = TaskStore()
    seen: list[str | None] = []
    store.on_change(seen.append)
    store.upsert(TaskInfo("a", "working"), "tools/call x")
    store.update("a", result={"content": []})
    store.upsert(TaskInfo("a", "completed"))  # a newer view without result keeps the old
    task = store.get("a")
    assert task is not None and task.origin == "tools/call x" and task.result == {"content": []}
    store.reset("legacy")
    assert len(store) == 0 and store.mode == "legacy" and seen[-1] is None


# ------------------------------------------------------------------ protocol core


def test_per_request_capabilities_merge_over_the_connections() -> None:
    conn, server = modern_session()
    caps = {"extensions": {EXTENSION: {}}, "sampling": {"tools": {}}}
    conn.send_request(
        "tools/call",
        {"name": "t", "_meta": {META + "clientCapabilities": caps}},
        now=0,
    )
    sent = server.last_request("tools/call").params or {}
    declared = sent["_meta"][META + "clientCapabilities"]
    assert declared["extensions"] == {EXTENSION: {}}
    assert declared["sampling"] == {"tools": {}}  # merged key by key
    assert "elicitation" in declared and "roots" in declared  # the connection's own stay


def test_task_result_accepted_only_when_declared() -> None:
    conn, server = modern_session()
    task = {"resultType": "task", "taskId": "x", "status": "working"}
    server.on("tools/call", task, task)
    declared = {
        "name": "t",
        "_meta": {META + "clientCapabilities": {"extensions": {EXTENSION: {}}}},
    }
    conn.send_request("tools/call", declared, now=0)
    events = server.step()
    assert of_type(events, ProtocolViolation) == []
    assert of_type(events, RequestCompleted)[0].result["taskId"] == "x"
    conn.send_request("tools/call", {"name": "t"}, now=0)
    events = server.step()
    violation = of_type(events, ProtocolViolation)
    assert violation and violation[0].rule == "task-undeclared"
    assert of_type(events, RequestCompleted)  # still shown, as is


def test_json_round_trip_of_sent_params() -> None:
    # The merged capabilities are plain JSON (nothing shared with the config by reference).
    conn, server = modern_session()
    conn.send_request(
        "tools/call", {"name": "t", "_meta": {META + "clientCapabilities": {"x": {}}}}, now=0
    )
    sent = server.last_request("tools/call").params or {}
    json.dumps(sent)
    assert "x" not in conn.config.capabilities
