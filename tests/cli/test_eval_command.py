"""`mcp-inspector-qt eval` end to end with the model stand-in and the demo server: a case it
should pass passes, one it should fail fails with its reasons (exit 1, JUnit and JSON say
so); every case passing exits 0; an invalid file exits 2 naming its problems. Run from a
folder other than the server's."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from inspector.__main__ import main
from tests.helpers.model_standin import model_standin
from tests.helpers.peers import PY

pytestmark = pytest.mark.timeout(120)

SCRIPT = {
    "rules": [
        {
            "when": {"lastUserContains": "add", "lastIsToolResult": False},
            "reply": {"toolCalls": [{"name": "add", "arguments": {"a": 2, "b": 3}}]},
        },
        {"when": {"lastIsToolResult": True}, "reply": {"text": "The sum is {toolResult}"}},
    ]
}
ADDS = {
    "name": "adds",
    "prompt": "please add 2 and 3",
    "expectedCalls": [{"tool": "add", "arguments": {"a": 2, "b": 3}}],
    "answerContains": "5",
}
ECHOES = {
    "name": "echoes",
    "prompt": "please add, then echo hello",
    "expectedCalls": [{"tool": "echo", "patterns": {"/message": "hello"}}],
    "mustNotCall": ["add"],
}


def write(path: Path, *cases: Any) -> Path:
    path.write_text(
        json.dumps({"version": 1, "defaults": {"runs": 2}, "cases": list(cases)}), "utf-8"
    )
    return path


def test_eval_passes_a_case_it_should_and_fails_one_it_should_not(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    both = write(tmp_path / "both.json", ADDS, ECHOES)
    good = write(tmp_path / "good.json", ADDS)
    junit = tmp_path / "out.xml"
    with model_standin(SCRIPT) as standin:
        model = ["--base-url", standin.base_url, "--model", "standin", "--concurrency", "2"]
        demo = ["--", PY, "-m", "inspector.demo"]
        code = main(["eval", str(both), "--junit", str(junit), *model, *demo])
        out, err = capsys.readouterr()
        assert code == 1, err
        lines = out.splitlines()
        assert lines[0].split() == [
            "PASS",
            "adds",
            "2/2",
            "runs",
            "passed",
            "(needs",
            "2:",
            "pass",
            "rate",
            "1)",
        ]
        assert lines[1].startswith("FAIL  echoes  0/2 runs passed")
        assert "run 1: expected a call to echo with /message matching 'hello'" in out
        assert "run 2: called add, which must not be called" in out
        assert lines[-1] == "2 cases: 1 passed, 1 failed — FAILED"
        cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}
        assert cases["adds"].find("failure") is None
        assert cases["echoes"].find("failure") is not None
        code = main(["eval", str(good), "--json", *model, *demo])
        out, _ = capsys.readouterr()
        assert code == 0 and json.loads(out)["passed"] is True
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": 1, "cases": [{"name": "x", "runs": 0}]}), "utf-8")
    code = main(["eval", str(bad), "--model", "m", "--", PY, "-m", "inspector.demo"])
    _, err = capsys.readouterr()
    assert code == 2 and "error: invalid evals file:" in err and "bad.json" in err
    code = main(["eval", "--model", "m", "--", PY, "-m", "inspector.demo"])
    assert code == 2 and "give one or more evals FILEs" in capsys.readouterr().err


def test_a_server_lost_during_the_runs_is_said_and_exits_3(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The case judges the model's choices only, so it passes even though the server
    # died at the first call: the report alone would say all is well.
    from tests.helpers.peers import REPO

    monkeypatch.chdir(tmp_path)
    calls = write(
        tmp_path / "calls.json",
        {"name": "calls", "prompt": "go", "expectedCalls": [{"tool": "bad"}]},
    )
    script = {
        "rules": [
            {
                "when": {"lastIsToolResult": False},
                "reply": {"toolCalls": [{"name": "bad", "arguments": {}}]},
            }
        ]
    }
    crash = [PY, str(REPO / "tests" / "servers" / "misbehaving" / "server.py"), "--mode", "crash"]
    with model_standin(script) as standin:
        code = main(
            ["eval", str(calls), "--base-url", standin.base_url, "--model", "s", "--", *crash]
        )
    out, err = capsys.readouterr()
    assert "PASS  calls" in out
    assert code == 3 and "the connection to the server was lost" in err
