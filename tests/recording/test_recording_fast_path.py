"""The recorder's fast path writes exactly what the general path writes."""

from __future__ import annotations

import json
import time

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.recording.format import plain_frame_line, record_line
from inspector.traffic.record import TrafficRecord, kind_of


def _record(raw: str, direction: str = "in") -> TrafficRecord:
    frame = parse_frame(raw)
    return TrafficRecord(direction, kind_of(frame), raw, 100.25, time.time(), "stdio", frame)  # type: ignore[arg-type]


def test_fast_line_equals_the_general_line() -> None:
    samples = [
        '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"é \\" \\\\ ☃"}}',
        '{"jsonrpc":"2.0","id":7,"result":{"content":[]}}',
        "not json at all \u2028 with a line separator",
    ]
    for raw in samples:
        record = _record(raw)
        record.note = None  # the fast path applies to plain frames only
        fast = plain_frame_line(record, 99.0)
        assert fast is not None
        general = json.dumps(record_line(record, 99.0), ensure_ascii=False, separators=(",", ":"))
        assert fast == general
        assert json.loads(fast)["text"] == raw


def test_frames_with_extra_facts_take_the_general_path() -> None:
    noted = _record('{"jsonrpc":"2.0","id":1,"result":{}}')
    noted.note = "a response to id 1, which was never sent"
    assert plain_frame_line(noted, 0.0) is None
    binary = TrafficRecord("in", "invalid", b"\xff\xfe", 1.0, 1.0, "stdio")
    assert plain_frame_line(binary, 0.0) is None
    stderr = TrafficRecord("", "stderr", "hello", 1.0, 1.0, "stdio")
    assert plain_frame_line(stderr, 0.0) is None
