"""`mcp-inspector-qt demo-server` (how the frozen app runs its demo) is the same server as
`python -m inspector.demo`, its INFO log on stderr included."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers.demo_http import INIT
from tests.helpers.peers import subprocess_env


@pytest.mark.parametrize(
    "argv", [["-m", "inspector", "demo-server"], ["-m", "inspector.demo"]], ids=["cmd", "module"]
)
def test_the_demo_server_answers_and_logs(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, *argv],
        input=json.dumps(INIT) + "\n",
        capture_output=True,
        text=True,
        timeout=30,
        env=subprocess_env(),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[0])["result"]["protocolVersion"] == "2025-11-25"
    assert "demo INFO: demo server ready" in done.stderr
