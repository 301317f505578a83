"""A Playground conversation in a session file (`conversation` lines): written after each
turn, the latest line of an id wins, read the same by the eager reader and the index; a
file without one reads as before, and a damaged line is kept raw for the view to judge."""

from __future__ import annotations

import json
import time
from pathlib import Path

from inspector.recording.format import connection_summary, header_line
from inspector.recording.index.indexed_loader import load_indexed
from inspector.recording.offline import load_offline
from inspector.recording.reader import read_session
from inspector.recording.writer import SessionRecorder
from inspector.traffic.record import TrafficRecord


def _recorder(path: Path) -> SessionRecorder:
    conn = connection_summary(transport="stdio", command="srv", args=[])
    header = header_line(
        conn, era="legacy", client_info={"name": "t"}, client_capabilities={}, protocol_version="v"
    )
    recorder = SessionRecorder(path, header)
    recorder.start()
    return recorder


def test_the_latest_line_of_a_conversation_wins_in_both_readers(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    recorder = _recorder(path)
    raw = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}'
    recorder.observe(TrafficRecord("out", "request", raw, time.monotonic(), time.time(), "stdio"))
    recorder.conversation("c1", {"version": 1, "turns": [{"userText": "one"}]})
    recorder.conversation("c2", {"version": 99})
    recorder.conversation("c1", {"version": 1, "turns": [{"userText": "one"}, {"userText": "2"}]})
    recorder.close()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["type"] for line in lines] == [
        "header",
        "frame",
        "conversation",
        "conversation",
        "conversation",
    ]
    for offline in (load_offline(read_session(path)), load_indexed(path)):
        assert list(offline.conversations) == ["c2", "c1"]
        assert len(offline.conversations["c1"].data["turns"]) == 2
        assert offline.conversations["c2"].data == {"version": 99}
        assert len(offline.traffic) == 1  # not a traffic row
        assert not any("conversation" in note for note in offline.notes)


def test_a_file_without_conversations_has_none(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    _recorder(path).close()
    assert load_indexed(path).conversations == {}
