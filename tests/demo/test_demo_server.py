"""End-to-end tests of the bundled demo server over raw stdio JSON lines."""

from __future__ import annotations

import base64
import json
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.helpers.peers import REPO

SPEC = REPO.parent / "shared" / "spec"
MODERN = "2026-07-28"
TIMEOUT = 5.0

Msg = dict[str, Any]


def modern_meta(**caps: Any) -> Msg:
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "pytest", "version": "1.0"},
        "io.modelcontextprotocol/clientCapabilities": caps,
    }


class Server:
    """The demo server in a subprocess, read by a thread into a queue."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "inspector.demo"],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()
        self._ids = iter(range(1, 10_000))

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _pump_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line)

    def write_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: Msg) -> None:
        self.write_raw(json.dumps(message).encode() + b"\n")

    def read(self) -> Msg:
        line = self.lines.get(timeout=TIMEOUT)
        assert line is not None, "server closed stdout"
        message = json.loads(line)
        assert isinstance(message, dict)
        return message

    def read_until(self, predicate: Callable[[Msg], bool]) -> tuple[Msg, list[Msg]]:
        """The first message matching ``predicate`` and the ones skipped before it."""
        skipped: list[Msg] = []
        while True:
            message = self.read()
            if predicate(message):
                return message, skipped
            skipped.append(message)

    def request(self, method: str, params: Msg | None = None) -> tuple[Msg, list[Msg]]:
        request_id = next(self._ids)
        message: Msg = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.read_until(lambda m: m.get("id") == request_id and "method" not in m)

    def result(self, method: str, params: Msg | None = None) -> Msg:
        response, _ = self.request(method, params)
        assert "result" in response, response
        result = response["result"]
        assert isinstance(result, dict)
        return result

    def initialize(self, capabilities: Msg | None = None, version: str = "2025-11-25") -> Msg:
        result = self.result(
            "initialize",
            {
                "protocolVersion": version,
                "capabilities": capabilities or {},
                "clientInfo": {"name": "pytest", "version": "1.0"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return result

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=TIMEOUT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture
def demo_server() -> Iterator[Server]:
    srv = Server()
    try:
        yield srv
    finally:
        if srv.proc.poll() is None:
            assert srv.close() == 0


def check_shape(version: str, definition: str, instance: Any) -> None:
    """Validate against the spec's JSON schema when it (and jsonschema) is available."""
    jsonschema = pytest.importorskip("jsonschema")
    path = SPEC / version / "schema.json"
    if not path.exists():
        return
    schema = json.loads(path.read_text())
    key = "$defs" if "$defs" in schema else "definitions"
    wrapper = {**schema, "$ref": f"#/{key}/{definition}"}
    jsonschema.validate(instance, wrapper)


def test_stderr_banner_and_clean_exit() -> None:
    srv = Server()
    assert srv.close() == 0
    assert any(b"demo server ready" in line for line in srv.stderr)


def test_legacy_initialize_and_tools(demo_server: Server) -> None:
    init = demo_server.initialize()
    assert init["protocolVersion"] == "2025-11-25"
    assert init["serverInfo"]["name"] == "mcp-inspector-qt demo"
    assert init["capabilities"]["resources"] == {"subscribe": True, "listChanged": True}
    check_shape("2025-11-25", "InitializeResult", init)

    tools = demo_server.result("tools/list")
    check_shape("2025-11-25", "ListToolsResult", tools)
    names = {t["name"] for t in tools["tools"]}
    expected = {"echo", "add", "create_ticket", "render_chart", "fail_sometimes", "explode"}
    assert expected | {"slow_count", "ask_llm", "ask_user", "log_burst"} <= names
    ticket = next(t for t in tools["tools"] if t["name"] == "create_ticket")
    assert ticket["inputSchema"]["properties"]["assignee"]["type"] == "object"

    echo = demo_server.result("tools/call", {"name": "echo", "arguments": {"message": "héllo"}})
    assert echo["content"] == [{"type": "text", "text": "héllo"}]
    assert "resultType" not in echo

    add = demo_server.result("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3.5}})
    assert add["structuredContent"] == {"a": 2, "b": 3.5, "sum": 5.5}
    assert json.loads(add["content"][0]["text"]) == add["structuredContent"]
    check_shape("2025-11-25", "CallToolResult", add)

    chart = demo_server.result("tools/call", {"name": "render_chart", "arguments": {}})
    image = next(c for c in chart["content"] if c["type"] == "image")
    assert image["mimeType"] == "image/png"
    assert base64.b64decode(image["data"]).startswith(b"\x89PNG\r\n\x1a\n")

    failed = demo_server.result(
        "tools/call", {"name": "fail_sometimes", "arguments": {"mode": "fail"}}
    )
    assert failed["isError"] is True
    assert failed["content"][0]["text"]

    explode, _ = demo_server.request("tools/call", {"name": "explode", "arguments": {}})
    assert explode["error"]["code"] == -32603
    unknown, _ = demo_server.request("no/such/method")
    assert unknown["error"]["code"] == -32601
    cursor, _ = demo_server.request("tools/list", {"cursor": "bogus"})
    assert cursor["error"]["code"] == -32602


def test_legacy_resources_prompts_completion(demo_server: Server) -> None:
    demo_server.initialize()
    listed = demo_server.result("resources/list")
    assert {r["uri"] for r in listed["resources"]} >= {"demo://readme", "demo://logo.png"}
    logo = demo_server.result("resources/read", {"uri": "demo://logo.png"})
    assert base64.b64decode(logo["contents"][0]["blob"]).startswith(b"\x89PNG")
    note = demo_server.result("resources/read", {"uri": "demo://notes/debugging"})
    assert "debugging" in note["contents"][0]["text"]
    missing, _ = demo_server.request("resources/read", {"uri": "demo://nope"})
    assert missing["error"]["code"] == -32002

    prompt = demo_server.result(
        "prompts/get", {"name": "review_code", "arguments": {"code": "x=1"}}
    )
    check_shape("2025-11-25", "GetPromptResult", prompt)
    ref = {"type": "ref/prompt", "name": "review_code"}
    done = demo_server.result(
        "completion/complete", {"ref": ref, "argument": {"name": "language", "value": "ru"}}
    )
    assert done["completion"]["values"] == ["ruby", "rust"]

    assert demo_server.result("resources/subscribe", {"uri": "demo://readme"}) == {}
    update, _ = demo_server.read_until(
        lambda m: m.get("method") == "notifications/resources/updated"
    )
    assert update["params"]["uri"] == "demo://readme"


def test_legacy_sampling_round_trip(demo_server: Server) -> None:
    demo_server.initialize({"sampling": {}})
    demo_server.send(
        {
            "jsonrpc": "2.0",
            "id": "call-1",
            "method": "tools/call",
            "params": {"name": "ask_llm", "arguments": {"question": "Capital of France?"}},
        }
    )
    ask, _ = demo_server.read_until(lambda m: m.get("method") == "sampling/createMessage")
    assert isinstance(ask["id"], str) and ask["id"].startswith("demo-srv-")
    assert ask["params"]["messages"][0]["content"]["text"] == "Capital of France?"
    demo_server.send(
        {
            "jsonrpc": "2.0",
            "id": ask["id"],
            "result": {
                "role": "assistant",
                "content": {"type": "text", "text": "Paris."},
                "model": "test-model",
                "stopReason": "endTurn",
            },
        }
    )
    answer, _ = demo_server.read_until(lambda m: m.get("id") == "call-1")
    text = answer["result"]["content"][0]["text"]
    assert "Paris." in text and "test-model" in text


def test_legacy_sampling_without_capability_is_tool_error(demo_server: Server) -> None:
    demo_server.initialize({})
    result = demo_server.result("tools/call", {"name": "ask_llm", "arguments": {"question": "?"}})
    assert result["isError"] is True


def test_legacy_progress_and_cancel(demo_server: Server) -> None:
    demo_server.initialize()
    params = {
        "name": "slow_count",
        "arguments": {"steps": 50, "delay_ms": 50},
        "_meta": {"progressToken": "tok"},
    }
    demo_server.send({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": params})
    progress, _ = demo_server.read_until(lambda m: m.get("method") == "notifications/progress")
    assert progress["params"]["progressToken"] == "tok"
    assert progress["params"]["total"] == 50
    demo_server.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}
    )
    # The cancelled call gets no response; the server goes on answering others.
    echo, skipped = demo_server.request(
        "tools/call", {"name": "echo", "arguments": {"message": "x"}}
    )
    assert echo["result"]["content"][0]["text"] == "x"
    assert all(m.get("id") != 99 for m in skipped)


def test_modern_discover_and_call(demo_server: Server) -> None:
    discover = demo_server.result("server/discover", {"_meta": modern_meta()})
    assert discover["resultType"] == "complete"
    assert discover["supportedVersions"] == [MODERN]
    assert discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"]
    check_shape(MODERN, "DiscoverResult", discover)

    tools = demo_server.result("tools/list", {"_meta": modern_meta()})
    assert tools["resultType"] == "complete"
    check_shape(MODERN, "ListToolsResult", tools)

    params = {"_meta": modern_meta(), "name": "add", "arguments": {"a": 1, "b": 2}}
    add = demo_server.result("tools/call", params)
    assert add["resultType"] == "complete"
    assert add["structuredContent"]["sum"] == 3
    check_shape(MODERN, "CallToolResult", add)

    ping, _ = demo_server.request("ping", {"_meta": modern_meta()})
    assert ping["error"]["code"] == -32601


def test_modern_elicitation_round_trip(demo_server: Server) -> None:
    meta = modern_meta(elicitation={})
    first = demo_server.result("tools/call", {"_meta": meta, "name": "ask_user", "arguments": {}})
    assert first["resultType"] == "input_required"
    check_shape(MODERN, "InputRequiredResult", first)
    [(key, input_request)] = first["inputRequests"].items()
    assert input_request["method"] == "elicitation/create"
    assert input_request["params"]["requestedSchema"]["properties"]["age"]["type"] == "integer"

    retry = {
        "_meta": meta,
        "name": "ask_user",
        "arguments": {},
        "inputResponses": {key: {"action": "accept", "content": {"name": "Ada", "age": 36}}},
        "requestState": first["requestState"],
    }
    final = demo_server.result("tools/call", retry)
    assert final["resultType"] == "complete"
    assert "Ada" in final["content"][0]["text"]
    assert final["structuredContent"] == {"name": "Ada", "age": 36}


def test_modern_missing_capability(demo_server: Server) -> None:
    params = {"_meta": modern_meta(), "name": "ask_llm", "arguments": {"question": "?"}}
    response, _ = demo_server.request("tools/call", params)
    assert response["error"]["code"] == -32021
    assert response["error"]["data"] == {"requiredCapabilities": {"sampling": {}}}


def test_modern_listen_acknowledged_and_closed(demo_server: Server) -> None:
    params = {
        "_meta": modern_meta(),
        "notifications": {"toolsListChanged": True, "resourceSubscriptions": ["demo://readme"]},
    }
    demo_server.send(
        {"jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen", "params": params}
    )
    ack = demo_server.read()
    assert ack["method"] == "notifications/subscriptions/acknowledged"
    assert ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "listen-1"
    assert ack["params"]["notifications"] == params["notifications"]
    update = demo_server.read()
    assert update["method"] == "notifications/resources/updated"
    demo_server.send(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "listen-1"}}
    )
    closed = demo_server.read()
    assert closed["id"] == "listen-1"
    assert closed["result"]["resultType"] == "complete"
    check_shape(MODERN, "SubscriptionsListenResult", closed["result"])


def test_unsupported_version(demo_server: Server) -> None:
    meta = {**modern_meta(), "io.modelcontextprotocol/protocolVersion": "1900-01-01"}
    response, _ = demo_server.request("tools/list", {"_meta": meta})
    error = response["error"]
    assert error["code"] == -32022
    assert error["data"]["requested"] == "1900-01-01"
    assert MODERN in error["data"]["supported"] and "2025-11-25" in error["data"]["supported"]


def test_garbage_line_then_keeps_working(demo_server: Server) -> None:
    demo_server.write_raw(b"this is not json\n")
    error = demo_server.read()
    assert error["id"] is None and error["error"]["code"] == -32700
    demo_server.write_raw(b"\xff\xfe\n")
    assert demo_server.read()["error"]["code"] == -32700
    demo_server.initialize()
    echo = demo_server.result(
        "tools/call", {"name": "echo", "arguments": {"message": "still here"}}
    )
    assert echo["content"][0]["text"] == "still here"


def test_official_sdk_client_both_eras() -> None:
    """Interop: the `mcp` SDK client (a test dependency) drives the demo in both eras."""
    anyio = pytest.importorskip("anyio")
    pytest.importorskip("mcp.client.client")
    from mcp import StdioServerParameters
    from mcp.client.client import Client
    from mcp.client.stdio import stdio_client
    from mcp_types import CreateMessageResult, ElicitResult, TextContent

    async def sampling(context: Any, params: Any) -> Any:
        text = TextContent(type="text", text="Paris")
        return CreateMessageResult(role="assistant", content=text, model="fake")

    async def elicit(context: Any, params: Any) -> Any:
        return ElicitResult(action="accept", content={"name": "Ada"})

    async def run(mode: str) -> list[str]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "inspector.demo"], cwd=str(REPO)
        )
        texts: list[str] = []
        with anyio.fail_after(20):
            async with Client(
                stdio_client(params),
                mode=mode,
                sampling_callback=sampling,
                elicitation_callback=elicit,
            ) as client:
                for name, args in [("ask_llm", {"question": "?"}), ("ask_user", {})]:
                    result = await client.call_tool(name, args)
                    block = result.content[0]
                    assert isinstance(block, TextContent)
                    texts.append(block.text)
        return texts

    for mode in ("legacy", "auto"):
        llm, user = anyio.run(run, mode)
        assert "Paris" in llm, mode
        assert "Ada" in user, mode
