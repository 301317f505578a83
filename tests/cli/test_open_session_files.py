"""`mcp-inspector-qt FILE` and `gui FILE...` (issue 27, open from anywhere), as a user runs
them: from another folder, the files named by relative paths, with `--screenshot` (open,
wait for the rows, save a PNG, exit). A file that is missing or not a session exits 2 (as
the CLI's commands do for such a file) with the reason on stderr."""

from __future__ import annotations

import os
import struct
import subprocess
from pathlib import Path

import pytest

from tests.helpers.peers import PY, REPO
from tests.helpers.small_session import write_small_session

pytestmark = pytest.mark.timeout(240)


def app(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        PYTHONPATH=str(REPO),
        QT_QPA_PLATFORM="offscreen",
        MCP_INSPECTOR_CONFIG_DIR=str(cwd / "config"),
        MCP_INSPECTOR_DATA_DIR=str(cwd / "data"),
    )
    return subprocess.run(
        [PY, "-m", "inspector", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_a_session_file_named_alone_opens_and_screenshots(tmp_path: Path) -> None:
    (tmp_path / "keep").mkdir()
    (tmp_path / "here").mkdir()
    write_small_session(tmp_path / "keep" / "one.jsonl")
    write_small_session(tmp_path / "keep" / "two.jsonl")

    done = app(tmp_path / "here", "../keep/one.jsonl", "--screenshot", "one.png")
    assert done.returncode == 0, done.stderr
    shot = tmp_path / "here" / "one.png"
    assert png_size(shot) == (1280, 860) and shot.stat().st_size > 20_000
    assert "saved" in done.stderr

    done = app(tmp_path / "here", "gui", "../keep/one.jsonl", "../keep/two.jsonl",
               "--screenshot", "two.png")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2 tabs: one.jsonl, two.jsonl; current: two.jsonl" in done.stderr
    assert (tmp_path / "here" / "two.png").stat().st_size > 20_000


def test_a_file_that_is_not_a_session_exits_2_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "notes.jsonl").write_text("shopping list\n", encoding="utf-8")
    done = app(tmp_path, "notes.jsonl", "--screenshot", "x.png")
    assert done.returncode == 2
    assert "notes.jsonl is not an MCP Inspector session file" in done.stderr
    assert not (tmp_path / "x.png").exists()

    cut = write_small_session(tmp_path / "cut.jsonl")
    cut.write_text(cut.read_text(encoding="utf-8") + '{"type":"fr', encoding="utf-8")
    done = app(tmp_path, "cut.jsonl", "--screenshot", "cut.png")  # opens as far as it reads
    assert done.returncode == 0, done.stderr
    assert "note: cut.jsonl: line 4 (byte offset 513) is incomplete" in done.stderr

    done = app(tmp_path, "gui", "missing.jsonl")
    assert done.returncode == 2
    assert "no such session file" in done.stderr and "missing.jsonl" in done.stderr
