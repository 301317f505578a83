"""`diff` against a saved side (issue 31, item 25), run as a CI job would, from a folder
that is not the server's: `--write-baseline FILE --left TARGET` pins a live server's
catalog; `--left FILE` (a baseline or a session file) is compared with a live server
(0 the same, 1 they differ); a missing or foreign file is a clear usage error (2), never
a command to run."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers.peers import PY, REPO, SERVERS

pytestmark = pytest.mark.timeout(120)

SERVER = f"{PY} {SERVERS / 'sdk' / 'watch_server.py'}"


def diff(cwd: Path, *args: str) -> tuple[int, str, str]:
    proc = subprocess.run(
        [PY, "-m", "inspector", "diff", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=cwd,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_write_a_baseline_then_diff_a_live_server_against_it(tmp_path: Path) -> None:
    code, out, err = diff(tmp_path, "--write-baseline", "surface.json", "--left", SERVER)
    assert code == 0, out + err
    assert "wrote the baseline" in err and "tools: 1" in err
    doc = json.loads((tmp_path / "surface.json").read_text())
    assert doc["format"] == "mcp-inspector-qt/catalog"
    assert [t["name"] for t in doc["catalog"]["tools"]] == ["echo"]

    code, out, err = diff(tmp_path, "--left", "surface.json", "--right", SERVER)
    assert code == 0, out + err
    assert out.rstrip().endswith("The catalogs are the same.")

    doc["catalog"]["tools"][0]["description"] = "An older description."
    (tmp_path / "surface.json").write_text(json.dumps(doc))
    code, out, err = diff(tmp_path, "--left", SERVER, "--right", "surface.json")
    assert code == 1, out + err
    assert "echo" in out and "description" in out


def test_a_session_file_is_a_side(tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    proc = subprocess.run(
        [PY, "-m", "inspector", "cli", "--method", "tools/list", "--record", str(session),
         "--", *SERVER.split()],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    code, out, err = diff(tmp_path, "--left", "s.jsonl", "--right", SERVER)
    assert code == 0, out + err
    assert "The catalogs are the same." in out
    assert "prompts not compared: the left session" in err  # cli listed tools only


def test_a_missing_or_foreign_file_is_a_usage_error(tmp_path: Path) -> None:
    code, _out, err = diff(tmp_path, "--left", "nowhere.json", "--right", SERVER)
    assert code == 2 and "--left: cannot read nowhere.json" in err, err
    assert "usage: mcp-inspector-qt diff" in err
    (tmp_path / "other.json").write_text('{"hello": 1}')
    code, _out, err = diff(tmp_path, "--left", SERVER, "--right", "other.json")
    assert code == 2 and "neither a catalog baseline" in err, err
    code, _out, err = diff(tmp_path, "--write-baseline", "b.json", "--left", SERVER, "--right", "x")
    assert code == 2 and "--left only" in err, err


def test_what_names_a_saved_side(tmp_path: Path) -> None:
    from inspector.compare.baseline import names_a_file

    script = tmp_path / "server.py"
    script.write_text("print('hi')\n")
    saved = tmp_path / "surface"
    saved.write_text('{"format": "mcp-inspector-qt/catalog"}')
    assert not names_a_file(str(script))  # a script: its interpreter runs it
    assert names_a_file(str(saved))  # no suffix, but JSON
    assert names_a_file("missing.jsonl") and names_a_file("base.json")
    assert not names_a_file("python server.py") and not names_a_file("profile:x.json")
    assert not names_a_file("http://h/x.json")
