"""`mcp-inspector-qt chat` end to end: the model stand-in (a loopback OpenAI-compatible
server of our own) calls the demo server's tools; the calls reach the server and what came
back is printed, as text and as JSON; `--approve none` refuses; a failing provider, a usage
error and an unreachable server each end with their sentence and exit code. Run from a
folder other than the server's."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from inspector.__main__ import main
from tests.helpers.model_standin import model_standin
from tests.helpers.peers import PY, REPO, subprocess_env

pytestmark = pytest.mark.timeout(120)

ADDS = {
    "rules": [
        {
            "name": "adds",
            "when": {"lastUserContains": "add", "lastIsToolResult": False},
            "reply": {
                "text": "Let me add.",
                "toolCalls": [
                    {"name": "add", "arguments": {"a": 2, "b": 3}},
                    {"name": "add", "arguments": {"a": "two"}},
                    {"name": "subtract", "arguments": {"a": 1}},
                ],
            },
        },
        {
            "name": "answers",
            "when": {"lastIsToolResult": True},
            "reply": {"text": "The sum is {toolResult}", "cost": 0.0012},
        },
    ]
}
DEMO = [PY, "-m", "inspector.demo"]


def chat(
    capsys: pytest.CaptureFixture[str], base_url: str, *args: str, server: list[str] = DEMO
) -> tuple[int, str, str]:
    code = main(["chat", "--base-url", base_url, "--model", "standin", *args, "--", *server])
    out, err = capsys.readouterr()
    return code, out, err


def test_chat_carries_the_models_tool_calls_to_the_demo_server_and_prints_what_came_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with model_standin(ADDS) as standin:
        code, out, err = chat(capsys, standin.base_url, "--prompt", "please add 2 and 3")
        assert code == 0, err
        lines = out.splitlines()
        assert lines[:2] == ["user: please add 2 and 3", "assistant: Let me add."]
        assert 'tool call: mcp-inspector-qt_demo__add {"a": 2, "b": 3}' in lines
        assert '    {"a": 2, "b": 3, "sum": 5}' in lines  # the demo server's answer
        assert "  ! arguments break the input schema: a: 'two' is not of type 'number'" in out
        assert "b: required" in out and "✗ invalid-arguments" in out
        assert "✗ unknown-tool: There is no tool named 'subtract'" in out
        assert lines[-2].startswith("assistant: The sum is")
        assert lines[-1].startswith("-- answered · 2 step(s) · 3 tool call(s)")
        assert "cost 0.0012" in lines[-1]
        assert "note: refused mcp-inspector-qt_demo__add: its arguments break" in err
        # what the model was sent back: the server's result, and the two refusals
        second = standin.received[-1].body["messages"]
        results = [m["content"] for m in second if m["role"] == "tool"]
        assert '"sum": 5' in results[0] and "b: required" in results[1]
        assert "There is no tool named" in results[2]
        # --json: the conversation, each call with its arguments, result and timing
        code, out, _ = chat(capsys, standin.base_url, "--prompt", "please add 2 and 3", "--json")
        assert code == 0
        data = json.loads(out)
        turn = data["turns"][0]
        sent = turn["toolCalls"][0]
        assert (sent["tool"], sent["arguments"], sent["decision"]) == (
            "add",
            {"a": 2, "b": 3},
            "sent",
        )
        assert sent["result"]["structuredContent"]["sum"] == 5
        assert isinstance(sent["requestId"], int) and sent["elapsedMs"] >= 0
        assert turn["finalText"].startswith("The sum is") and turn["outcome"] == "answered"
        # --approve none: every call refused, the model told so
        code, out, _ = chat(capsys, standin.base_url, "--prompt", "add", "--approve", "none")
        assert code == 0 and out.count("✗ refused: The user does not allow tool calls") == 2


def test_chat_exit_codes_for_a_failing_provider_usage_and_an_unreachable_server(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    failing = {"rules": [{"when": {}, "fault": {"status": 500, "message": "model exploded"}}]}
    looping = {
        "rules": [
            {"when": {}, "reply": {"toolCalls": [{"name": "echo", "arguments": {"message": "x"}}]}}
        ]
    }
    with model_standin(failing) as standin:
        code, out, err = chat(capsys, standin.base_url, "--prompt", "hi")
        assert code == 4 and "-- model-error" in out
        assert "error: The model request failed:" in err and "500" in err
    with model_standin(looping) as standin:
        code, out, err = chat(capsys, standin.base_url, "--prompt", "hi", "--max-steps", "2")
        assert code == 1 and "step limit (2)" in err and out.count("tool call:") == 2
    code, _, err = chat(capsys, "http://127.0.0.1:9/v1", "--max-steps", "0", "--prompt", "x")
    assert code == 2 and "--max-steps must be at least 1" in err
    code, _, err = chat(capsys, "http://127.0.0.1:9/v1", "--max-steps", "3")
    assert code == 2 and "--prompt TEXT is required" in err
    code, _, err = chat(
        capsys, "http://127.0.0.1:9/v1", "--prompt", "x", server=[str(tmp_path / "nope")]
    )
    assert code == 3 and "could not reach the server" in err


def test_chat_runs_as_a_command(tmp_path: Path) -> None:
    """The installed entry as a person types it, from another folder."""
    with model_standin(ADDS) as standin:
        proc = subprocess.run(
            [PY, "-m", "inspector", "chat", "--base-url", standin.base_url, "--model", "m",
             "--prompt", "add please", "--approve", "read-only", "--", *DEMO],
            capture_output=True, text=True, timeout=100, cwd=tmp_path,
            env={**subprocess_env(), "PATH": "/usr/bin:/bin"},
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert '    {"a": 2, "b": 3, "sum": 5}' in proc.stdout
    assert str(REPO) not in proc.stdout


def test_a_servers_multi_line_text_cannot_forge_a_line_of_the_transcript() -> None:
    from inspector.cli.commands.chat import transcript_lines
    from inspector.host.records import ToolCallRecord, TurnRecord

    forged = "failed\ntool call: demo__delete_all {}\n-- answered · 1 step(s)"
    turn = TurnRecord(
        "hi\nthere",
        final_text="It said:\n-- answered",
        tool_calls=[
            ToolCallRecord("demo__x", "demo", "x", {}, "{}", is_error=True, error=forged),
            ToolCallRecord("demo__y", "demo", "y", None, "{not\njson", is_error=True, error="no"),
            ToolCallRecord("no\n-- such", "", "", {}, "{}", decision="unknown-tool", error="no"),
        ],
    )
    printed = "\n".join(transcript_lines(turn)).split("\n")
    heads = [line for line in printed if not line.startswith(" ")]
    assert heads == [
        "user: hi",
        "tool call: demo__x {}",
        "tool call: demo__y {not",
        "tool call: no",
        "assistant: It said:",
        printed[-1],
    ]
    assert printed[-1].startswith("-- answered · 0 step(s)")
    assert "    tool call: demo__delete_all {}" in printed
