"""The official MCP conformance suite's client scenarios, one test per spec revision.

Runs `scripts/conformance.sh VERSION` (the suite at 0.2.0-alpha.12 on Node 22, driving
`python -m inspector.conformance`), which judges every scenario against
tests/conformance/expected-failures.txt. Results stay in test-results/conformance/VERSION/.

This is its own step of the test command, not part of the default run:

    python -m pytest -m conformance tests/conformance/test_conformance.py

Without `-m conformance` (or MCP_CONFORMANCE_RUN=1) the tests are skipped.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.helpers.peers import REPO

NODE = REPO / ".peers/node22/node_modules/.bin/node"
SUITE_JS = REPO / ".peers/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js"
SCRIPT = REPO / "scripts/conformance.sh"
VERSIONS = ("2025-11-25", "2026-07-28")

pytestmark = pytest.mark.conformance


def _selected(config: pytest.Config) -> bool:
    if os.environ.get("MCP_CONFORMANCE_RUN") == "1":
        return True
    markexpr = str(config.getoption("markexpr", "") or "")
    return "conformance" in markexpr and "not conformance" not in markexpr


@pytest.mark.timeout(600)
@pytest.mark.parametrize("version", VERSIONS)
def test_conformance_client_scenarios(version: str, request: pytest.FixtureRequest) -> None:
    if not _selected(request.config):
        pytest.skip("the conformance suite is its own step: pytest -m conformance")
    if not NODE.exists() or not SUITE_JS.exists():
        pytest.skip(
            "Node 22 or the conformance suite is not installed "
            "(scripts/conformance.sh --install-only installs them into .peers/)"
        )
    env = dict(os.environ, PYTHON=sys.executable, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        ["bash", str(SCRIPT), version],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=580,
        check=False,
    )
    report = proc.stdout + proc.stderr
    print(report)
    assert proc.returncode == 0, (
        f"conformance {version}: unexpected failures (details in "
        f"test-results/conformance/{version}/):\n{report}"
    )
