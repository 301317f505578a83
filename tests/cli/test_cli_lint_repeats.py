"""The run's live lint under a flood (issue 27, "recording costs little"): notifications
that differ only in a free-form member are linted once per shape, yet every message is
counted as checked and a finding lands on the file's row of its message."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, cast

from inspector.cli.live_lint import RunLint
from inspector.core.server_connection import ServerConnection
from inspector.lint import Finding
from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.recording.writer import SessionRecorder
from inspector.traffic.record import TrafficRecord

Many = Callable[[Sequence[TrafficRecord]], None]


class _Session:
    """What RunLint needs of a connection: its traffic and its events."""

    def __init__(self) -> None:
        self.many: Many | None = None
        self.one: Callable[[TrafficRecord], None] | None = None

    def add_traffic_observer(
        self, one: Callable[[TrafficRecord], None], many: Many | None = None
    ) -> None:
        self.one = one
        self.many = many or self._one_by_one

    def _one_by_one(self, records: Sequence[TrafficRecord]) -> None:
        assert self.one is not None
        for record in records:
            self.one(record)

    def add_listener(self, _listener: object, notifications: object = ()) -> None:
        pass


class _Recorder:
    def __init__(self) -> None:
        self.lint_rows: list[tuple[int, Finding]] = []

    def lint(self, row: int, finding: Finding) -> None:
        self.lint_rows.append((row, finding))


def _log(n: int, level: str = "info", **extra: Any) -> TrafficRecord:
    text = json.dumps(
        {
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": {"level": level, "logger": "flood", "data": f"flood line {n}"},
            **extra,
        },
        separators=(",", ":"),
    )
    return TrafficRecord("in", "notification", text, 1.0, 2.0, "stdio", parse_frame(text))


def _run() -> tuple[RunLint, _Session, _Recorder]:
    session, recorder = _Session(), _Recorder()
    lint = RunLint(
        cast(ServerConnection, session),
        verbose=False,
        recorder=cast(SessionRecorder, recorder),
    )
    lint.ready("2025-06-18")
    return lint, session, recorder


def test_a_flood_of_one_shape_is_linted_once_and_its_odd_message_found() -> None:
    lint, session, recorder = _run()
    assert session.many is not None
    session.many([_log(n) for n in range(10)])
    lint.linter.flush()  # what the event loop does soon after a batch
    batch = [_log(n) for n in range(10, 110)]
    batch[50] = _log(60, level="loud")  # not a level: a schema finding
    session.many(batch)
    lint.finish()
    # The linter logged the first batch, the odd one, and nothing else of the flood...
    assert len(lint.traffic) == 11
    # ...yet every message counts as checked, and the finding is on the file's row 60.
    assert lint.store.checked == 110
    assert [row for row, _f in recorder.lint_rows] == [60]
    assert recorder.lint_rows[0][1].rule.startswith("schema.")


def test_what_could_change_a_verdict_makes_the_shape_linted_again() -> None:
    lint, session, _recorder = _run()
    assert session.many is not None and session.one is not None
    session.many([_log(0)])
    lint.linter.flush()
    session.many([_log(1), _log(2)])
    assert len(lint.traffic) == 1  # known clean: skipped
    out = '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    session.one(TrafficRecord("out", "notification", out, 1.0, 2.0, "stdio", parse_frame(out)))
    session.many([_log(3)])  # after one of ours: linted again
    assert len(lint.traffic) == 3
    # A member more at the top level is another shape: linted.
    lint.linter.flush()
    session.many([_log(4, extra=1), _log(5)])
    assert len(lint.traffic) == 4
    lint.finish()
    assert lint.store.checked == 6
