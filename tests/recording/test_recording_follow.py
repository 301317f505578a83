"""Following a session file while it is written: complete lines only, in order, into the
same stores the offline view shows; a file that shrinks or is not a session says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.recording.follow import SessionFollower
from inspector.recording.format import header_line
from inspector.recording.reader import SessionFileError

HEADER = json.dumps(header_line({"transport": "stdio"}, era="auto", client_info={},
                                client_capabilities={})) + "\n"  # fmt: skip


def frame(direction: str, text: str, t: float) -> str:
    return json.dumps({"type": "frame", "t": t, "wall": 1.0, "transport": "stdio",
                       "dir": direction, "kind": "request", "text": text}) + "\n"  # fmt: skip


def test_complete_lines_are_fed_as_they_come(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    follower = SessionFollower(path)
    assert follower.poll() == []  # not there yet
    assert follower.offline is None
    req = frame("out", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', 0.1)
    path.write_text(HEADER + req[:20])
    assert follower.poll() == []
    offline = follower.offline
    assert offline is not None and len(offline.traffic) == 0
    with path.open("a") as f:
        f.write(req[20:])
        resp = '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{}}]}}'
        f.write(frame("in", resp, 0.3))
    assert [e.type for e in follower.poll()] == ["frame", "frame"]
    assert len(offline.traffic) == 2
    assert offline.traffic[1].method == "tools/list"  # paired with its request
    assert [i.key for i in offline.catalog["tools"].items] == ["t"]


def test_a_corrupt_line_is_named_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(HEADER + "{oops\n" + frame("out", "x", 0.1))
    follower = SessionFollower(path)
    follower.poll()
    assert follower.offline is not None
    assert len(follower.offline.traffic) == 1
    assert "line 2 is not valid JSON" in follower.offline.recorded.problems[0]


def test_a_file_that_shrinks_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(HEADER + frame("out", "x", 0.1))
    follower = SessionFollower(path)
    follower.poll()
    path.write_text(HEADER)
    assert follower.poll() == []
    assert follower.problem is not None and "shorter" in follower.problem


def test_not_a_session_file(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text("hello\n")
    with pytest.raises(SessionFileError, match="not an MCP Inspector session file"):
        SessionFollower(path).poll()


def test_finish_reads_a_last_line_without_newline(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(HEADER + frame("out", "x", 0.1).rstrip("\n"))
    follower = SessionFollower(path)
    follower.poll()
    assert follower.offline is not None and len(follower.offline.traffic) == 0
    follower.finish()
    assert len(follower.offline.traffic) == 1


def test_a_compressed_file_cannot_be_followed_and_says_so(tmp_path: Path) -> None:
    import gzip

    from inspector.recording.follow import first_problem

    path = tmp_path / "tap.jsonl.gz"
    path.write_bytes(gzip.compress(b'{"type":"header"}\n'))
    problem = first_problem(SessionFollower(path))
    assert problem is not None
    assert "is gzip-compressed: it can be opened (File ▸ Open Session) but not followed" in problem
