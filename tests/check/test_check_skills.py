"""`check`'s skills check: our skills server's broken skills fail it, each named with what
is wrong (run as a user would, from a folder that is not the repository); the demo server,
which exposes no skills, only skips it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from inspector.check.battery import run_battery
from inspector.check.report import Status
from inspector.check.skill_checks import SKILL_CHECKS
from tests.helpers.gui import python_profile
from tests.helpers.peers import PY, REPO, SERVERS

pytestmark = pytest.mark.timeout(120)

SKILLS_SERVER = [PY, str(SERVERS / "misbehaving" / "skills_server.py")]


def test_check_names_each_broken_skill_and_nothing_else(tmp_path: Path) -> None:
    proc = subprocess.run(
        [PY, "-m", "inspector", "check", "--json", "--", *SKILLS_SERVER],
        capture_output=True,
        text=True,
        timeout=110,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=tmp_path,  # not the repository: nothing depends on where it runs
    )
    report = json.loads(proc.stdout)
    assert proc.returncode == 1, proc.stderr
    failed = {c["id"]: c["evidence"] for c in report["checks"] if c["status"] == "failed"}
    assert list(failed) == ["skills.frontmatter"]
    evidence = failed["skills.frontmatter"]
    head = evidence.split("in full:")[0]
    assert "7 of 8 skill(s) break the rules; 1 conform" in head
    for uri, says in [
        ("skill://bad-name/SKILL.md", "has upper-case letters; it must be lower-case"),
        ("skill://no-description/SKILL.md", "the required field 'description' is missing"),
        ("skill://plain-notes/SKILL.md", "does not begin with YAML frontmatter"),
        ("skill://broken-yaml/SKILL.md", "is not valid YAML at line 4"),
        ("skill://huge-skill/SKILL.md", "SKILL.md is 1.2 MiB of text"),
        ("skill://hidden-text/SKILL.md", "Summarise a document\\u200b politely."),
        ("skill://acme/billing/refunds/SKILL.md", "differs from the last segment"),
    ]:
        assert f"{uri}: " in head and says in head, uri
    assert "pdf-tools" not in evidence


async def test_a_server_without_skills_only_skips_the_check() -> None:
    demo = python_profile("demo", "-m", "inspector.demo")
    report = await run_battery(demo, checks=SKILL_CHECKS)
    assert report.unreachable is None
    [result] = report.results
    assert result.status is Status.SKIPPED
    assert result.evidence == "the server lists no skill:// resources"
