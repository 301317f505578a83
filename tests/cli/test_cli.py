"""End-to-end tests of `mcp-inspector-qt cli`: every method and every exit code."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.peers import PY, REPO, demo_command

pytestmark = pytest.mark.timeout(60)


def run_cli(
    *args: str, server: list[str] | None = None, timeout: float = 30
) -> tuple[int, Any, str]:
    command = [PY, "-m", "inspector", "cli", *args]
    if server is not None:
        command += ["--", *server]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO
    )
    try:
        out = json.loads(proc.stdout) if proc.stdout.strip() else None
    except ValueError:
        out = proc.stdout
    return proc.returncode, out, proc.stderr


DEMO = demo_command()


def test_tools_list_prints_the_demo_tools() -> None:
    code, out, _ = run_cli("--method", "tools/list", server=DEMO)
    assert code == 0
    names = {t["name"] for t in out["tools"]}
    assert {"echo", "add", "create_ticket", "render_chart", "slow_count"} <= names


@pytest.mark.parametrize("era", ["legacy", "auto", "modern"])
def test_tools_call_with_json_typed_args_in_each_era(era: str) -> None:
    code, out, _ = run_cli(
        "--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2",
        "--tool-arg", "b=40", "--era", era, server=DEMO,
    )  # fmt: skip
    assert code == 0
    assert out["structuredContent"]["sum"] == 42


def test_tool_args_json() -> None:
    code, out, _ = run_cli(
        "--method", "tools/call", "--tool-name", "echo",
        "--tool-args-json", '{"message": "hi there"}', server=DEMO,
    )  # fmt: skip
    assert code == 0
    assert "hi there" in json.dumps(out)


def test_is_error_result_exits_1() -> None:
    code, out, _ = run_cli(
        "--method", "tools/call", "--tool-name", "fail_sometimes",
        "--tool-arg", "mode=fail", server=DEMO,
    )  # fmt: skip
    assert code == 1
    assert out["isError"] is True


def test_json_rpc_error_exits_4_and_names_the_error() -> None:
    code, out, err = run_cli("--method", "tools/call", "--tool-name", "explode", server=DEMO)
    assert code == 4
    assert out["error"]["code"] == -32603
    assert "Internal error (-32603)" in err


def test_unknown_tool_is_a_json_rpc_error() -> None:
    code, out, _ = run_cli("--method", "tools/call", "--tool-name", "nope", server=DEMO)
    assert code == 4
    assert out["error"]["code"] == -32602


def test_json_rpc_error_without_data_is_printed_without_data() -> None:
    """The demo's error has no "data" member; the printed error must not invent one (null)."""
    code, out, _ = run_cli("--method", "tools/call", "--tool-name", "nope", server=DEMO)
    assert code == 4
    assert "data" not in out["error"], out


def test_timeout_exits_5() -> None:
    code, _, err = run_cli(
        "--method", "tools/call", "--tool-name", "slow_count", "--tool-arg", "steps=3",
        "--tool-arg", "delay_ms=3000", "--timeout", "0.5", server=DEMO,
    )  # fmt: skip
    assert code == 5
    assert "no answer within 0.5 s" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--method", "tools/call"], "tools/call needs --tool-name"),
        (["--method", "resources/read"], "resources/read needs --uri"),
        (["--method", "server/discover"], "add --era modern"),
        (["--method", "tools/list", "--url", "ftp://127.0.0.1:9/mcp"], "not an http(s) URL"),
        (["--method", "tools/call", "--tool-name", "x", "--tool-args-json", "{"], "not valid JSON"),
        (["--method", "bogus"], "invalid choice"),
    ],
)
def test_usage_errors_exit_2(args: list[str], message: str) -> None:
    server = None if "--url" in args else DEMO
    code, _, err = run_cli(*args, server=server)
    assert code == 2
    assert message in err


def test_no_server_is_a_usage_error() -> None:
    code, _, err = run_cli("--method", "tools/list")
    assert code == 2
    assert "no server" in err


def test_command_not_found_exits_3() -> None:
    code, _, err = run_cli("--method", "tools/list", server=["definitely-not-a-command-xyz"])
    assert code == 3
    assert "command not found: definitely-not-a-command-xyz" in err
    assert "Traceback" not in err


def test_garbage_then_crash_exits_3_naming_the_cause() -> None:
    script = "import sys; print('hello, not json'); print('boom', file=sys.stderr); sys.exit(7)"
    code, _, err = run_cli("--method", "tools/list", server=[PY, "-c", script])
    assert code == 3
    assert "server exited (code 7)" in err
    assert "boom" in err
    assert "hello, not json" in err
    assert "Traceback" not in err


def test_initialize_prints_the_handshake_result() -> None:
    code, out, _ = run_cli("--method", "initialize", server=DEMO)
    assert code == 0
    assert out["protocolVersion"] == "2025-11-25"
    assert out["serverInfo"]["name"]


def test_initialize_with_an_older_protocol_version() -> None:
    code, out, _ = run_cli(
        "--method", "initialize", "--protocol-version", "2025-03-26", server=DEMO
    )
    assert code == 0
    assert out["protocolVersion"] == "2025-03-26"


def test_server_discover_in_modern_era() -> None:
    code, out, _ = run_cli("--method", "server/discover", "--era", "modern", server=DEMO)
    assert code == 0
    assert "2026-07-28" in out["supportedVersions"]
    assert out["_meta"]["io.modelcontextprotocol/serverInfo"]["name"]


def test_ping() -> None:
    code, out, _ = run_cli("--method", "ping", server=DEMO)
    assert code == 0
    assert out == {}


def test_resources_templates_prompts() -> None:
    code, out, _ = run_cli("--method", "resources/list", server=DEMO)
    assert code == 0 and any(r["uri"] == "demo://readme" for r in out["resources"])
    code, out, _ = run_cli("--method", "resources/read", "--uri", "demo://readme", server=DEMO)
    assert code == 0 and out["contents"][0]["uri"] == "demo://readme"
    code, out, _ = run_cli("--method", "resources/templates/list", server=DEMO)
    assert code == 0 and out["resourceTemplates"][0]["uriTemplate"] == "demo://notes/{topic}"
    code, out, _ = run_cli("--method", "prompts/list", server=DEMO)
    assert code == 0 and {p["name"] for p in out["prompts"]} >= {"greet", "review_code"}
    code, out, _ = run_cli(
        "--method", "prompts/get", "--prompt-name", "greet", "--prompt-args", "name=Ada",
        server=DEMO,
    )  # fmt: skip
    assert code == 0 and "Ada" in json.dumps(out["messages"])


def test_completion_complete_with_context() -> None:
    code, out, _ = run_cli(
        "--method", "completion/complete", "--prompt-name", "review_code",
        "--argument-name", "language", "--argument-value", "py",
        "--context-arg", "code=print(1)", server=DEMO,
    )  # fmt: skip
    assert code == 0
    assert "python" in out["completion"]["values"]


def test_logging_set_level() -> None:
    code, out, _ = run_cli("--method", "logging/setLevel", "--log-level", "debug", server=DEMO)
    assert code == 0
    assert out == {}


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_sampling_answered_from_answers_file(tmp_path: Path, era: str) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(
        json.dumps(
            {
                "sampling": {
                    "role": "assistant",
                    "content": {"type": "text", "text": "Canned answer 42"},
                    "model": "by-hand",
                }
            }
        )
    )
    code, out, _ = run_cli(
        "--method", "tools/call", "--tool-name", "ask_llm", "--tool-arg", "question=why",
        "--answers", str(answers), "--era", era, server=DEMO,
    )  # fmt: skip
    assert code == 0
    assert "Canned answer 42" in json.dumps(out)


def test_sampling_declined_by_default_in_modern_era_exits_4() -> None:
    code, _, err = run_cli(
        "--method", "tools/call", "--tool-name", "ask_llm", "--tool-arg", "question=why",
        "--era", "modern", server=DEMO,
    )  # fmt: skip
    assert code == 4
    assert "rejected" in err


def test_elicitation_declined_by_default() -> None:
    code, out, _ = run_cli("--method", "tools/call", "--tool-name", "ask_user", server=DEMO)
    assert code == 0
    assert "decline" in json.dumps(out)


def test_bad_answers_file_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "a.json"
    bad.write_text('{"samplin": {}}')
    code, _, err = run_cli("--method", "tools/list", "--answers", str(bad), server=DEMO)
    assert code == 2
    assert "unknown keys" in err


def test_no_arguments_opens_the_gui(monkeypatch: pytest.MonkeyPatch) -> None:
    import inspector.ui.shell.gui_command as gui
    from inspector.__main__ import main

    seen: list[gui.GuiOptions] = []
    monkeypatch.setattr(gui, "run_gui", lambda options: seen.append(options) or 0)
    assert main([]) == 0
    assert main(["gui", "--profile", "demo", "--screenshot", "out.png"]) == 0
    assert seen[0] == gui.GuiOptions()
    assert (seen[1].profile, seen[1].screenshot) == ("demo", "out.png")


def test_help_lists_exit_codes() -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [PY, "-m", "inspector", "cli", "--help"],
        capture_output=True,
        text=True,
        timeout=20,
        env=env,
    )
    assert proc.returncode == 0
    assert "5  timeout" in proc.stdout
