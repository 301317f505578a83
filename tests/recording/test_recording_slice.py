"""Export a slice of a session to a new session file: a time range, some methods, or a
view's rows; the slice opens, replays and keeps requests with their answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.recording.offline import load_offline
from inspector.recording.reader import read_session
from inspector.recording.slicing.session_slice import SliceSpec, write_slice
from inspector.recording.slicing.when import parse_when
from tests.helpers.session_lines import WALL0, frame, session_lines, write, write_parts

REPO = Path(__file__).resolve().parents[2]
METHODS = ["ping", "tools/list", "fail:tools/call", "tools/call", "prompts/list"]


def _session(tmp_path: Path) -> Path:
    lines = session_lines(METHODS)
    lines.insert(4, {"type": "stderr", "t": 1.5, "wall": WALL0 + 1.5, "text": "warming up"})
    lines += [
        {"type": "lint", "row": 6, "rule": "r.six", "message": "about the failed call's error"},
        {"type": "lint", "row": 0, "rule": "r.zero", "message": "about ping"},
    ]
    return write(tmp_path / "s.jsonl", lines)


def _sent_and_answered(path: Path) -> list[tuple[str, str]]:
    session = read_session(path)
    return [
        (e.direction, json.loads(e.raw).get("method") or str(json.loads(e.raw)["id"]))
        for e in session.frames()
    ]


def test_a_time_range_keeps_its_lines_and_the_header_and_ready(tmp_path: Path) -> None:
    source = read_session(_session(tmp_path))
    out = tmp_path / "out.jsonl"
    result = write_slice(source, SliceSpec(start=1.5, end=3.0), out)
    sliced = read_session(out)
    assert sliced.problems == [] and sliced.ready is not None
    assert sliced.header["slice"] == {"of": "s.jsonl", "from": 1.5, "to": 3.0}
    assert sliced.header["created"] == source.header["created"]
    assert [e.type for e in sliced.events][:3] == ["ready", "stderr", "frame"]
    # tools/call id 4 asked at t=4.0 is out; id 3 asked at 3.0 keeps its error at 3.1.
    assert _sent_and_answered(out) == [
        ("out", "tools/list"), ("in", "2"), ("out", "tools/call"), ("in", "3")
    ]  # fmt: skip
    assert (result.rows, result.frames, result.lint) == (5, 4, 1)
    # The lint finding about the error (row 6 of the source) is row 4 of the slice.
    assert [e.data["row"] for e in sliced.events if e.type == "lint"] == [4]
    offline = load_offline(sliced)
    assert len(offline.traffic) == 5 and len(offline.lint.findings) == 1


def test_methods_keep_their_answers_and_drop_everything_else(tmp_path: Path) -> None:
    source = read_session(_session(tmp_path))
    out = tmp_path / "out.jsonl"
    result = write_slice(source, SliceSpec(methods=("tools/*",)), out)
    assert _sent_and_answered(out) == [
        ("out", "tools/list"), ("in", "2"), ("out", "tools/call"), ("in", "3"),
        ("out", "tools/call"), ("in", "4"),
    ]  # fmt: skip
    assert result.rows == 6 and not any(e.type == "stderr" for e in read_session(out).events)


def test_an_answer_in_range_brings_its_request_from_before_it(tmp_path: Path) -> None:
    source = read_session(_session(tmp_path))
    out = tmp_path / "out.jsonl"
    write_slice(source, SliceSpec(start=2.05, end=2.5), out)
    assert _sent_and_answered(out) == [("out", "tools/list"), ("in", "2")]


def test_rows_of_a_view_are_exported_with_their_pairs(tmp_path: Path) -> None:
    source = read_session(_session(tmp_path))
    out = tmp_path / "out.jsonl"
    write_slice(source, SliceSpec(rows=frozenset({0, 2})), out)  # ping, stderr, and ping's answer
    sliced = read_session(out)
    assert [e.type for e in sliced.events] == ["ready", "frame", "frame", "stderr", "lint"]
    assert sliced.header["slice"]["rows"] == 2


def test_a_server_request_pairs_with_the_clients_answer(tmp_path: Path) -> None:
    lines = session_lines(["tools/call"])
    lines.insert(3, frame(1.05, "in", {"jsonrpc": "2.0", "id": 1, "method": "roots/list"}))
    lines.insert(4, frame(1.07, "out", {"jsonrpc": "2.0", "id": 1, "result": {"roots": []}}))
    source = read_session(write(tmp_path / "s.jsonl", lines))
    out = tmp_path / "out.jsonl"
    write_slice(source, SliceSpec(methods=("roots/list",)), out)
    assert _sent_and_answered(out) == [("in", "roots/list"), ("out", "1")]


def test_times_are_seconds_durations_or_wall_clock(tmp_path: Path) -> None:
    source = read_session(_session(tmp_path))
    assert parse_when("90", source) == 90.0
    assert parse_when("1:30", source) == 90.0
    assert parse_when("1:00:01.5", source) == 3601.5
    assert parse_when("2026-12-01T10:00:04.5Z", source) == pytest.approx(4.5)
    with pytest.raises(ValueError, match="'soon' is not a time"):
        parse_when("soon", source)


def test_the_slice_never_overwrites_its_source(tmp_path: Path) -> None:
    path = _session(tmp_path)
    with pytest.raises(ValueError, match="is the session being sliced"):
        write_slice(read_session(path), SliceSpec(), path)


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "inspector", "export-slice", *args],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_export_slice_of_a_rotated_compressed_session_to_a_compressed_file(
    tmp_path: Path,
) -> None:
    lines = session_lines(METHODS)[1:]
    parts = write_parts(tmp_path / "tap.jsonl", [lines[:5], lines[5:]], ".gz", "gzip")
    done = _cli(tmp_path, parts[1].name, "-o", "calls.jsonl.zst", "--method", "tools/call")
    assert done.returncode == 0, done.stderr
    assert "wrote calls.jsonl.zst: 4 row(s), 4 of them frames, t 3.000–4.100 s" in done.stderr
    assert (tmp_path / "calls.jsonl.zst").read_bytes()[:4] == b"\x28\xb5\x2f\xfd"
    sliced = read_session(tmp_path / "calls.jsonl.zst")
    assert sliced.problems == [] and "part" not in sliced.header
    assert [e.data["method"] for e in sliced.frames() if "method" in e.data] == ["tools/call"] * 2


def test_export_slice_says_what_is_wrong(tmp_path: Path) -> None:
    _session(tmp_path)
    done = _cli(tmp_path, "s.jsonl", "-o", "x.jsonl", "--from", "3", "--to", "1")
    assert done.returncode == 2 and "--to (1 s) is before --from (3 s)" in done.stderr
    done = _cli(tmp_path, "s.jsonl", "-o", "x.jsonl", "--from", "noon-ish")
    assert done.returncode == 2 and "'noon-ish' is not a time" in done.stderr
    (tmp_path / "junk.jsonl").write_bytes(b"\x00\x01binary")
    done = _cli(tmp_path, "junk.jsonl", "-o", "x.jsonl")
    assert done.returncode == 2 and "holds binary data, not JSON lines" in done.stderr
    done = _cli(tmp_path, "s.jsonl", "-o", "x.jsonl", "--method", "nothing/such")
    assert done.returncode == 0
    assert "note: no traffic matched: the slice holds only the header and the ready line" in (
        done.stderr
    )
    assert not list(tmp_path.glob("*.writing"))
