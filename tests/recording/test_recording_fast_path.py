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


def test_a_mixed_batch_is_formatted_as_the_general_path_line_by_line() -> None:
    """One batch, frames of every kind and both directions in turn: the middle of a line
    formatted once per run of equal ones is never carried over to a different frame."""
    from inspector.recording.format import plain_frame_lines

    raws = [
        ('{"jsonrpc":"2.0","method":"notifications/message","params":{}}', "in"),
        ('{"jsonrpc":"2.0","method":"notifications/progress","params":{}}', "in"),
        ('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}', "out"),
        ('{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{}}', "in"),
        ('{"jsonrpc":"2.0","id":3,"result":{}}', "in"),
        ('{"jsonrpc":"2.0","id":4,"error":{"code":-1,"message":"no"}}', "in"),
        ('{"jsonrpc":"2.0","id":4.5,"result":{}}', "in"),
        ("not json", "in"),
        ('{"jsonrpc":"2.0","method":"notifications/message","params":{}}', "in"),
    ]
    records = [_record(raw, direction) for raw, direction in raws]
    for record in records:
        record.note = None
    lines = plain_frame_lines(records, 99.0)
    for record, line in zip(records, lines, strict=True):
        general = json.dumps(record_line(record, 99.0), ensure_ascii=False, separators=(",", ":"))
        assert line == general
