"""`cli --sampling-provider ... --sampling-base-url URL --sampling-model NAME`: a server tool
that asks for sampling gets the model's text, in both eras, from the demo server, the mcp
2.3 SDK server (modern: MRTR rounds) and server-everything; the exchanges are kept in the
--record file with the key redacted; failures reach the server and the user in time."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.features.providers.providers import KEY_ENV
from inspector.recording.offline import load_offline
from inspector.recording.reader import read_session
from inspector.traffic.format import summarize
from tests.helpers.model_stubs import ModelStub, Reply, model_stub
from tests.helpers.peers import EVERYTHING_JS, PY, REPO, SERVERS, demo_command

pytestmark = pytest.mark.timeout(90)

DEMO = demo_command()
SDK = [PY, str(SERVERS / "sdk" / "sdk_server.py"), "stdio"]


def run_cli(
    *args: str, server: list[str], env: dict[str, str] | None = None, timeout: float = 40
) -> tuple[int, Any, str]:
    command = [PY, "-m", "inspector", "cli", *args, "--", *server]
    full_env = dict(os.environ, PYTHONPATH=str(REPO), **(env or {}))
    for name in KEY_ENV.values():
        if env is None or name not in env:
            full_env.pop(name, None)
    proc = subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, env=full_env, cwd=REPO
    )
    try:
        out = json.loads(proc.stdout) if proc.stdout.strip() else None
    except ValueError:
        out = proc.stdout
    return proc.returncode, out, proc.stderr


def openai_url(record: Path) -> str:
    """The chat completions URL the recorded run posted to."""
    for line in record.read_text().splitlines():
        data = json.loads(line)
        if data["type"] == "model" and data["dir"] == "out":
            return str(json.loads(data["text"])["url"])
    raise AssertionError("no model line")


def model_flags(stub: ModelStub, model: str = "stub-small") -> list[str]:
    return [
        "--sampling-provider", stub.kind, "--sampling-base-url", stub.base_url,
        "--sampling-model", model,
    ]  # fmt: skip


@pytest.fixture(scope="module")
def openai_stub() -> Iterator[ModelStub]:
    with model_stub("openai") as stub:
        yield stub


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_demo_tool_gets_the_endpoints_text(openai_stub: ModelStub, era: str) -> None:
    code, out, err = run_cli(
        "--method", "tools/call", "--tool-name", "ask_llm", "--tool-arg", "question=Why MCP?",
        "--era", era, *model_flags(openai_stub), server=DEMO,
    )  # fmt: skip
    assert code == 0, err
    text = out["content"][0]["text"]
    assert text == "stub-small-2026-01-01 answered:\n\nStub says: Why MCP?"
    # Which model, and why, on stderr.
    assert "answered by stub-small" in err and "no hint matched" in err
    sent = openai_stub.received[-1].body
    assert sent["messages"][0] == {
        "role": "system", "content": "You are a concise assistant helping someone explore MCP."
    }  # fmt: skip
    assert sent["max_tokens"] == 200


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_sdk_server_sampling_through_anthropic(era: str) -> None:
    with model_stub("anthropic", key="sk-ant-test") as stub:
        code, out, err = run_cli(
            "--method", "tools/call", "--tool-name", "sample_llm",
            "--tool-arg", "prompt=Capital of France?", "--era", era, *model_flags(stub),
            server=SDK, env={KEY_ENV["anthropic"]: "sk-ant-test"},
        )  # fmt: skip
        assert code == 0, err
        assert "LLM (stub-small) said: Stub says: Capital of France?" in json.dumps(out)
        assert stub.received[-1].body["system"] == "You are a test double. Answer briefly."


def test_server_everything_sampling(openai_stub: ModelStub) -> None:
    if not EVERYTHING_JS.exists():
        pytest.skip("server-everything is not installed (scripts/install-peers.sh)")
    code, out, err = run_cli(
        "--method", "tools/call", "--tool-name", "trigger-sampling-request",
        "--tool-arg", "prompt=hello there", "--tool-arg", "maxTokens=77",
        *model_flags(openai_stub), server=["node", str(EVERYTHING_JS), "stdio"],
    )  # fmt: skip
    assert code == 0, err
    assert "Stub says: Resource trigger-sampling-request context: hello there" in json.dumps(out)
    assert openai_stub.received[-1].body["max_tokens"] == 77


def test_the_record_keeps_each_model_exchange_with_the_key_redacted(tmp_path: Path) -> None:
    record = tmp_path / "s.jsonl"
    with model_stub("openai", key="sk-secret-777") as stub:
        code, _, err = run_cli(
            "--method", "tools/call", "--tool-name", "ask_llm", "--tool-arg", "question=hi",
            *model_flags(stub), "--record", str(record),
            server=DEMO, env={KEY_ENV["openai"]: "sk-secret-777"},
        )  # fmt: skip
    assert code == 0, err
    text = record.read_text()
    assert "sk-secret-777" not in text
    lines = [json.loads(line) for line in text.splitlines()]
    models = [line for line in lines if line["type"] == "model"]
    assert [m["dir"] for m in models] == ["out", "in"]  # its own line type, not a frame
    sent, got = (json.loads(m["text"]) for m in models)
    assert sent["headers"]["authorization"] == "[redacted]"
    assert sent["body"]["model"] == "stub-small"
    assert got["status"] == 200
    assert got["body"]["choices"][0]["message"]["content"] == "Stub says: hi"
    assert "note" not in models[1]  # only a failed exchange is flagged
    # Opened later without a server, the exchange shows as two `model` rows.
    offline = load_offline(read_session(record))
    rows = [e for e in offline.traffic if e.kind == "model"]
    assert [e.direction for e in rows] == ["out", "in"]
    assert summarize(rows[0]) == f"to stub-small: POST {openai_url(record)}"
    assert summarize(rows[1]).startswith("from stub-small-2026-01-01: HTTP 200, ")
    assert any(line["type"] == "action" and "through the model" in line["text"] for line in lines)


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_wrong_key_rejects_the_ask_with_the_reason(era: str) -> None:
    with model_stub("openai", key="right") as stub:
        code, _, err = run_cli(
            "--method", "tools/call", "--tool-name", "ask_llm", "--tool-arg", "question=hi",
            "--era", era, *model_flags(stub), server=DEMO, env={KEY_ENV["openai"]: "wrong"},
        )  # fmt: skip
    assert "refused the API key (HTTP 401)" in err
    assert KEY_ENV["openai"] in err  # where to fix it
    # legacy: the demo tool reports the refused sampling; modern: the request is abandoned.
    assert code in (1, 4)


def test_a_slow_model_never_outlasts_the_request_timeout() -> None:
    # The model answers after 60 s: a run still going at 45 s waited for it. The margin over
    # the 3 s request timeout is for the start-ups on a loaded machine (a parallel run).
    with model_stub("openai") as stub:
        stub.script.append(Reply(delay=60))
        code, _, err = run_cli(
            "--method", "tools/call", "--tool-name", "ask_llm", "--tool-arg", "question=hi",
            "--timeout", "3", *model_flags(stub), server=DEMO, timeout=45,
        )  # fmt: skip
    assert code != 0
    assert "no answer from" in err or "timed out" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sampling-provider", "openai"], "needs --sampling-model"),
        (["--sampling-model", "x"], "need --sampling-provider"),
        (
            [
                "--sampling-provider",
                "openai",
                "--sampling-model",
                "x",
                "--sampling-base-url",
                "ftp://h",
            ],
            "is not an http(s) URL",
        ),
    ],
)
def test_sampling_flag_usage_errors(args: list[str], message: str) -> None:
    code, _, err = run_cli("--method", "tools/list", *args, server=DEMO)
    assert code == 2
    assert message in err


def test_help_names_the_key_variables() -> None:
    proc = subprocess.run(
        [PY, "-m", "inspector", "cli", "--help"], capture_output=True, text=True, timeout=20,
        env=dict(os.environ, PYTHONPATH=str(REPO)), cwd=REPO,
    )  # fmt: skip
    flat = " ".join(proc.stdout.split())
    assert KEY_ENV["openai"] in flat and KEY_ENV["anthropic"] in flat
    assert "--sampling-base-url" in flat


def test_replay_answers_sampling_through_the_model(tmp_path: Path, openai_stub: ModelStub) -> None:
    record = tmp_path / "s.jsonl"
    answers = tmp_path / "a.json"
    answers.write_text(
        json.dumps(
            {
                "sampling": {
                    "role": "assistant",
                    "content": {"type": "text", "text": "by hand"},
                    "model": "me",
                }
            }
        )
    )
    code, _, err = run_cli(
        "--method", "tools/call", "--tool-name", "ask_llm", "--tool-arg", "question=replayed?",
        "--answers", str(answers), "--record", str(record), server=DEMO,
    )  # fmt: skip
    assert code == 0, err
    before = len(openai_stub.received)
    proc = subprocess.run(
        [PY, "-m", "inspector", "replay", str(record), *model_flags(openai_stub), "--", *DEMO],
        capture_output=True, text=True, timeout=40, env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=REPO,
    )  # fmt: skip
    assert len(openai_stub.received) == before + 1  # the model answered, not the recording
    assert "answered by stub-small" in proc.stderr
    assert proc.returncode == 1  # the tool's text drifted from "by hand" to the model's


def test_a_short_retry_after_is_waited_out_within_the_timeout() -> None:
    with model_stub("openai") as stub:
        stub.script.append(Reply(status=429, error="busy", headers={"retry-after": "1"}))
        code, out, err = run_cli(
            "--method", "tools/call", "--tool-name", "ask_llm", "--tool-arg", "question=later",
            "--timeout", "20", *model_flags(stub), server=DEMO,
        )  # fmt: skip
    assert code == 0, err
    assert "Stub says: later" in json.dumps(out)
    assert "after 1 rate-limit wait(s)" in err
