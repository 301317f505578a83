"""Row summaries, detail text and "copy as CLI command" (Qt-free)."""

from __future__ import annotations

import json
import shlex
import time

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.traffic.format import cli_command, detail_text, hexdump, summarize
from inspector.traffic.log import TrafficEntry, TrafficLog
from inspector.traffic.record import TrafficRecord, kind_of
from inspector.transports.base import HttpExchange


def entry(direction: str, message: object, **extra: object) -> TrafficEntry:
    log = TrafficLog()
    raw = message if isinstance(message, str | bytes) else json.dumps(message)
    frame = parse_frame(raw)
    record = TrafficRecord(direction, kind_of(frame), raw, 0.0, time.time(), "stdio", frame)  # type: ignore[arg-type]
    for key, value in extra.items():
        setattr(record, key, value)
    return log.observe(record)


def test_summaries() -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 1, "b": 2}},
    }
    assert summarize(entry("out", call)) == 'add {"a":1,"b":2}'
    tools = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a"}, {"name": "b"}]}}
    assert summarize(entry("in", tools)) == "2 tools: a, b"
    error = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "nope"}}
    assert summarize(entry("in", error)) == "-32601 Method not found: nope"
    text = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"content": [{"type": "text", "text": "hi"}], "isError": True},
    }
    assert summarize(entry("in", text)) == "isError 'hi'"
    progress = {
        "jsonrpc": "2.0",
        "method": "notifications/progress",
        "params": {"progressToken": 1, "progress": 3, "total": 10, "message": "working"},
    }
    assert summarize(entry("in", progress)) == "3/10 working"
    assert summarize(entry("in", "garbage")).startswith("not JSON")


def test_detail_text_for_invalid_bytes_and_http() -> None:
    bad = entry("in", b"\xff\xfe{")
    text = detail_text(bad)
    assert "parse error:" in text and "ff fe 7b" in text
    exchange = HttpExchange(
        "POST",
        "http://x/mcp",
        200,
        {"accept": "*/*"},
        {"mcp-session-id": "s1"},
        "text/event-stream",
    )
    ok = entry("in", {"jsonrpc": "2.0", "id": 1, "result": {}}, http=exchange, sse_event_id="e-7")
    text = detail_text(ok)
    assert "HTTP POST http://x/mcp" in text and "status: 200" in text
    assert "mcp-session-id: s1" in text and "SSE event id: e-7" in text
    assert hexdump(b"A" * 20).splitlines()[1].startswith("00000010  41 41 41 41")


def test_cli_command_reproduces_requests() -> None:
    call = entry(
        "out",
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 1}},
        },
    )
    cmd = cli_command(call, ["python", "-m", "inspector.demo"])
    assert cmd is not None
    assert shlex.split(cmd) == [
        "mcp-inspector-qt",
        "cli",
        "--method",
        "tools/call",
        "--tool-name",
        "add",
        "--tool-args-json",
        '{"a": 1}',
        "--",
        "python",
        "-m",
        "inspector.demo",
    ]
    read = entry(
        "out",
        {"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "demo://x"}},
    )
    assert "--uri demo://x" in (cli_command(read, url="http://h/mcp", era="modern") or "")
    assert "--era modern --url http://h/mcp" in (
        cli_command(read, url="http://h/mcp", era="modern") or ""
    )
    sub = entry(
        "out",
        {"jsonrpc": "2.0", "id": 3, "method": "resources/subscribe", "params": {"uri": "demo://x"}},
    )
    assert cli_command(sub, ["x"]) is None
    assert cli_command(entry("in", {"jsonrpc": "2.0", "id": 3, "result": {}}), ["x"]) is None


def test_http_rows_summarize_the_exchange() -> None:
    exchange = HttpExchange("GET", "http://h:1/ok/mcp?x=1", 405, {}, {}, None, "no GET stream")
    log = TrafficLog()
    record = TrafficRecord(
        "", "http", "GET http://h:1/ok/mcp → 405", 0.0, 0.0, "http", http=exchange
    )
    assert summarize(log.observe(record)) == "GET /ok/mcp → 405: no GET stream"
