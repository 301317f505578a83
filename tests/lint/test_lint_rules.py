"""Each lint rule on its own: the message that breaks it, and one that does not."""

from __future__ import annotations

from typing import Any

from inspector.lint.messages import MessageLinter
from inspector.lint.schema_bundle import bundle_for, schema_version_for


def rules(found: list[Any]) -> list[str]:
    return [f.rule for f in found]


def resp(result: dict[str, Any], id_: int = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "result": result}


def tools_result(*tools: dict[str, Any], cursor: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"tools": list(tools)}
    if cursor:
        out["nextCursor"] = cursor
    return out


def tool(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object"}, **extra}


def test_schema_finding_names_pointer_rule_and_value() -> None:
    linter = MessageLinter("2025-06-18")
    msg = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "loud"}}
    [enum, required] = sorted(
        linter.incoming(3, "notification", "notifications/message", msg), key=lambda f: f.rule
    )
    assert enum.rule == "schema.enum" and enum.pointer == "/params/level"
    assert enum.value == '"loud"' and enum.index == 3
    assert "LoggingMessageNotification" in enum.where and enum.version == "2025-06-18"
    assert required.rule == "schema.required" and "'data'" in required.message


def test_result_checked_by_the_request_it_answers() -> None:
    linter = MessageLinter("2025-11-25")
    found = linter.incoming(1, "response", "tools/call", resp({"text": "no content"}))
    assert rules(found) == ["schema.required"]
    assert found[0].pointer == "/result" and "content" in found[0].message
    assert linter.incoming(2, "response", "tools/call", resp({"content": []})) == []


def test_tool_name_format_from_2025_11_25_on() -> None:
    result = resp(tools_result(tool("ok.name-1_x"), tool("bad name!"), tool("x" * 129)))
    found = MessageLinter("2025-11-25").incoming(1, "response", "tools/list", result)
    assert rules(found) == ["tool-name-format", "tool-name-format"]
    assert [f.pointer for f in found] == ["/result/tools/1/name", "/result/tools/2/name"]
    assert "Tool names" in found[0].where
    assert MessageLinter("2025-06-18").incoming(1, "response", "tools/list", result) == []


def test_unique_names_across_the_pages_of_one_listing() -> None:
    linter = MessageLinter("2025-06-18")
    assert (
        linter.incoming(1, "response", "tools/list", resp(tools_result(tool("a"), cursor="p2")))
        == []
    )
    found = linter.incoming(
        2,
        "response",
        "tools/list",
        resp(tools_result(tool("b"), tool("a")), 2),
        {"params": {"cursor": "p2"}},
    )
    assert rules(found) == ["unique-names"] and found[0].pointer == "/result/tools/1/name"
    # a new listing (no cursor) starts afresh
    assert linter.incoming(3, "response", "tools/list", resp(tools_result(tool("a")), 3), {}) == []


def test_resources_unique_by_uri() -> None:
    res = {"uri": "mem://a", "name": "a"}
    found = MessageLinter("2025-06-18").incoming(
        1, "response", "resources/list", resp({"resources": [res, dict(res, name="b")]})
    )
    assert rules(found) == ["unique-names"]


def test_cursor_loop() -> None:
    linter = MessageLinter("2025-06-18")
    page = resp({"prompts": [], "nextCursor": "c1"})
    assert linter.incoming(1, "response", "prompts/list", page, {"params": {}}) == []
    found = linter.incoming(2, "response", "prompts/list", page, {"params": {"cursor": "c1"}})
    assert rules(found) == ["cursor-loop"] and found[0].pointer == "/result/nextCursor"


def test_input_and_output_schema_must_be_valid_json_schema() -> None:
    bad_input = tool("a", inputSchema={"type": "object", "properties": {"x": {"type": "nope"}}})
    not_object = tool("b", inputSchema={"type": "string"})
    bad_output = tool("c", outputSchema={"type": "object", "required": "x"})
    found = MessageLinter("2025-11-25").incoming(
        1, "response", "tools/list", resp(tools_result(bad_input, not_object, bad_output))
    )
    extra = [f for f in found if not f.rule.startswith("schema.")]  # the schema says const
    assert rules(extra) == ["input-schema-invalid", "input-schema-invalid", "output-schema-invalid"]
    assert extra[1].message == 'inputSchema must have "type": "object"'


def test_structured_content_against_the_tools_output_schema() -> None:
    linter = MessageLinter("2025-06-18")
    schema = {"type": "object", "properties": {"t": {"type": "number"}}, "required": ["t"]}
    linter.incoming(1, "response", "tools/list", resp(tools_result(tool("w", outputSchema=schema))))
    call = {"params": {"name": "w", "arguments": {}}}
    text = [{"type": "text", "text": "x"}]
    bad = resp({"content": text, "structuredContent": {"t": "hot"}}, 2)
    found = linter.incoming(2, "response", "tools/call", bad, call)
    assert rules(found) == ["structured-content-schema"]
    assert found[0].pointer == "/result/structuredContent/t" and found[0].value == '"hot"'
    missing = linter.incoming(3, "response", "tools/call", resp({"content": text}, 3), call)
    assert rules(missing) == ["structured-content-missing"]
    good = resp({"content": text, "structuredContent": {"t": 1}}, 4)
    assert linter.incoming(4, "response", "tools/call", good, call) == []
    failed = resp({"content": text, "isError": True}, 5)  # an error result needs no structure
    assert linter.incoming(5, "response", "tools/call", failed, call) == []


def test_a_response_to_a_notification() -> None:
    linter = MessageLinter("2025-06-18")
    answer = {"jsonrpc": "2.0", "id": None, "result": {}}
    assert linter.incoming(1, "invalid", None, answer) == []  # nothing sent yet
    linter.outgoing("notification")
    assert rules(linter.incoming(2, "invalid", None, answer)) == ["response-to-notification"]
    parse_error = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "x"}}
    assert "response-to-notification" not in rules(linter.incoming(3, "error", None, parse_error))


def test_capability_used_without_being_declared() -> None:
    linter = MessageLinter()
    init = {
        "protocolVersion": "2025-06-18",
        "capabilities": {"tools": {}, "resources": {"subscribe": True}},
        "serverInfo": {"name": "s", "version": "1"},
    }
    assert linter.incoming(0, "response", "initialize", resp(init)) == []
    assert linter.version == "2025-06-18"  # learned from the handshake
    changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    found = linter.incoming(1, "notification", changed["method"], changed)
    assert rules(found) == ["undeclared-capability"] and "tools.listChanged" in found[0].message
    log = {
        "jsonrpc": "2.0",
        "method": "notifications/message",
        "params": {"level": "info", "data": 1},
    }
    assert rules(linter.incoming(2, "notification", log["method"], log)) == [
        "undeclared-capability"
    ]
    updated = {
        "jsonrpc": "2.0",
        "method": "notifications/resources/updated",
        "params": {"uri": "mem://a"},
    }
    assert linter.incoming(3, "notification", updated["method"], updated) == []


def test_session_id_outside_visible_ascii() -> None:
    linter = MessageLinter()
    assert rules(linter.http_headers(1, {"mcp-session-id": "abc def"})) == ["session-id-ascii"]
    assert rules(linter.http_headers(1, {"Mcp-Session-Id": "é"})) == ["session-id-ascii"]
    assert linter.http_headers(1, {"mcp-session-id": "a-b_c.123~"}) == []
    assert linter.http_headers(2, {"mcp-session-id": "abc def"}) == []  # once per session id
    # a long id is kept as its head plus an ellipsis by the transport: the head is judged
    assert linter.http_headers(3, {"mcp-session-id": "de1e98eb…"}) == []
    assert rules(linter.http_headers(4, {"mcp-session-id": "de1e 8eb…"})) == ["session-id-ascii"]


def test_discover_missing_in_the_modern_era_only() -> None:
    error = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no"}}
    found = MessageLinter("2026-07-28").incoming(1, "error", "server/discover", error)
    assert rules(found) == ["discover-missing"] and "server/discover" in found[0].where
    assert MessageLinter("2025-06-18").incoming(1, "error", "server/discover", error) == []


def test_unknown_method_for_the_version() -> None:
    ping = {"jsonrpc": "2.0", "id": 5, "method": "ping"}
    assert MessageLinter("2025-06-18").incoming(1, "request", "ping", ping) == []
    # the modern era has no ping, and no server requests at all
    assert rules(MessageLinter("2026-07-28").incoming(1, "request", "ping", ping)) == [
        "unknown-method"
    ]


def test_input_required_results_checked_as_such() -> None:
    linter = MessageLinter("2026-07-28")
    bad = resp({"resultType": "input_required", "inputRequests": "nope"})
    assert any(
        f.rule.startswith("schema.") for f in linter.incoming(1, "response", "tools/call", bad)
    )


def test_hostile_values_do_not_break_the_linter() -> None:
    linter = MessageLinter("2025-06-18")
    assert linter.incoming(1, "response", "tools/list", [1, 2]) == []
    assert linter.incoming(1, "notification", None, {"method": 5}) != []
    many = resp({"tools": [{"name": i} for i in range(500)]})
    found = linter.incoming(1, "response", "tools/list", many)
    assert 0 < len(found) <= 40  # bounded per message


def test_unknown_versions_are_judged_by_their_era() -> None:
    assert schema_version_for("2099-01-01") == "2026-07-28"
    assert schema_version_for("2024-01-01") == "2025-11-25"
    assert schema_version_for(None) == "2025-11-25"
    assert bundle_for("2025-03-26").version == "2025-03-26"


def test_a_log_flood_is_judged_once_per_shape_and_exactly() -> None:
    linter = MessageLinter("2025-11-25")
    linter.ctx.capabilities = {"logging": {}}

    def log(level: str, data: object) -> dict[str, Any]:
        return {
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": {"level": level, "data": data},
        }

    assert linter.incoming(0, "notification", "notifications/message", log("info", "a")) == []
    assert linter.incoming(1, "notification", "notifications/message", log("info", [1])) == []
    bad1 = linter.incoming(2, "notification", "notifications/message", log("loud", "x"))
    bad2 = linter.incoming(3, "notification", "notifications/message", log("loud", {"y": 2}))
    assert [(f.index, f.rule, f.pointer) for f in bad1 + bad2] == [
        (2, "schema.enum", "/params/level"),
        (3, "schema.enum", "/params/level"),
    ]
    missing = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "z1"}}
    first = linter.incoming(4, "notification", "notifications/message", missing)
    missing["params"] = {"data": "z2"}
    second = linter.incoming(5, "notification", "notifications/message", missing)
    assert first[0].value == '{"data": "z1"}' and second[0].value == '{"data": "z2"}'
    assert len(linter.memo._seen) == 3  # info, loud, no level
