"""What `check` and `diff` (the real CLI) say about a corpus server, in the stable shape the
golden file keeps (tests/corpus/check_golden.json): each check's status, the exit code, the
live lint's rule ids, and a self-diff's differences. Both the golden test and
`scripts/probe_corpus.py --golden` build it here, so they cannot disagree on the shape."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from tests.helpers.corpus import Server
from tests.helpers.peers import PY, REPO

GOLDEN = REPO / "tests" / "corpus" / "check_golden.json"
CHECK_TIMEOUT = 120.0  # seconds for one whole `check` run (each request is bounded at 10 s)
DIFF_TIMEOUT = 90.0
# A server's own noise for a self-diff: mcp-time lists its predefined formats in Go map
# order, different on every start (docs/corpus.md).
DIFF_IGNORE: dict[str, tuple[str, ...]] = {
    "mcp-time-go": ("/tools/current_time/inputSchema/properties/format/description",),
}
_COUNTS = re.compile(r"^\d+ finding\(s\): (.*)$")


def _cli_env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(REPO)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["MCP_INSPECTOR_CONFIG_DIR"] = str(folder / "config")
    env["MCP_INSPECTOR_DATA_DIR"] = str(folder / "data")
    return env


def _server_env_args(server: Server, folder: Path) -> list[str]:
    args = []
    for key, value in server.environ(folder).items():
        args += ["--env", f"{key}={value}"]
    return args


def run_check(server: Server, folder: Path) -> dict[str, Any]:
    """`check --json` on `server`, run from `folder` (never the server's own folder)."""
    own = folder / "server"  # the server's data folder: not the working directory
    own.mkdir(exist_ok=True)
    argv = [PY, "-m", "inspector", "check", "--json", "--timeout", "10"]
    argv += _server_env_args(server, own)
    argv += ["--", *server.argv(own)]
    done = subprocess.run(
        argv,
        cwd=folder,
        env=_cli_env(folder),
        capture_output=True,
        text=True,
        timeout=CHECK_TIMEOUT,
    )
    try:
        report: dict[str, Any] = json.loads(done.stdout)
    except ValueError as err:
        raise AssertionError(
            f"check --json printed no JSON (exit {done.returncode}): {done.stderr[-2000:]}"
        ) from err
    return report


def _lint_rules(report: dict[str, Any]) -> list[str]:
    for check in report.get("checks", []):
        if check.get("id") != "lint.messages" or check.get("status") != "failed":
            continue
        first = str(check.get("evidence", "")).splitlines()[0]
        match = _COUNTS.match(first)
        if match:
            return sorted({part.rsplit(" ×", 1)[0] for part in match.group(1).split(", ")})
    return []


def check_entry(report: dict[str, Any]) -> dict[str, Any]:
    """The golden's part for `check`: each check's verdict, the exit code, the lint rules."""
    return {
        "checks": {c["id"]: c["status"] for c in report.get("checks", [])},
        "exit_code": report.get("exit_code"),
        "unreachable": report.get("unreachable"),
        "lint_rules": _lint_rules(report),
    }


def run_self_diff(server: Server, folder: Path) -> dict[str, Any]:
    """`diff --json` of `server` against a second start of itself."""
    left, right = folder / "left", folder / "right"
    left.mkdir(exist_ok=True)
    right.mkdir(exist_ok=True)
    argv = [PY, "-m", "inspector", "diff", "--json"]
    for pointer in DIFF_IGNORE.get(server.name, ()):
        argv += ["--ignore", pointer]
    # diff takes each side as one command line; its env is the server's own (HOME included).
    sides = []
    for side in (left, right):
        env = " ".join(shlex.quote(f"{k}={v}") for k, v in server.environ(side).items())
        sides.append(f"env {env} " + shlex.join(server.argv(side)))
    argv += ["--left", sides[0], "--right", sides[1]]
    done = subprocess.run(
        argv,
        cwd=folder,
        env=_cli_env(folder),
        capture_output=True,
        text=True,
        timeout=DIFF_TIMEOUT,
    )
    try:
        report = json.loads(done.stdout)
    except ValueError as err:
        raise AssertionError(
            f"diff --json printed no JSON (exit {done.returncode}): {done.stderr[-2000:]}"
        ) from err
    changes = sorted(
        f"{d.get('kind')}/{d.get('key')}: {d.get('status')}"
        + "".join(f" {c.get('path')}" for c in d.get("changes", []))
        for d in report.get("differences", [])
    )
    return {"same": report.get("same"), "complete": report.get("complete"), "changes": changes}


def golden_entry(server: Server) -> dict[str, Any]:
    """What the golden keeps for `server`, measured now."""
    with tempfile.TemporaryDirectory(prefix="corpus-check-") as name:
        folder = Path(name)
        entry = check_entry(run_check(server, folder))
        entry["self_diff"] = run_self_diff(server, folder)
    return entry
