"""Session files: what the writer puts in them, crash-safety, and files that are not right
(truncated, garbage, a newer version, empty), through read_session and `replay`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from inspector.recording.format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    REDACTED,
    Redactor,
    connection_summary,
    header_line,
    url_secrets,
)
from inspector.recording.reader import SessionFileError, read_session
from inspector.recording.writer import SessionRecorder
from inspector.traffic.record import TrafficRecord
from inspector.transports.base import HttpExchange
from tests.helpers.peers import PY, REPO
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.timeout(60)


def _header(**connection: object) -> dict[str, object]:
    conn = connection_summary(transport="stdio", command="srv", args=["--x"], **connection)  # type: ignore[arg-type]
    return header_line(
        conn, era="legacy", client_info={"name": "t"}, client_capabilities={}, protocol_version="v"
    )


def _record(raw: str | bytes, direction: str = "in", kind: str = "response", **kw: object):  # type: ignore[no-untyped-def]
    return TrafficRecord(direction, kind, raw, time.monotonic(), time.time(), "stdio", **kw)  # type: ignore[arg-type]


def run_replay(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [PY, "-m", "inspector", "replay", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=REPO,
    )


# ------------------------------------------------------------------ the writer


def test_frames_keep_their_raw_text_and_invalid_utf8_as_base64(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    recorder = SessionRecorder(path, _header())
    recorder.start()
    text = '{"jsonrpc":"2.0","id":1,"result":{"é":"ü"}}'
    recorder.observe(_record(text))
    recorder.observe(_record(b"\xff\xfe not utf-8 \x00", kind="invalid", note="not UTF-8"))
    recorder.observe(_record("Traceback: boom", direction="", kind="stderr"))
    recorder.action("answered sampling request 7 by hand", ask=7)
    recorder.close()
    assert recorder.lines_written == 5 and recorder.error is None

    session = read_session(path)
    assert session.problems == []
    assert session.header["format"] == FORMAT_NAME
    assert session.header["version"] == FORMAT_VERSION
    frame, invalid, stderr, action = session.events
    assert frame.type == "frame" and frame.raw == text and frame.direction == "in"
    assert invalid.raw == b"\xff\xfe not utf-8 \x00"
    assert invalid.data["invalid_utf8"] is True and invalid.kind == "invalid"
    assert invalid.data["note"] == "not UTF-8"
    assert stderr.type == "stderr" and stderr.raw == "Traceback: boom"
    assert action.type == "action" and action.data["data"] == {"ask": 7}
    assert 0 <= frame.t <= invalid.t


def test_http_exchanges_are_numbered_and_linked_to_the_frames_they_carried(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.jsonl"
    recorder = SessionRecorder(path, _header())
    recorder.start()
    first = HttpExchange("POST", "http://h/mcp", 200, content_type="text/event-stream")
    second = HttpExchange("POST", "http://h/mcp", 200, content_type="text/event-stream")
    for exchange in (first, second):
        recorder.observe(
            TrafficRecord("", "http", "POST", time.monotonic(), time.time(), "http", http=exchange)
        )
    recorder.observe(_record('{"id":2,"result":{}}', http=second, sse_event_id="e1"))
    recorder.observe(_record('{"id":1,"result":{}}', http=first))
    recorder.close()
    lines = read_session(path).events
    assert [e.data.get("xid") for e in lines[:2]] == [1, 2]
    assert lines[2].data["via"] == {
        "method": "POST",
        "url": "http://h/mcp",
        "status": 200,
        "xid": 2,
    }
    assert lines[2].data["sse_id"] == "e1"
    assert lines[3].data["via"]["xid"] == 1


def test_redaction_covers_escaped_forms_keys_and_bytes_without_breaking_json(
    tmp_path: Path,
) -> None:
    secret = 'pa"ss wörd-1234'
    path = tmp_path / "s.jsonl"
    recorder = SessionRecorder(
        path, _header(env={"API_TOKEN": secret, "MODE": "x"}), redactor=Redactor([secret, "1234"])
    )
    recorder.start()
    recorder.observe(_record(json.dumps({"echo": secret, secret: 1, "n": 1234})))  # \" and \u00f6
    recorder.observe(_record(json.dumps({"echo": secret}, ensure_ascii=False)))
    recorder.observe(_record(b"\xff" + secret.encode() + b"\xfe", kind="invalid"))
    recorder.close()
    data = path.read_bytes()
    for form in (secret, json.dumps(secret)[1:-1], json.dumps(json.dumps(secret)[1:-1])[1:-1]):
        assert form.encode() not in data
    assert REDACTED.encode() in data
    session = read_session(path)  # every line is still JSON
    assert session.problems == []
    assert session.header["connection"]["env"] == {"API_TOKEN": REDACTED, "MODE": "x"}
    # The line's own numbers are values, not text: a secret made of digits leaves them be
    # (inside a raw frame it is replaced like any text: the secret matters more).
    assert all(isinstance(e.data["wall"], float) for e in session.events)
    assert "1234" not in session.events[0].raw
    assert session.events[2].raw == b"\xff" + REDACTED.encode() + b"\xfe"


def test_url_secrets_are_found_and_the_recorded_url_is_redacted() -> None:
    url = "https://user:hunter2-pw@example.com/mcp?api_key=k%2Fsecret-value&page=2"
    secrets = url_secrets(url)
    assert {"hunter2-pw", "k/secret-value", "k%2Fsecret-value"} <= set(secrets)
    conn = connection_summary(transport="http", url=url, headers={"Authorization": "x"})
    assert "hunter2" not in conn["url"] and "secret-value" not in conn["url"]
    assert conn["url"].endswith("page=2")
    assert conn["header_names"] == ["Authorization"]


def test_an_unwritable_path_fails_at_start_and_a_dead_writer_never_blocks(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(OSError):
        SessionRecorder(blocker / "s.jsonl", _header()).start()
    recorder = SessionRecorder(tmp_path / "s.jsonl", _header(), queue_size=2)
    recorder.start()
    recorder.error = "disk full (simulated)"
    for _ in range(10):  # the queue is tiny; a failed writer must not make observe() wait
        recorder.observe(_record("{}"))
    recorder.close(timeout=2)


# --------------------------------------------------------------- crash-safety

CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from inspector.protocol.machine.connection import ClientConfig
    from inspector.recording.format import connection_summary, header_line
    from inspector.recording.writer import SessionRecorder
    from inspector.session import Session
    from inspector.transports.stdio import StdioParams, StdioTransport

    async def main(path):
        command = [sys.executable, "-m", "inspector.demo"]
        transport = StdioTransport(StdioParams(command[0], command[1:]))
        session = Session(transport, ClientConfig())
        conn = connection_summary(transport="stdio", command=command[0], args=command[1:])
        header = header_line(conn, era="legacy", client_info={}, client_capabilities={})
        recorder = SessionRecorder(path, header)
        recorder.start()
        session.add_traffic_observer(recorder.observe)
        ready = await session.connect(timeout=20)
        recorder.ready(ready)
        n = 0
        while True:
            n += 1
            await session.client.call_tool("add", {"a": n, "b": 1})
            print(f"call {n}", flush=True)

    asyncio.run(main(sys.argv[1]))
    """
)


def test_a_killed_recorder_leaves_a_readable_file_up_to_the_kill(tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    path = tmp_path / "crash.jsonl"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [PY, str(script), str(path)], stdout=subprocess.PIPE, text=True, env=env, cwd=REPO
    )
    assert proc.stdout is not None
    try:
        done = 0
        deadline = time.monotonic() + 30
        while done < 20 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            done = int(line.split()[1])
        assert done >= 20, "the child did not get going"
        # The writer flushes each batch at once: the reported calls reach the file.
        wait_until(
            lambda: path.read_text("utf-8", "replace").count("structuredContent") >= done,
            "the reported calls in the file",
            10,
        )
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL

    session = read_session(path)
    assert session.ready is not None
    sums = [
        msg["result"]["structuredContent"]["sum"]
        for e in session.frames()
        if e.direction == "in"
        and "result" in (msg := json.loads(e.raw))
        and "structuredContent" in msg["result"]
    ]
    # Everything up to the kill: at least every call the child reported as done.
    assert sums[:done] == [n + 1 for n in range(1, done + 1)]
    assert all("incomplete" in p for p in session.problems)

    # Cut the file inside its last line, as a kill during a write would: still readable.
    data = path.read_bytes()
    cut = tmp_path / "cut.jsonl"
    offset = data.rstrip(b"\n").rfind(b"\n") + 1
    cut.write_bytes(data[: offset + 29])
    truncated = read_session(cut)
    assert len(truncated.events) == len(session.events) - 1
    assert truncated.problems == [
        f"line {len(session.events) + 1} (byte offset {offset:,}) is incomplete (the recording "
        "was cut off, e.g. by a crash); everything before it was read"
    ]


def test_killing_the_cli_mid_call_keeps_the_session_up_to_the_kill(tmp_path: Path) -> None:
    path = tmp_path / "cli.jsonl"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [PY, "-m", "inspector", "cli", "--record", str(path), "--method", "tools/call",
         "--tool-name", "slow_count", "--tool-arg", "steps=50", "--tool-arg", "delay_ms=100",
         "--", PY, "-m", "inspector.demo"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=REPO,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and proc.poll() is None:
            lines = path.read_bytes().splitlines() if path.exists() else []
            if sum(b"notifications/progress" in line for line in lines) >= 3:
                break
            time.sleep(0.05)
        else:
            pytest.fail("no progress was recorded")
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    session = read_session(path)
    assert session.ready is not None
    sent = [json.loads(e.raw) for e in session.frames() if e.direction == "out"]
    assert any(m.get("method") == "tools/call" for m in sent)
    progress = [e for e in session.frames() if "notifications/progress" in str(e.raw)]
    assert len(progress) >= 3
    assert not any("result" in json.loads(e.raw) for e in session.frames()[-3:])  # mid-call
    assert all("incomplete" in p for p in session.problems)


# ------------------------------------------------------------------ bad files


def _valid_file(tmp_path: Path) -> Path:
    path = tmp_path / "ok.jsonl"
    recorder = SessionRecorder(path, _header())
    recorder.start()
    recorder.observe(_record('{"jsonrpc":"2.0","id":1,"result":{}}'))
    recorder.observe(_record('{"jsonrpc":"2.0","method":"notifications/x"}', kind="notification"))
    recorder.close()
    return path


def _bad_file(tmp_path: Path, kind: str) -> tuple[Path, str]:
    path = tmp_path / f"{kind}.jsonl"
    good = _valid_file(tmp_path).read_bytes()
    if kind == "truncated":
        path.write_bytes(good[:-15])
        return path, "incomplete (the recording was cut off"
    if kind == "garbage":
        path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00 binary garbage \xff\n")
        return path, "is not an MCP Inspector session file"
    if kind == "other-json":
        path.write_text('{"hello": "world"}\n{"type": "frame"}\n')
        return path, "is not an MCP Inspector session file"
    if kind == "newer":
        header = json.loads(good.split(b"\n")[0])
        header.update(version=FORMAT_VERSION + 1, app_version="9.0.0")
        path.write_text(json.dumps(header) + "\n" + good.decode().split("\n", 1)[1])
        return path, "newer MCP Inspector"
    if kind == "empty":
        path.write_bytes(b"")
        return path, "is empty"
    if kind == "cut-header":
        path.write_bytes(good[:40])
        return path, "cut off inside its header line"
    raise AssertionError(kind)


def test_a_truncated_file_is_read_up_to_the_cut_with_a_problem(tmp_path: Path) -> None:
    path, message = _bad_file(tmp_path, "truncated")
    session = read_session(path)
    assert [e.kind for e in session.events] == ["response"]
    assert len(session.problems) == 1 and message in session.problems[0]
    assert "line 3" in session.problems[0]


def test_a_corrupt_line_in_the_middle_is_skipped_and_named(tmp_path: Path) -> None:
    good = _valid_file(tmp_path).read_bytes().split(b"\n")
    path = tmp_path / "mid.jsonl"
    path.write_bytes(b"\n".join([good[0], b"{oops", good[1], b"[1, 2]", good[2], b""]))
    session = read_session(path)
    assert len(session.events) == 2
    second = len(good[0]) + 1
    fourth = second + len(b"{oops") + 1 + len(good[1]) + 1
    assert session.problems == [
        f"line 2 (byte offset {second:,}) is not valid JSON (Expecting property name enclosed "
        "in double quotes: line 1 column 2 (char 1)); skipped",
        f"line 4 (byte offset {fourth:,}) is not an event object; skipped",
    ]


@pytest.mark.parametrize("kind", ["garbage", "other-json", "newer", "empty", "cut-header"])
def test_unreadable_files_say_why(tmp_path: Path, kind: str) -> None:
    path, message = _bad_file(tmp_path, kind)
    with pytest.raises(SessionFileError, match=message):
        read_session(path)
    if kind == "newer":
        with pytest.raises(SessionFileError, match=r"written in session format 2.*app 9\.0\.0"):
            read_session(path)


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(SessionFileError, match="cannot read"):
        read_session(tmp_path / "nope.jsonl")


def test_replay_of_bad_files_exits_2_with_the_message(tmp_path: Path) -> None:
    for kind in ("garbage", "newer", "empty", "cut-header"):
        path, message = _bad_file(tmp_path, kind)
        proc = run_replay(str(path), "--", PY, "-m", "inspector.demo")
        assert proc.returncode == 2, (kind, proc.stderr)
        assert message in proc.stderr, (kind, proc.stderr)
        assert proc.stdout == ""


def test_replay_of_a_truncated_file_replays_what_was_read_and_notes_the_cut(
    tmp_path: Path,
) -> None:
    path, message = _bad_file(tmp_path, "truncated")
    proc = run_replay(str(path), "--", PY, "-m", "inspector.demo")
    # The cut file holds no request of ours to re-send: nothing drifts, the cut is noted.
    assert proc.returncode == 0, proc.stderr
    assert message in proc.stdout
    assert "no drift" in proc.stdout
