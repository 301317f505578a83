"""Every headless command as a user runs it: from a folder other than the server's, the server
named by a relative path, and each command's own output files written into the server's
folder (issue 26: `watch` watched the wrong folder this way; the others are held to it too).
`watch` itself has its own tests of this (tests/cli/test_watch_command.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.helpers.peers import PY, REPO, SERVERS

pytestmark = pytest.mark.timeout(240)

SERVER = SERVERS / "misbehaving" / "lint_server.py"  # stdlib only: it runs from any folder
HOST_INPUT = "".join(
    json.dumps(m) + "\n"
    for m in (
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "host", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    )
)


def run(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "inspector", *args],
        cwd=cwd,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def test_each_command_from_another_folder_writes_into_the_servers(tmp_path: Path) -> None:
    srv, other = tmp_path / "srv", tmp_path / "other"
    srv.mkdir()
    other.mkdir()
    shutil.copy(SERVER, srv / "server.py")
    server = ("--", "python3", "../srv/server.py")
    server_words = "python3 ../srv/server.py"

    listed = run(other, "cli", "--method", "tools/list", "--record", "../srv/s.jsonl", *server)
    assert listed.returncode == 0, listed.stderr
    names = {t["name"] for t in json.loads(listed.stdout)["tools"]}
    assert names and (srv / "s.jsonl").stat().st_size > 0

    replayed = run(other, "replay", "../srv/s.jsonl", *server)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr

    checked = run(other, "check", "--junit", "../srv/check.xml", *server)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    cases = list(ET.parse(srv / "check.xml").getroot().iter("testcase"))
    assert len(cases) > 10
    assert not [c for c in cases if c.find("failure") is not None]

    made = run(other, "test", "--from-session", "../srv/s.jsonl", "--write", "../srv/c.json")
    assert made.returncode == 0, made.stderr
    tested = run(other, "test", "../srv/c.json", "--junit", "../srv/test.xml", *server)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert (srv / "test.xml").stat().st_size > 0

    diffed = run(other, "diff", "--left", server_words, "--right", server_words)
    assert diffed.returncode == 0, diffed.stdout + diffed.stderr

    tapped = run(other, "tap", "--session-file", "../srv/tap.jsonl", *server, stdin=HOST_INPUT)
    assert tapped.returncode == 0, tapped.stderr
    answers = [json.loads(line) for line in tapped.stdout.splitlines()]
    assert [a.get("id") for a in answers if "id" in a] == [1, 2]
    recorded = (srv / "tap.jsonl").read_text()
    assert "tools/list" in recorded

    # Nothing was written where the commands ran: every output went where it was named.
    assert sorted(p.name for p in other.iterdir()) == []
