"""`note_record`: a note row, stamped now or on a session's own clock."""

from __future__ import annotations

import time

from inspector.traffic.record import note_record


def test_a_note_row_has_no_frame_and_no_direction() -> None:
    before = time.monotonic()
    record = note_record("watch mode on", "stdio", "watch mode")
    assert (record.direction, record.kind, record.raw) == ("", "note", "watch mode on")
    assert (record.transport, record.note, record.frame) == ("stdio", "watch mode", None)
    assert before <= record.mono <= time.monotonic()


def test_a_note_row_takes_the_session_clock_when_given() -> None:
    record = note_record("closed", "http", mono=12.5)
    assert record.mono == 12.5
    assert record.note is None
