"""A session file of every kind of line, written by the real recorder, and the ways a file
goes wrong (an older format, CRLF, blank lines, a corrupt line, a cut-off last line): for
the tests that compare the index of a file with the eager reader."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from inspector.lint.finding import Finding
from inspector.protocol.machine.events import SessionReady
from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.protocol.wire.versions import Era
from inspector.recording.format import connection_summary, header_line
from inspector.recording.writer import SessionRecorder
from inspector.traffic.record import TrafficRecord, kind_of
from inspector.transports.base import HttpExchange

__all__ = ["TRICKY_TEXTS", "older_format", "write_varied_session"]

# Texts a find must get right: quotes, backslashes, non-ASCII, newlines, case, escapes.
TRICKY_TEXTS = [
    'He said "hi" to C:\\temp\\new',
    "Ünïcödé café ÉCOLE naïve 🎉",
    "two\nlines\tand a tab",
    "KELVIN \u212a and İstanbul",
    "a \\u00e9 written out, and \\n too",
    "MiXeD CaSe Needle",
]


def _frame(direction: str, message: dict[str, Any] | str, t: float, **kw: Any) -> TrafficRecord:
    raw = message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
    frame = parse_frame(raw)
    return TrafficRecord(
        direction,  # type: ignore[arg-type]
        kw.pop("kind", kind_of(frame)),
        raw,
        1000.0 + t,
        1_700_000_000.0 + t,
        kw.pop("transport", "stdio"),
        frame=frame,
        **kw,
    )


def write_varied_session(path: Path) -> Path:
    """Every line type, written as the app writes them."""
    header = header_line(
        connection_summary(transport="stdio", command="srv", name="Varied"),
        era="legacy",
        client_info={"name": "t"},
        client_capabilities={},
        protocol_version="2025-06-18",
    )
    rec = SessionRecorder(path, header, t0=1000.0)
    rec.start()
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
    rec.observe_many([_frame("out", init, 0.01)])
    result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": True}}}
    rec.observe_many([_frame("in", {"jsonrpc": "2.0", "id": 1, "result": result}, 0.02)])
    rec.ready(
        SessionReady(
            Era.LEGACY, "2025-06-18", {"name": "varied"}, result["capabilities"], None, result
        )
    )
    rec.observe(TrafficRecord("", "stderr", "server started ✓", 1000.03, 1.7e9, "stdio"))
    # A paginated tools/list with a string id, then a list change.
    page1 = {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}], "nextCursor": "c2"}
    page2 = {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}
    rec.observe_many(
        [
            _frame("out", {"jsonrpc": "2.0", "id": "list-1", "method": "tools/list"}, 0.04),
            _frame("in", {"jsonrpc": "2.0", "id": "list-1", "result": page1}, 0.05),
            _frame(
                "out",
                {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"cursor": "c2"}},
                0.06,
            ),
            _frame("in", {"jsonrpc": "2.0", "id": 3, "result": page2}, 0.07),
            _frame("in", {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}, 0.08),
        ]
    )
    messages = []
    for n, text in enumerate(TRICKY_TEXTS):
        level = ("info", "warning", "error", "debug", "info", "critical")[n]
        params: dict[str, Any] = {"level": level, "logger": "t", "data": text}
        if n == 2:  # the level not first: read from the parsed text
            params = {"data": text, "level": level}
        if n == 3:  # said twice: read from the parsed text
            params = {"level": level, "data": {"level": "debug", "text": text}}
        messages.append(
            _frame(
                "in",
                {"jsonrpc": "2.0", "method": "notifications/message", "params": params},
                0.1 + n / 100,
            )
        )
    rec.observe_many(messages)
    rec.observe_many(
        [
            _frame(
                "out",
                {
                    "jsonrpc": "2.0",
                    "id": 4,
                    "method": "tools/call",
                    "params": {"name": "echo", "arguments": {"text": TRICKY_TEXTS[0]}},
                },
                0.2,
            )
        ]
    )
    rec.observe(
        _frame(
            "in",
            {"jsonrpc": "2.0", "id": 4, "error": {"code": -32602, "message": 'bad "text"'}},
            0.21,
        )
    )
    rec.observe(_frame("in", "this is not JSON at all", 0.22))
    rec.observe(TrafficRecord("in", "invalid", b"\xff\xfe not utf-8", 1000.23, 1.7e9, "stdio"))
    rec.observe(
        _frame(
            "in",
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}},
            0.24,
            note="flagged by the session",
        )
    )
    rec.observe(
        _frame(
            "in",
            '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"inf',
            0.25,
            truncated=True,
            size=99999,
        )
    )
    exchange = HttpExchange("POST", "http://127.0.0.1:1/mcp", 200, content_type="application/json")
    rec.observe(TrafficRecord("", "http", "POST", 1000.26, 1.7e9, "http", http=exchange))
    rec.observe(
        _frame(
            "in",
            {"jsonrpc": "2.0", "id": 5, "result": {}},
            0.27,
            transport="http",
            http=exchange,
            sse_event_id="e1",
        )
    )
    rec.observe(TrafficRecord("", "note", "reconnected", 1000.28, 1.7e9, "stdio", note="a note"))
    rec.action("answered by hand", request=4)
    rec.lint(4, Finding(4, "schema.required", "missing 'x'"))
    rec.observe_many(
        [
            _frame("out", {"jsonrpc": "2.0", "id": 6, "method": "ping"}, 0.3),
            _frame("in", {"jsonrpc": "2.0", "id": 6, "result": {}}, 0.31),
        ]
    )
    rec.close()
    return path


def older_format(path: Path, target: Path) -> Path:
    """The same file as written before frame lines repeated the frame's method and id."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        out.append(re.sub(r'"kind":"(\w+)","method":"[^"]*",', r'"kind":"\1",', line))
    text = "\n".join(out) + "\n"
    text = re.sub(r'"id":(\d+|"[^"]*"),"text"', '"text"', text)
    target.write_text(text, encoding="utf-8")
    return target
