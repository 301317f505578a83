"""The app host's protocol, without a browser: the handshake and its order, the app's
requests through the host, consent, bad input (invalid JSON-RPC, unknown methods and tools,
a flood, a handshake that never comes), teardown, and every message traced."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from inspector.features.mcp_apps.consent import Decision
from inspector.features.mcp_apps.handshake import LATEST_VERSION, HostContext
from inspector.features.mcp_apps.host import AppHost
from inspector.features.mcp_apps.limits import MessageBudget
from inspector.features.mcp_apps.meta import AppResource
from tests.features.mcp_apps.fake_services import FakeServices
from tests.helpers.waiting import until

TOOL = {
    "name": "get-time",
    "inputSchema": {"type": "object"},
    "_meta": {"ui": {"resourceUri": "ui://t/app.html"}},
}


def make_host(**tools: dict[str, Any]) -> tuple[AppHost, FakeServices]:
    services = FakeServices(tools={"get-time": TOOL, **tools})
    host = AppHost(
        AppResource("ui://t/app.html", "<html></html>"),
        services,
        services.send,
        HostContext(tool=TOOL, width=640, max_height=480, locale="en-US", time_zone="UTC"),
    )
    return host, services


def rpc(msg_id: int | None, method: str, params: dict[str, Any] | None = None) -> str:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if msg_id is not None:
        message["id"] = msg_id
    if params is not None:
        message["params"] = params
    return json.dumps(message)


INIT = {
    "protocolVersion": LATEST_VERSION,
    "appInfo": {"name": "t", "version": "1"},
    "appCapabilities": {},
}


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def handshake(host: AppHost) -> None:
    host.receive(rpc(1, "ui/initialize", INIT))
    await settle()
    host.receive(rpc(None, "ui/notifications/initialized"))
    await settle()


async def test_handshake_then_input_and_result_in_order() -> None:
    host, services = make_host()
    host.set_call({"tz": "UTC"}, {"content": [{"type": "text", "text": "12:00"}]}, call_id=7)
    await handshake(host)
    init = services.sent[0]
    assert init["id"] == 1
    result = init["result"]
    assert result["protocolVersion"] == LATEST_VERSION
    assert result["hostInfo"]["name"] == "mcp-inspector-qt"
    context = result["hostContext"]
    assert context["theme"] in ("light", "dark")
    assert context["displayMode"] == "inline"
    assert context["containerDimensions"] == {"width": 640, "maxHeight": 480}
    assert context["locale"] == "en-US"
    assert context["toolInfo"] == {"tool": TOOL, "id": 7}
    assert "serverTools" in result["hostCapabilities"]
    methods = [m.get("method") for m in services.sent[1:]]
    assert methods == ["ui/notifications/tool-input", "ui/notifications/tool-result"]
    assert services.sent[1]["params"] == {"arguments": {"tz": "UTC"}}
    # Every message, both ways, is a row: app → host and host → app, paired by id.
    dirs = [(r.direction, r.kind) for r in services.records]
    assert dirs == [
        ("from-app", "request"),
        ("to-app", "response"),
        ("from-app", "notification"),
        ("to-app", "notification"),
        ("to-app", "notification"),
    ]
    assert all(r.transport == "app" for r in services.records)


async def test_a_result_that_arrives_later_is_sent_when_it_comes() -> None:
    host, services = make_host()
    host.set_call({}, None)
    await handshake(host)
    assert [m.get("method") for m in services.sent[1:]] == ["ui/notifications/tool-input"]
    host.set_result({"content": []})
    assert services.sent[-1]["method"] == "ui/notifications/tool-result"


async def test_unknown_protocol_version_gets_ours() -> None:
    host, services = make_host()
    host.receive(rpc(1, "ui/initialize", {**INIT, "protocolVersion": "1999-01-01"}))
    await settle()
    assert services.sent[0]["result"]["protocolVersion"] == LATEST_VERSION


async def test_tool_call_through_the_host_asks_once_when_allowed_always() -> None:
    host, services = make_host()
    services.decision = Decision.ALWAYS
    await handshake(host)
    for n in (10, 11):
        host.receive(rpc(n, "tools/call", {"name": "get-time", "arguments": {"a": n}}))
        await settle()
    assert services.calls == [("get-time", {"a": 10}), ("get-time", {"a": 11})]
    assert len(services.questions) == 1
    assert services.questions[0].kind == "tool"
    answers = [m for m in services.sent if m.get("id") in (10, 11)]
    assert [a["result"]["content"][0]["text"] for a in answers] == ["called get-time"] * 2


async def test_denied_tool_call_is_an_error_and_not_sent() -> None:
    host, services = make_host()
    services.decision = Decision.DENY
    await handshake(host)
    host.receive(rpc(5, "tools/call", {"name": "get-time"}))
    await settle()
    assert services.calls == []
    assert services.sent[-1]["error"]["code"] == -32000
    assert "declined" in services.sent[-1]["error"]["message"]


async def test_a_tool_the_server_does_not_have_is_refused() -> None:
    host, services = make_host()
    await handshake(host)
    host.receive(rpc(5, "tools/call", {"name": "rm-rf"}))
    await settle()
    assert services.calls == [] and services.questions == []
    error = services.sent[-1]["error"]
    assert error["code"] == -32602 and "no tool 'rm-rf'" in error["message"]
    assert any("rm-rf" in p for p in services.problems())


async def test_a_model_only_tool_is_refused() -> None:
    hidden = {"name": "secret", "_meta": {"ui": {"visibility": ["model"]}}}
    host, services = make_host(secret=hidden)
    await handshake(host)
    host.receive(rpc(5, "tools/call", {"name": "secret"}))
    await settle()
    assert "not visible to apps" in services.sent[-1]["error"]["message"]


async def test_open_link_needs_consent_and_a_web_scheme() -> None:
    host, services = make_host()
    await handshake(host)
    host.receive(rpc(3, "ui/open-link", {"url": "https://example.com/x"}))
    await settle()
    assert services.links == ["https://example.com/x"]
    assert services.questions[-1].kind == "link"
    host.receive(rpc(4, "ui/open-link", {"url": "file:///etc/passwd"}))
    await settle()
    assert services.links == ["https://example.com/x"]
    assert services.sent[-1]["error"]["code"] == -32602


async def test_message_log_size_and_model_context() -> None:
    host, services = make_host()
    await handshake(host)
    host.receive(
        rpc(3, "ui/message", {"role": "user", "content": [{"type": "text", "text": "hi"}]})
    )
    host.receive(rpc(None, "notifications/message", {"level": "info", "data": "hello"}))
    host.receive(rpc(None, "ui/notifications/size-changed", {"width": 300, "height": 200}))
    host.receive(rpc(4, "ui/update-model-context", {"content": [{"type": "text", "text": "c"}]}))
    await settle()
    kinds = [e.kind for e in services.events]
    assert {"message", "log", "size", "context"} <= set(kinds)
    assert host.size == (300, 200)
    assert host.messages[0]["content"][0]["text"] == "hi"


async def test_invalid_json_rpc_and_unknown_methods_are_flagged() -> None:
    host, services = make_host()
    host.receive("not json at all")
    host.receive(json.dumps({"jsonrpc": "1.0", "id": 9, "method": "x"}))
    await settle()
    invalid = [r for r in services.records if r.kind == "invalid"]
    assert len(invalid) == 2 and all(r.note for r in invalid)
    assert services.sent[-1]["id"] == 9 and services.sent[-1]["error"]["code"] == -32600
    await handshake(host)
    host.receive(rpc(20, "ui/launch-missiles", {}))
    host.receive(rpc(None, "ui/notifications/whatever", {}))
    await settle()
    assert services.sent[-1]["error"]["code"] == -32601
    assert any("whatever" in p for p in services.problems())


async def test_requests_before_initialize_are_refused() -> None:
    host, services = make_host()
    host.receive(rpc(1, "tools/call", {"name": "get-time"}))
    await settle()
    assert services.calls == []
    assert services.sent[-1]["error"]["code"] == -32600
    assert services.records[0].note == "before ui/initialize"


async def test_a_flood_is_rate_limited_and_counted() -> None:
    host, services = make_host()
    clock = [0.0]
    host.budget = MessageBudget(rate=10, burst=20, clock=lambda: clock[0])
    for _ in range(100):
        host.receive(rpc(None, "notifications/message", {"level": "info", "data": "x"}))
    await settle()
    flagged = [r for r in services.records if r.note and "rate limit" in r.note]
    assert len(flagged) == 1  # the first dropped one, not 80 rows
    assert len([e for e in services.events if e.kind == "log"]) == 20
    clock[0] = 2.0
    host.flush_dropped()
    assert "80 app messages dropped unhandled" in services.records[-1].raw


async def test_a_flood_of_requests_gets_errors() -> None:
    host, services = make_host()
    host.budget = MessageBudget(rate=1, burst=1, clock=lambda: 0.0)
    host.receive(rpc(1, "ping"))
    host.receive(rpc(2, "ping"))
    await settle()
    assert {m["id"]: ("result" in m) for m in services.sent} == {1: True, 2: False}


async def test_no_initialize_times_out_with_a_message() -> None:
    host, services = make_host()
    host.page_loaded(timeout=0.05)
    await until(
        lambda: any("no ui/initialize within 0.05 s" in p for p in services.problems()),
        "the time-out's problem",
        5,
    )
    assert services.records[-1].kind == "note"


async def test_teardown_waits_for_the_app_and_then_closes() -> None:
    host, services = make_host()
    await handshake(host)
    task = asyncio.ensure_future(host.teardown(timeout=1.0))
    await settle()
    request = services.sent[-1]
    assert request["method"] == "ui/resource-teardown"
    host.receive(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": {}}))
    assert await task is True
    assert host.closed
    count = len(services.records)
    host.receive(rpc(99, "ping"))
    assert len(services.records) == count  # a closed view hears nothing


async def test_teardown_of_a_silent_app_times_out() -> None:
    host, services = make_host()
    await handshake(host)
    assert await host.teardown(timeout=0.05) is False
    assert any("did not answer ui/resource-teardown" in p for p in services.problems())


async def test_context_change_sends_only_what_changed() -> None:
    host, services = make_host()
    await handshake(host)
    host.change_context(theme="dark")
    assert services.sent[-1]["method"] == "ui/notifications/host-context-changed"
    assert services.sent[-1]["params"] == {"theme": "dark"}


async def test_resources_read_passes_through() -> None:
    host, services = make_host()
    await handshake(host)
    host.receive(rpc(8, "resources/read", {"uri": "ui://t/app.html"}))
    host.receive(rpc(9, "prompts/get", {}))
    await settle()
    by_id = {m.get("id"): m for m in services.sent}
    assert by_id[8]["result"]["contents"][0]["uri"] == "ui://t/app.html"
    assert by_id[9]["error"]["code"] == -32601
