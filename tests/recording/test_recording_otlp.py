"""`export-otlp`: a recorded session as OpenTelemetry spans, received by a loopback OTLP/HTTP
receiver of our own (tests/helpers/otlp_receiver.py) or written as an OTLP JSON file."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from inspector.recording.offline import load_offline
from inspector.recording.otlp.live import live_session
from inspector.recording.otlp.spans import SpanRecord, session_spans
from inspector.recording.reader import read_session
from tests.helpers.demo_http import demo_http_server
from tests.helpers.http_servers import free_port
from tests.helpers.mrtr_session import write_mrtr_session
from tests.helpers.peers import PY, REPO, demo_command

pytest.importorskip("opentelemetry.sdk", reason="the 'otel' extra is a test dependency")

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
)

from tests.helpers.otlp_receiver import otlp_receiver

WALL0 = 1_796_000_000.0
EVIL_TOOL = "bad\x1b[2Jname"


def inspector(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The command, run from `cwd` (a folder other than the session file's)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [PY, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
    )


def _frame(t: float, direction: str, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
    kind = (
        "request"
        if "method" in message and "id" in message
        else "error"
        if "error" in message
        else "response"
        if "id" in message
        else "notification"
    )
    line = {"type": "frame", "t": t, "wall": WALL0 + t, "transport": extra.pop("transport")}
    line.update(dir=direction, kind=kind, text=json.dumps(message), **extra)
    return line


def _request(rid: Any, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        message["params"] = params
    return message


def _result(rid: Any, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def _write(path: Path, transport: str, lines: list[dict[str, Any]]) -> Path:
    connection: dict[str, Any] = (
        {"transport": "stdio", "command": "srv", "args": [], "env": {}, "cwd": None}
        if transport == "stdio"
        else {"transport": "http", "url": "http://127.0.0.1:9/mcp", "header_names": []}
    )
    header = {
        "type": "header",
        "format": "mcp-inspector-session",
        "version": 1,
        "app_version": "0.1.0",
        "created": "2026-12-01T00:00:00.000+00:00",
        "connection": connection,
        "era": "legacy",
        "protocol_version": "2025-11-25",
        "client_info": {"name": "mcp-inspector-qt", "version": "0.1.0"},
        "client_capabilities": {"sampling": {}},
    }
    ready = {
        "type": "ready",
        "era": "legacy",
        "protocol_version": "2025-11-25",
        "server_info": {"name": "fixture server", "version": "9"},
        "capabilities": {"tools": {}},
    }
    with path.open("w", encoding="utf-8") as handle:
        for line in [header, ready, *lines]:
            handle.write(json.dumps(line) + "\n")
    return path


def stdio_session(path: Path) -> Path:
    """A tools/call with a sampling ask inside, a tool error, a JSON-RPC error, a prompt,
    a request never answered, and a line of stdout pollution."""
    s = {"transport": "stdio"}
    call = _request(1, "tools/call", {"name": "ask_llm", "_meta": {"progressToken": "p1"}})
    ask = _request("s1", "sampling/createMessage", {"messages": [], "maxTokens": 5})
    tool_error = {"isError": True, "content": [{"type": "text", "text": "boom"}]}
    not_found = {"code": -32002, "message": "Resource not found"}
    pollution = {
        "type": "frame",
        "t": 2.5,
        "wall": WALL0 + 2.5,
        "transport": "stdio",
        "dir": "in",
        "kind": "invalid",
        "text": "not json",
        "note": "stdout pollution",
    }
    exited = {
        "type": "note",
        "t": 7.0,
        "wall": WALL0 + 7.0,
        "transport": "stdio",
        "text": "server exited (code 0)",
    }
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": 6, "reason": "user"}}  # fmt: skip
    return _write(
        path,
        "stdio",
        [
            _frame(1.0, "out", call, **s),
            _frame(1.25, "in", ask, **s),
            _frame(1.5, "out", _result("s1", {"role": "assistant", "content": {}}), **s),
            _frame(2.0, "in", _result(1, {"content": [{"type": "text", "text": "ok"}]}), **s),
            pollution,
            _frame(3.0, "out", _request(2, "tools/call", {"name": EVIL_TOOL}), **s),
            _frame(3.5, "in", _result(2, tool_error), **s),
            _frame(4.0, "out", _request(3, "resources/read", {"uri": "file:///x"}), **s),
            _frame(4.125, "in", {"jsonrpc": "2.0", "id": 3, "error": not_found}, **s),
            _frame(5.0, "out", _request(4, "prompts/get", {"name": "greet"}), **s),
            _frame(5.25, "in", _result(4, {"messages": []}), **s),
            _frame(6.0, "out", _request(5, "tools/list"), **s),
            _frame(6.25, "out", _request(6, "tools/call", {"name": "slow"}), **s),
            _frame(6.5, "out", cancel, **s),
            exited,
        ],
    )  # fmt: skip


def http_session(path: Path) -> Path:
    """Two tool calls at once over Streamable HTTP; the ask comes on the first call's POST
    stream although the second call is the newer one."""
    h = {"transport": "http"}
    ask = _request(0, "sampling/createMessage", {"messages": []})

    def exchange(t: float, xid: int) -> dict[str, Any]:
        return {
            "type": "http", "t": t, "wall": WALL0 + t, "transport": "http", "xid": xid,
            "exchange": {"method": "POST", "url": "http://127.0.0.1:9/mcp", "status": 200,
                         "request_headers": {"mcp-session-id": "8a91e7fc…"},
                         "response_headers": {"content-type": "text/event-stream"}},
        }  # fmt: skip

    return _write(
        path,
        "http",
        [
            _frame(1.0, "out", _request(1, "tools/call", {"name": "slow"}), **h),
            exchange(1.01, 1),
            _frame(1.1, "out", _request(2, "tools/call", {"name": "fast"}), **h),
            exchange(1.11, 2),
            _frame(1.2, "in", ask, via={"xid": 1}, **h),
            _frame(1.3, "out", _result(0, {"role": "assistant", "content": {}}), **h),
            exchange(1.31, 3),
            _frame(1.4, "in", _result(2, {"content": []}), via={"xid": 2}, **h),
            _frame(2.0, "in", _result(1, {"content": []}), via={"xid": 1}, **h),
        ],
    )  # fmt: skip


def _by_name(records: list[SpanRecord]) -> dict[str, SpanRecord]:
    return {record.name: record for record in records}


def test_a_written_session_maps_to_one_span_per_request(tmp_path: Path) -> None:
    spans = _by_name(session_spans(read_session(stdio_session(tmp_path / "s.jsonl"))))
    assert list(spans) == [
        "tools/call ask_llm",
        "sampling/createMessage",
        f"tools/call {EVIL_TOOL}",
        "resources/read",
        "prompts/get greet",
        "tools/list",
        "tools/call slow",
    ]
    call, ask = spans["tools/call ask_llm"], spans["sampling/createMessage"]
    assert (call.kind, ask.kind) == ("client", "server")
    assert ask.parent == call.index and call.parent is None
    assert call.start == int((WALL0 + 1.0) * 1e9) and call.duration == pytest.approx(1.0)
    assert ask.duration == pytest.approx(0.25)
    assert call.attributes["mcp.method.name"] == "tools/call"
    assert call.attributes["gen_ai.tool.name"] == "ask_llm"
    assert call.attributes["gen_ai.operation.name"] == "execute_tool"
    assert call.attributes["jsonrpc.request.id"] == "1"
    assert ask.attributes["jsonrpc.request.id"] == "s1"
    assert call.attributes["mcp.protocol.version"] == "2025-11-25"
    assert call.attributes["mcp_inspector.era"] == "legacy"
    assert call.attributes["network.transport"] == "pipe"
    assert call.attributes["mcp_inspector.request.size"] > 40
    assert call.attributes["mcp_inspector.response.size"] > 20
    assert call.error is None and "error.type" not in call.attributes
    tool_error = spans[f"tools/call {EVIL_TOOL}"]  # server text kept as it is: it is data
    assert tool_error.attributes["gen_ai.tool.name"] == EVIL_TOOL
    assert tool_error.attributes["error.type"] == "tool_error" and tool_error.error == "boom"
    read = spans["resources/read"]
    assert read.attributes["mcp.resource.uri"] == "file:///x"
    assert read.attributes["error.type"] == "-32002"
    assert read.attributes["rpc.response.status_code"] == "-32002"
    assert read.error == "Resource not found" and read.duration == pytest.approx(0.125)
    assert spans["prompts/get greet"].attributes["gen_ai.prompt.name"] == "greet"
    unanswered = spans["tools/list"]
    assert unanswered.attributes["error.type"] == "no_response"
    assert unanswered.duration == pytest.approx(1.0)  # to the recording's last event
    cancelled = spans["tools/call slow"]
    assert cancelled.attributes["error.type"] == "cancelled"
    assert cancelled.error == "cancelled: user" and cancelled.duration == pytest.approx(0.25)


def test_an_ask_on_a_calls_http_stream_is_that_calls_child(tmp_path: Path) -> None:
    spans = _by_name(session_spans(read_session(http_session(tmp_path / "h.jsonl"))))
    ask = spans["sampling/createMessage"]
    assert ask.parent == spans["tools/call slow"].index  # not the newer "fast"
    assert ask.attributes["mcp.session.id"] == "8a91e7fc…"
    assert ask.attributes["network.transport"] == "tcp"


def _attrs(span: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for attribute in span.attributes:
        value = attribute.value
        out[attribute.key] = getattr(value, value.WhichOneof("value"))
    return out


def test_a_recorded_sampling_call_reaches_our_otlp_receiver(tmp_path: Path) -> None:
    """A real session (cli --record against the demo server's ask_llm) sent to the loopback
    receiver, from another folder: the spans, their parent link and the recorded times."""
    answers = tmp_path / "answers.json"
    sampled = {"role": "assistant", "model": "m", "content": {"type": "text", "text": "hi"}}
    answers.write_text(json.dumps({"sampling": sampled}))
    session = tmp_path / "rec" / "s.jsonl"
    session.parent.mkdir()
    recorded = inspector(
        "cli", "--record", str(session), "--answers", str(answers), "--method", "tools/call",
        "--tool-name", "ask_llm", "--tool-arg", "question=why", "--", *demo_command(),
        cwd=tmp_path,
    )  # fmt: skip
    assert recorded.returncode == 0, recorded.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with otlp_receiver() as receiver:
        proc = inspector(
            "export-otlp", str(session), "--endpoint", receiver.url + "/", cwd=elsewhere
        )
        assert proc.returncode == 0, proc.stderr
        assert receiver.paths == ["/v1/traces"]
        spans = {span.name: span for span in receiver.spans()}
        resources = receiver.resources()
    assert "sent 4 span(s)" in proc.stderr
    assert set(spans) == {
        "initialize",
        "tools/list",
        "tools/call ask_llm",
        "sampling/createMessage",
    }
    call, ask = spans["tools/call ask_llm"], spans["sampling/createMessage"]
    assert ask.parent_span_id == call.span_id and ask.trace_id == call.trace_id
    assert not call.parent_span_id
    assert spans["initialize"].trace_id != call.trace_id  # each call of ours: its own trace
    assert _attrs(call)["gen_ai.tool.name"] == "ask_llm"
    assert _attrs(ask)["mcp.method.name"] == "sampling/createMessage"
    assert resources[0]["service.name"] == "mcp-inspector-qt"
    assert resources[0]["mcp_inspector.server.name"] == "mcp-inspector-qt demo"
    frames = {}  # the recorded times: (dir, id) -> (wall ns of the request, of the answer)
    for event in read_session(session).frames():
        message = json.loads(event.raw)
        frames.setdefault(json.dumps(message.get("id")), []).append(event)
    for span, rid in ((call, "3"), (ask, '"demo-srv-1"')):
        request, answer = frames[rid]
        t0 = round(request.data["wall"] * 1e9)
        # the recorded time, not the export's: the frame's wall clock, to within the drift
        # between the wall and monotonic clocks the file's times are read from
        assert abs(span.start_time_unix_nano - t0) < 1_000_000
        recorded_ns = round((answer.t - request.t) * 1e9)
        assert abs(span.end_time_unix_nano - span.start_time_unix_nano - recorded_ns) < 2_000


def test_a_recorded_http_sampling_call_finds_its_call_by_its_stream(tmp_path: Path) -> None:
    """Recorded over Streamable HTTP (the demo server's HTTP mode): the ask came on the
    tools/call's POST stream; the session id is on the spans after the handshake."""
    answers = tmp_path / "answers.json"
    sampled = {"role": "assistant", "model": "m", "content": {"type": "text", "text": "hi"}}
    answers.write_text(json.dumps({"sampling": sampled}))
    session = tmp_path / "h.jsonl"
    with demo_http_server() as url:
        recorded = inspector(
            "cli", "--url", url, "--record", str(session), "--answers", str(answers),
            "--method", "tools/call", "--tool-name", "ask_llm", "--tool-arg", "question=why",
            cwd=tmp_path,
        )  # fmt: skip
    assert recorded.returncode == 0, recorded.stderr
    spans = _by_name(session_spans(read_session(session)))
    call, ask = spans["tools/call ask_llm"], spans["sampling/createMessage"]
    assert ask.parent == call.index
    assert call.attributes["network.transport"] == "tcp"
    assert isinstance(ask.attributes["mcp.session.id"], str) and ask.attributes["mcp.session.id"]
    assert call.attributes["mcp.session.id"] == ask.attributes["mcp.session.id"]


def test_output_writes_an_otlp_json_file(tmp_path: Path) -> None:
    session = stdio_session(tmp_path / "s.jsonl")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    proc = inspector("export-otlp", str(session), "--output", "t.json", cwd=out_dir)
    assert proc.returncode == 0, proc.stderr
    document = json.loads((out_dir / "t.json").read_text(encoding="utf-8"))
    spans = [s for r in document["resourceSpans"] for ss in r["scopeSpans"] for s in ss["spans"]]
    assert len(spans) == 7
    for span in spans:  # OTLP/JSON: hex ids, integer enums, camelCase names
        assert len(span["traceId"]) == 32 and int(span["traceId"], 16)
        assert len(span["spanId"]) == 16 and int(span["spanId"], 16)
        assert isinstance(span["kind"], int)
    by_name = {span["name"]: span for span in spans}
    ask = by_name["sampling/createMessage"]
    assert ask["parentSpanId"] == by_name["tools/call ask_llm"]["spanId"]
    assert ask["kind"] == 2  # SPAN_KIND_SERVER
    assert by_name["resources/read"]["status"] == {"code": 2, "message": "Resource not found"}
    assert by_name["tools/call ask_llm"]["startTimeUnixNano"] == str(int((WALL0 + 1.0) * 1e9))
    # the same document, ids back in base64, is a valid ExportTraceServiceRequest
    for span in spans:
        for key in ("traceId", "spanId", "parentSpanId"):
            if key in span:
                span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    request = json_format.ParseDict(document, ExportTraceServiceRequest())
    assert len(request.resource_spans[0].scope_spans[0].spans) == 7


def test_bad_input_says_why_and_fails(tmp_path: Path) -> None:
    good = stdio_session(tmp_path / "s.jsonl")
    missing = inspector("export-otlp", str(tmp_path / "nope.jsonl"), "-o", "x.json", cwd=tmp_path)
    assert missing.returncode == 2 and "nope.jsonl" in missing.stderr
    corrupt = tmp_path / "corrupt.jsonl"
    corrupt.write_bytes(b"\x00\x01 not a session\n")
    bad = inspector("export-otlp", str(corrupt), "-o", "x.json", cwd=tmp_path)
    assert bad.returncode == 2 and "error:" in bad.stderr and "Traceback" not in bad.stderr
    neither = inspector("export-otlp", str(good), cwd=tmp_path)
    assert neither.returncode == 2 and "--endpoint URL or --output" in neither.stderr
    port = free_port()  # nothing listens there
    unreachable = inspector(
        "export-otlp", str(good), "--endpoint", f"http://127.0.0.1:{port}", "--timeout", "2",
        cwd=tmp_path,
    )  # fmt: skip
    assert unreachable.returncode == 3, unreachable.stderr
    assert f"127.0.0.1:{port}/v1/traces did not take the spans" in unreachable.stderr
    assert "Connection refused" in unreachable.stderr and "Traceback" not in unreachable.stderr
    with otlp_receiver(status=500) as receiver:
        refused = inspector("export-otlp", str(good), "--endpoint", receiver.url, cwd=tmp_path)
    assert refused.returncode == 3, refused.stderr
    assert "did not take the spans" in refused.stderr and "500" in refused.stderr
    assert not (tmp_path / "x.json").exists()


def test_without_the_otel_extra_the_command_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import inspector.recording.otlp
    import inspector.recording.otlp.sdk  # loaded before, as in a long test run: unloaded below
    from inspector.__main__ import main

    monkeypatch.delitem(sys.modules, "inspector.recording.otlp.sdk", raising=False)
    monkeypatch.delattr(inspector.recording.otlp, "sdk", raising=False)
    monkeypatch.setitem(sys.modules, "opentelemetry.sdk", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "opentelemetry.sdk.trace", None)
    session = stdio_session(tmp_path / "s.jsonl")
    assert main(["export-otlp", str(session), "-o", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert "[otel]" in err and "OpenTelemetry SDK" in err
    assert not (tmp_path / "x.json").exists()


def test_a_tap_recording_without_a_handshake_line_still_exports(tmp_path: Path) -> None:
    """A tap's file: era auto, no client of ours in the header, no `ready` line."""
    header = {"type": "header", "format": "mcp-inspector-session", "version": 1,
              "app_version": "0.1.0", "created": "2026-12-01T00:00:00.000+00:00",
              "connection": {"transport": "stdio", "command": "srv", "args": [], "env": {}},
              "era": "auto", "protocol_version": None, "client_info": {},
              "client_capabilities": {}, "tap": {"pid": 1}}  # fmt: skip
    s = {"transport": "stdio"}
    lines = [
        header,
        _frame(0.5, "out", _request(1, "tools/call", {"name": "echo"}), **s),
        _frame(0.75, "in", _result(1, {"content": []}), **s),
    ]
    session = tmp_path / "tap.jsonl"
    session.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    proc = inspector("export-otlp", str(session), "-o", str(tmp_path / "t.json"), cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    document = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    (resource,) = document["resourceSpans"]
    names = {a["key"]: a["value"]["stringValue"] for a in resource["resource"]["attributes"]}
    assert names["service.name"] == "mcp-client"
    (span,) = resource["scopeSpans"][0]["spans"]
    attributes = {a["key"]: a["value"] for a in span["attributes"]}
    assert span["name"] == "tools/call echo"
    assert attributes["mcp_inspector.era"] == {"stringValue": "auto"}
    assert "mcp.protocol.version" not in attributes


def _shape(records: list[SpanRecord]) -> list[tuple[Any, ...]]:
    """What a span says, with its parent by name and round (indices differ by source)."""
    by_index = {r.index: r for r in records}

    def who(r: SpanRecord | None) -> str | None:
        if r is None:
            return None
        return f"{r.name}#{r.attributes.get('mcp_inspector.round', 0)}"

    return [
        (
            who(r),
            r.kind,
            who(by_index.get(r.parent)) if r.parent is not None else None,
            r.start,
            r.end,
            r.error,
            {k: v for k, v in r.attributes.items() if k != "mcp_inspector.session.file"},
        )
        for r in records
    ]


def test_the_rounds_of_an_mrtr_operation_are_children_of_one_span(tmp_path: Path) -> None:
    """A call answered input_required and retried: one parent span for the whole operation,
    its rounds as children, the user's waits between them as spans of their own."""
    records = session_spans(read_session(write_mrtr_session(tmp_path / "m.jsonl")))
    parents = [r for r in records if "mcp_inspector.operation.rounds" in r.attributes]
    assert [p.name for p in parents] == ["tools/call ask_user", "tools/call ask_llm"]
    user = parents[0]
    assert user.parent is None and user.duration == pytest.approx(6.5)
    assert user.attributes["mcp_inspector.operation.rounds"] == 3
    assert user.attributes["mcp_inspector.operation.server_time"] == pytest.approx(1.5)
    assert user.attributes["mcp_inspector.operation.user_time"] == pytest.approx(5.0)
    assert "jsonrpc.request.id" not in user.attributes
    children = [r for r in records if r.parent == user.index]
    assert [(c.name, c.kind, round(c.duration, 3)) for c in children] == [
        ("tools/call ask_user", "client", 0.5),
        ("user input ask_user", "internal", 4.0),
        ("tools/call ask_user", "client", 0.5),
        ("user input ask_user", "internal", 1.0),
        ("tools/call ask_user", "client", 0.5),
    ]
    assert [c.attributes.get("jsonrpc.request.id") for c in children[::2]] == ["1", "3", "4"]
    assert children[1].attributes["mcp_inspector.input.keys"] == "user"
    # every parent comes before its children (the SDK needs the parent's context first)
    seen: set[int] = set()
    for record in records:
        assert record.parent is None or record.parent in seen
        seen.add(record.index)
    # the unrelated echo between the rounds stays a trace of its own
    (echo,) = [r for r in records if r.name == "tools/call echo"]
    assert echo.parent is None


def test_a_live_traffic_log_maps_to_the_same_spans_as_its_file(tmp_path: Path) -> None:
    """The live adapter: a TrafficLog holding the same frames gives the same spans."""
    path = write_mrtr_session(tmp_path / "m.jsonl")
    recorded = read_session(path)
    traffic = load_offline(recorded).traffic
    live = live_session(traffic, recorded.header, name="live")
    assert _shape(session_spans(live)) == _shape(session_spans(recorded))
    assert live.path.name == "live"
