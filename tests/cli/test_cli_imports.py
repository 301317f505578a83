"""`cli` against a stdio server loads no Qt, no auth and no HTTP stack (start-up time is
what a person waits for before every command): checked in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Importing any of these means paying for something a stdio run does not use.
_HEAVY = ("PySide6", "qasync", "httpx", "httpcore", "inspector.auth", "joserfc", "keyring")

_PROBE = """
import json, sys
from inspector.__main__ import main
code = main(sys.argv[1:])
heavy = sorted({name for name in sys.modules for bad in HEAVY
                if name == bad or name.startswith(bad + ".")})
sys.stderr.write("\\nPROBE " + json.dumps({"code": code, "heavy": heavy}) + "\\n")
"""


def _run_cli(*args: str, heavy: tuple[str, ...] = _HEAVY) -> tuple[dict[str, object], str]:
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE.replace("HEAVY", repr(heavy)), *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    line = next(x for x in proc.stderr.splitlines() if x.startswith("PROBE "))
    return json.loads(line[len("PROBE ") :]), proc.stdout


def test_cli_over_stdio_loads_no_qt_no_auth_no_http() -> None:
    probe, out = _run_cli(
        "cli",
        "--method",
        "tools/list",
        "--compact",
        "--",
        sys.executable,
        "-m",
        "inspector",
        "demo-server",
    )
    assert probe["code"] == 0
    assert "tools" in json.loads(out)
    assert probe["heavy"] == []


def test_test_over_stdio_loads_no_qt_no_auth_no_http(tmp_path: Path) -> None:
    collection = tmp_path / "c.json"
    collection.write_text(
        json.dumps(
            {
                "version": 1,
                "calls": [
                    {
                        "name": "echo",
                        "kind": "tool",
                        "tool": "echo",
                        "arguments": {"message": "hi"},
                        "assert": [{"outputSchema": "valid"}],
                    },
                    {
                        "name": "add",
                        "kind": "tool",
                        "tool": "add",
                        "arguments": {"a": 1, "b": 2},
                        "assert": [{"outputSchema": "valid"}, {"snapshot": {}}],
                    },
                ],
            }
        )
    )
    probe, out = _run_cli(
        "test", str(collection), "--", sys.executable, "-m", "inspector", "demo-server"
    )
    assert probe["code"] == 1  # echo has no outputSchema; add's snapshot is empty
    assert "FAIL  echo" in out and "PASS" not in out.splitlines()[0]
    assert probe["heavy"] == []


def test_cli_over_http_still_loads_the_http_stack_when_asked() -> None:
    # The lazy imports must still happen when they are needed (a refused port: exit 3).
    probe, _out = _run_cli(
        "cli", "--method", "tools/list", "--url", "http://127.0.0.1:9/mcp", "--timeout", "5"
    )
    assert probe["code"] != 0
    assert "httpx" in probe["heavy"]


def test_the_help_names_the_bearer_variable_the_auth_package_reads() -> None:
    from inspector.auth.bearer import DEFAULT_BEARER_ENV
    from inspector.cli.command_args import BEARER_ENV

    assert BEARER_ENV == DEFAULT_BEARER_ENV


# Loaded only when their output goes somewhere: the live linter (-v prints findings,
# --record keeps them) and the model providers (--sampling-*; the help's words come from
# the small `features.models.names`).
_ON_DEMAND = (
    "jsonschema",
    "inspector.lint.live",
    "inspector.features.providers.client",
    "inspector.features.providers.providers",
    "inspector.features.providers.responder",
)
_DEMO = ("--", sys.executable, "-m", "inspector", "demo-server")


def test_a_plain_stdio_run_loads_no_linter_and_no_model_providers() -> None:
    probe, out = _run_cli("cli", "--method", "tools/list", "--compact", *_DEMO, heavy=_ON_DEMAND)
    assert probe["code"] == 0
    assert "tools" in json.loads(out)
    assert probe["heavy"] == []


def test_verbose_still_lints() -> None:
    probe, _out = _run_cli("cli", "--method", "tools/list", "-v", *_DEMO, heavy=_ON_DEMAND)
    assert probe["code"] == 0
    assert {"jsonschema", "inspector.lint.live"} <= set(probe["heavy"])  # type: ignore[arg-type]
