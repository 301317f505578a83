"""The demo server's HTTP mode, spoken to raw with httpx: sessions (legacy), the stateless
modern era with its Mcp-Method/Mcp-Name checks, DNS rebinding protection, streamed tool
calls, bad bodies, and loopback only."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.helpers.demo_http import INIT, demo_http_server
from tests.helpers.peers import PY, REPO

pytestmark = pytest.mark.timeout(60)

ACCEPT = {"Accept": "application/json, text/event-stream"}
META_VERSION = "io.modelcontextprotocol/protocolVersion"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with demo_http_server() as served:
        yield served


def modern(method: str, params: dict[str, Any] | None = None, msg_id: int = 1) -> dict[str, Any]:
    meta = {
        META_VERSION: "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    return {
        "jsonrpc": "2.0",
        "id": msg_id,
        "method": method,
        "params": {**(params or {}), "_meta": meta},
    }


def sse_messages(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]


def test_legacy_session_lifecycle(url: str) -> None:
    with httpx.Client(timeout=10, headers=ACCEPT) as client:
        init = client.post(url, json=INIT)
        assert init.status_code == 200
        assert init.headers["content-type"] == "application/json"
        assert init.json()["result"]["protocolVersion"] == "2025-11-25"
        sid = init.headers["mcp-session-id"]
        assert sid.isascii() and sid.isprintable() and " " not in sid
        headers = {"Mcp-Session-Id": sid}
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert client.post(url, json=note, headers=headers).status_code == 202
        ping = client.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "ping"}, headers=headers)
        assert ping.json() == {"jsonrpc": "2.0", "id": 2, "result": {}}
        listed = {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}
        missing = client.post(url, json=listed)
        assert missing.status_code == 400 and "Mcp-Session-Id" in missing.json()["error"]["message"]
        unknown = client.post(url, json=listed, headers={"Mcp-Session-Id": "nope"})
        assert unknown.status_code == 404
        assert client.get(url, headers=headers).status_code == 405
        assert client.delete(url, headers=headers).status_code == 200
        assert client.post(url, json=listed, headers=headers).status_code == 404
        assert client.delete(url, headers=headers).status_code == 404
        assert client.delete(url).status_code == 400


def test_legacy_tool_call_streams_progress_then_the_result(url: str) -> None:
    with httpx.Client(timeout=20, headers=ACCEPT) as client:
        sid = client.post(url, json=INIT).headers["mcp-session-id"]
        call = {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {
                "name": "slow_count",
                "arguments": {"steps": 3, "delay_ms": 10},
                "_meta": {"progressToken": "p"},
            },
        }
        answer = client.post(url, json=call, headers={"Mcp-Session-Id": sid})
    assert answer.headers["content-type"].startswith("text/event-stream")
    messages = sse_messages(answer.text)
    assert [m.get("method") for m in messages[:-1]] == ["notifications/progress"] * 3
    assert messages[-1]["id"] == 7 and "Counted to 3" in json.dumps(messages[-1]["result"])


def test_legacy_elicitation_goes_out_on_the_stream_and_comes_back_by_post(url: str) -> None:
    init = json.loads(json.dumps(INIT))
    init["params"]["capabilities"] = {"elicitation": {}}
    with httpx.Client(timeout=20, headers=ACCEPT) as client:
        sid = client.post(url, json=init).headers["mcp-session-id"]
        headers = {**ACCEPT, "Mcp-Session-Id": sid}
        call = {
            "jsonrpc": "2.0",
            "id": 8,
            "method": "tools/call",
            "params": {"name": "ask_user", "arguments": {}},
        }
        with client.stream("POST", url, json=call, headers=headers) as stream:
            lines = stream.iter_lines()
            ask = None
            for line in lines:
                if line.startswith("data:"):
                    ask = json.loads(line[5:])
                    break
            assert ask is not None and ask["method"] == "elicitation/create"
            reply = {"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "decline"}}
            assert client.post(url, json=reply, headers=headers).status_code == 202
            rest = sse_messages("\n".join(lines))
    assert rest[-1]["id"] == 8 and "decline" in json.dumps(rest[-1]["result"])


def test_modern_is_stateless_and_checks_its_headers(url: str) -> None:
    with httpx.Client(timeout=10, headers=ACCEPT) as client:
        good = client.post(url, json=modern("tools/list"), headers={"Mcp-Method": "tools/list"})
        assert good.status_code == 200 and "mcp-session-id" not in good.headers
        assert good.json()["result"]["resultType"] == "complete"

        def refused(body: dict[str, Any], headers: dict[str, str], why: str) -> None:
            answer = client.post(url, json=body, headers=headers)
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"]["code"] == -32020
            assert why in answer.json()["error"]["message"]

        refused(modern("tools/list"), {}, "Mcp-Method header is required")
        refused(modern("tools/list"), {"Mcp-Method": "prompts/list"}, "'prompts/list'")
        call = modern("tools/call", {"name": "echo", "arguments": {"message": "hi"}})
        refused(call, {"Mcp-Method": "tools/call"}, "needs the Mcp-Name header")
        refused(call, {"Mcp-Method": "tools/call", "Mcp-Name": "add"}, "Mcp-Name 'add'")
        refused(
            modern("tools/list"),
            {"Mcp-Method": "tools/list", "MCP-Protocol-Version": "2025-11-25"},
            "MCP-Protocol-Version",
        )
        # the spec's base64 form of a header value is read back
        encoded = {"Mcp-Method": "tools/call", "Mcp-Name": "=?base64?ZWNobw==?="}
        echoed = client.post(url, json=call, headers=encoded)
        assert echoed.status_code == 200
        assert sse_messages(echoed.text)[-1]["result"]["content"][0]["text"] == "hi"
        unsupported = modern("tools/list")
        unsupported["params"]["_meta"][META_VERSION] = "1999-01-01"
        answer = client.post(url, json=unsupported, headers={"Mcp-Method": "tools/list"})
        assert answer.json()["error"]["code"] == -32022


def test_dns_rebinding_protection(url: str) -> None:
    port = httpx.URL(url).port
    with httpx.Client(timeout=10, headers=ACCEPT) as client:
        assert (
            client.post(url, json=INIT, headers={"Origin": "http://evil.example"}).status_code
            == 403
        )
        assert (
            client.post(url, json=INIT, headers={"Host": f"evil.example:{port}"}).status_code == 403
        )
        local = client.post(url, json=INIT, headers={"Origin": f"http://localhost:{port}"})
        assert local.status_code == 200


def test_bad_bodies_get_clear_errors(url: str) -> None:
    with httpx.Client(timeout=10, headers=ACCEPT) as client:
        parse = client.post(url, content=b"{nope", headers={"Content-Type": "application/json"})
        assert parse.status_code == 400 and parse.json()["error"]["code"] == -32700
        batch = client.post(url, json=[INIT])
        assert batch.status_code == 400 and "batches" in batch.json()["error"]["message"]
        bad_id = client.post(url, json={"jsonrpc": "2.0", "id": True, "method": "ping"})
        assert bad_id.status_code == 400 and bad_id.json()["error"]["code"] == -32600
        huge = client.post(url, content=b" " * (5 * 1024 * 1024))
        assert huge.status_code == 413
        assert client.post(url.replace("/mcp", "/other"), json=INIT).status_code == 404
        # the server is still fine
        assert client.post(url, json=INIT).status_code == 200


def test_sessions_are_bounded() -> None:
    from inspector.demo.http import MAX_SESSIONS, DemoHttpServer

    server = DemoHttpServer("127.0.0.1", 0)
    try:
        first, _ = server.new_session()
        ids = [server.new_session()[0] for _ in range(MAX_SESSIONS)]
        assert server.session(first) is None
        assert all(server.session(sid) is not None for sid in ids)
    finally:
        server.close_all()
        server.server_close()


def test_loopback_only() -> None:
    done = subprocess.run(
        [PY, "-m", "inspector.demo", "--http", "0.0.0.0:0"],
        capture_output=True,
        text=True,
        timeout=30,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    assert done.returncode == 2 and "loopback only" in done.stderr
