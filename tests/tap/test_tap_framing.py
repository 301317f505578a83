"""The recording side's framing: lines cut from arbitrary chunks, kept exactly."""

from __future__ import annotations

from inspector.tap.framing import HEAD_KEPT, LineFramer


def test_lines_split_across_chunks_are_whole_frames() -> None:
    framer = LineFramer("out")
    assert framer.feed(b'{"jsonrpc":"2.0","id":1,"met', 1.0, 1.0) == []
    records = framer.feed(b'hod":"ping"}\n{"jsonrpc":"2.0","method":"x"}\npart', 2.0, 2.0)
    assert [r.kind for r in records] == ["request", "notification"]
    assert records[0].raw == '{"jsonrpc":"2.0","id":1,"method":"ping"}'
    assert records[0].direction == "out"
    assert records[0].mono == 2.0  # the time its last byte arrived
    tail = framer.finish(3.0, 3.0)
    assert [r.raw for r in tail] == ["part"]
    assert tail[0].kind == "invalid"
    assert tail[0].note is not None and "without a newline" in tail[0].note


def test_invalid_utf8_stays_bytes_and_crlf_is_kept() -> None:
    framer = LineFramer("in")
    records = framer.feed(b'\xff\xfe{"x":1}\n{"jsonrpc":"2.0","id":1,"result":{}}\r\n', 0, 0)
    assert records[0].raw == b'\xff\xfe{"x":1}'
    assert records[0].kind == "invalid"
    assert records[1].raw == '{"jsonrpc":"2.0","id":1,"result":{}}\r'
    assert records[1].kind == "response"


def test_non_json_and_blank_lines_are_invalid_frames_not_dropped() -> None:
    records = LineFramer("in").feed(b"hello world\n\n", 0, 0)
    assert [(r.raw, r.kind) for r in records] == [("hello world", "invalid"), ("", "invalid")]
    assert records[1].note is not None and "blank" in records[1].note


def test_an_over_long_line_keeps_its_head_and_full_size() -> None:
    framer = LineFramer("in", max_line=100_000)
    size = 300_000
    for i in range(0, size, 7000):
        framer.feed(b"a" * min(7000, size - i), 0, 0)
    (record,) = framer.feed(b"\n", 1, 1)
    assert record.truncated
    assert record.size == size
    assert len(record.raw) == HEAD_KEPT


def test_after_a_gap_the_broken_line_is_skipped() -> None:
    framer = LineFramer("out")
    framer.feed(b'{"jsonrpc":"2.0","id":1,', 0, 0)
    framer.gap()
    records = framer.feed(b'tail of a lost line"}\n{"jsonrpc":"2.0","method":"n"}\n', 0, 0)
    assert [r.raw for r in records] == ['{"jsonrpc":"2.0","method":"n"}']


def test_stderr_lines_are_stderr_records() -> None:
    records = LineFramer("stderr").feed(b"warn: x\r\n\xffbad\n", 0, 0)
    assert [(r.kind, r.raw) for r in records] == [("stderr", "warn: x"), ("stderr", "\ufffdbad")]
