"""Record with `cli --record`, then `replay`, against real peers: server-everything (npm),
the mcp 2.x SDK peer and a drifted copy of it, and the bundled demo server."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from inspector.recording.format import FORMAT_NAME, FORMAT_VERSION, REDACTED
from inspector.recording.reader import read_session
from inspector.recording.replay import extract_answers, extract_calls
from tests.helpers.peers import PY, REPO, demo_command

pytestmark = pytest.mark.timeout(60)

SDK_PEER = str(REPO / "tests" / "servers" / "sdk" / "sdk_server.py")
SDK_DRIFTED = str(REPO / "tests" / "servers" / "sdk" / "sdk_server_drifted.py")
DEMO = demo_command()
SAMPLING_ANSWER = {
    "role": "assistant",
    "content": {"type": "text", "text": "Because it is 42."},
    "model": "recorded-model",
    "stopReason": "endTurn",
}


def inspector(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [PY, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=REPO,
    )


def record(path: Path, *args: str, server: list[str]) -> dict[str, Any]:
    proc = inspector("cli", "--record", str(path), "--compact", *args, "--", *server)
    assert proc.returncode == 0, proc.stderr
    assert f"to {path}" in proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def replay(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return inspector("replay", str(path), *args)


# ---------------------------------------------------------- server-everything


def test_round_trip_against_server_everything_then_drift_against_the_demo(
    tmp_path: Path, everything_command: list[str]
) -> None:
    path = tmp_path / "s.jsonl"
    result = record(
        path,
        "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi",
        server=everything_command,
    )  # fmt: skip
    assert result["content"][0]["text"] == "Echo: hi"

    session = read_session(path)
    assert session.header["format"] == FORMAT_NAME
    assert session.header["version"] == FORMAT_VERSION
    assert session.connection["command"] == everything_command[0]
    assert session.connection["args"] == everything_command[1:]
    assert session.ready is not None
    assert session.ready["server_info"]["name"] == "mcp-servers/everything"
    assert any(e.type == "stderr" for e in session.events)
    calls = extract_calls(session)
    # cli lists the tools first (every page) to check the result against the tool's
    # outputSchema, as the SDK clients do: the recording holds what was sent.
    assert [(c.method, c.params) for c in calls if c.method != "tools/list"] == [
        ("tools/call", {"name": "echo", "arguments": {"message": "hi"}})
    ]
    assert calls[0].method == "tools/list"

    same = replay(path, "--", *everything_command)
    assert same.returncode == 0, same.stdout + same.stderr
    assert f"{len(calls)} same, 0 drifted" in same.stdout
    assert same.stdout.rstrip().endswith("no drift")

    # The demo server's echo answers "hi", not "Echo: hi"; its serverInfo differs too.
    report = tmp_path / "report.json"
    drift = replay(path, "--report", str(report), "--", *DEMO)
    assert drift.returncode == 1, drift.stdout + drift.stderr
    assert '~ /content/0/text: "Echo: hi" → "hi"' in drift.stdout
    assert "handshake (capabilities / serverInfo) drifted" in drift.stdout
    assert drift.stdout.rstrip().endswith("DRIFT")
    data = json.loads(report.read_text())
    assert data["drifted"] is True
    (call,) = [c for c in data["calls"] if c["method"] == "tools/call"]
    assert call["status"] == "drift"
    assert {"path": "/content/0/text", "kind": "changed", "old": "Echo: hi", "new": "hi"} in call[
        "changes"
    ]


# ------------------------------------------------------------ the mcp 2.x SDK


def test_replay_against_a_drifted_sdk_server_names_the_field_and_the_removed_tool(
    tmp_path: Path,
) -> None:
    pytest.importorskip("mcp", reason="the mcp SDK is a test dependency")
    peer, drifted = [PY, SDK_PEER], [PY, SDK_DRIFTED]
    echo = tmp_path / "echo.jsonl"
    record(
        echo, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=hi", server=peer
    )
    tools = tmp_path / "tools.jsonl"
    listed = record(tools, "--method", "tools/list", server=peer)
    assert "fail" in {t["name"] for t in listed["tools"]}

    assert replay(echo, "--", *peer).returncode == 0

    proc = replay(echo, "--", *drifted)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    # The tools/list cli sent before the call (to know its outputSchema) drifted too.
    assert "#2 tools/call echo: drift" in proc.stdout
    assert "#1 tools/list: drift" in proc.stdout
    assert '~ /content/0/text: "hi" → "echo: hi"' in proc.stdout
    assert '~ /structuredContent/result: "hi" → "echo: hi"' in proc.stdout

    report = tmp_path / "tools-report.json"
    proc = replay(tools, "--report", str(report), "--", *drifted)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "- /tools/name=fail: " in proc.stdout
    (call,) = json.loads(report.read_text())["calls"]
    # Precisely: the one removed tool; echo moved in the list, which is not drift.
    assert [(c["path"], c["kind"]) for c in call["changes"]] == [("/tools/name=fail", "removed")]

    # A user-defined ignore path silences a known change (the catalog's too: the echo
    # recording holds the tools/list cli sent to know echo's outputSchema).
    proc = replay(echo, "--ignore", "/content/*/text", "--ignore", "/structuredContent",
                  "--ignore", "/tools/name=fail", "--", *drifted)  # fmt: skip
    assert proc.returncode == 0, proc.stdout


# ---------------------------------------------------------- recorded answers


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_recorded_sampling_answer_is_replayed_without_asking(tmp_path: Path, era: str) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"sampling": SAMPLING_ANSWER}))
    path = tmp_path / f"{era}.jsonl"
    result = record(
        path, "--era", era, "--answers", str(answers),
        "--method", "tools/call", "--tool-name", "ask_llm", "--tool-arg", "question=why?",
        server=DEMO,
    )  # fmt: skip
    assert "Because it is 42." in result["content"][0]["text"]

    session = read_session(path)
    assert session.era == era
    (answer,) = extract_answers(session)
    assert answer.method == "sampling/createMessage" and answer.result == SAMPLING_ANSWER
    assert any(e.type == "action" and "answered sampling" in e.data["text"] for e in session.events)
    if era == "modern":  # MRTR: the answer rode in the retry's inputResponses
        raws = [e.raw for e in session.frames() if isinstance(e.raw, str)]
        assert any('"inputRequests"' in r for r in raws)
        assert any('"inputResponses"' in r for r in raws)
        # The retry is the same request, not a second one.
        calls = [c.method for c in extract_calls(session)]
        assert calls.count("tools/call") == 1, calls

    report = tmp_path / "report.json"
    # No --answers now: without the recorded answer, the sampling would be declined.
    proc = replay(path, "--report", str(report), "--", *DEMO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 recorded answer(s) reused" in proc.stdout
    data = json.loads(report.read_text())
    assert data["answers_used"] >= 1
    assert data["answers_missing"] == 0
    assert {c["status"] for c in data["calls"]} == {"same"}


# ---------------------------------------------------------------- safety


def _crafted_session(tmp_path: Path, marker: Path) -> Path:
    """A session file from elsewhere whose recorded command would create `marker`."""
    header = {
        "type": "header",
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "app_version": "0.1.0",
        "created": "2026-01-01T00:00:00.000+00:00",
        "connection": {
            "transport": "stdio",
            "command": "sh",
            "args": ["-c", f"touch {marker}"],
            "env": {},
            "cwd": None,
        },
        "era": "legacy",
        "protocol_version": "2025-11-25",
        "client_info": {"name": "x"},
        "client_capabilities": {},
    }
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    lines = [
        header,
        {"type": "frame", "t": 0.1, "wall": 1.0, "transport": "stdio", "dir": "out",
         "kind": "request", "text": json.dumps(ping)},
        {"type": "frame", "t": 0.2, "wall": 1.1, "transport": "stdio", "dir": "in",
         "kind": "response", "text": '{"jsonrpc":"2.0","id":2,"result":{}}'},
    ]  # fmt: skip
    path = tmp_path / "crafted.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_recorded_command_never_runs_without_use_recorded_command(tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    path = _crafted_session(tmp_path, marker)

    proc = replay(path)
    assert proc.returncode == 2
    assert "--use-recorded-command" in proc.stderr
    assert not marker.exists()

    # A command after -- replaces the recorded one: the ping is replayed on the demo server.
    proc = replay(path, "--", *DEMO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "#1 ping" in proc.stderr or "1 same" in proc.stdout
    assert not marker.exists()

    # Only the explicit flag runs it (sh exits at once: it could not connect, exit 3).
    proc = replay(path, "--use-recorded-command", "--timeout", "5")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert marker.exists()


def test_a_secret_env_value_is_redacted_and_not_replayed(tmp_path: Path) -> None:
    secret = "sup3r-s3cret-env-VALUE"
    path = tmp_path / "env.jsonl"
    record(
        path, "--env", f"API_TOKEN={secret}", "--env", "GREETING=hello",
        "--method", "tools/list", server=DEMO,
    )  # fmt: skip
    data = path.read_bytes()
    assert secret.encode() not in data
    assert REDACTED.encode() in data
    env = read_session(path).connection["env"]
    assert env == {"API_TOKEN": REDACTED, "GREETING": "hello"}

    proc = replay(path, "--use-recorded-command")
    assert proc.returncode == 2
    assert "API_TOKEN" in proc.stderr and "not recorded" in proc.stderr


def test_replay_does_not_hide_what_the_server_broke(tmp_path: Path) -> None:
    """Like `cli`, `replay` reports a non-JSON line on stdout (a start-up banner) on stderr;
    it said nothing: the replay was 'same' with no sign of the line that breaks hosts."""
    session = tmp_path / "s.jsonl"
    record(session, "--method", "tools/call", "--tool-name", "echo",
           "--tool-arg", "message=hi", server=DEMO)  # fmt: skip
    bannered = f"echo 'demo v1 starting (banner on stdout)'; exec {PY} -m inspector.demo"
    proc = replay(session, "--", "sh", "-c", bannered)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "warning: invalid frame from the server" in proc.stderr
    assert "demo v1 starting" in proc.stderr
