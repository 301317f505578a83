"""Live lint in a headless run: the server's messages are linted behind a traffic log of
the run, and the session's protocol violations join their findings (one list, one count);
with `-v` each finding is printed on stderr (a violation's warning is printed already), and
`--record` keeps them in the session file.

A flood of notifications that differ only in a free-form member (a log's `data`) is
linted once per shape: `RepeatFilter` lets through the first of each shape and, once that
one was linted clean, counts the others as checked without logging them for the linter
(a million log lines cost the run a key each, not a parse and a schema check each). A
finding's row is still the file's row: the filter maps the linter's rows to the run's.
"""

from __future__ import annotations

import json
from array import array
from collections import deque
from collections.abc import Sequence
from typing import Final

from inspector.cli.errors import diag
from inspector.core.server_connection import ServerConnection
from inspector.lint import Finding, LintStore, LiveLinter
from inspector.lint.live import loop_scheduler
from inspector.lint.violations import is_violation, violation_finding
from inspector.protocol.machine.events import ProtocolViolation
from inspector.protocol.wire.jsonrpc import Notification
from inspector.recording.writer import SessionRecorder
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord

__all__ = ["RepeatFilter", "RunLint"]

_encode_text: Final = json.encoder.encode_basestring  # a string token as the recorder writes it
_QUIET_KINDS: Final = frozenset({"stderr", "note"})  # records that change no verdict
_SHAPES: Final = 8  # clean shapes kept per method


class RepeatFilter:
    """Which records of a run the linter must see. A record is skipped only when it is a
    server notification whose text equals, but for one string token (the one member of its
    `params` the schema leaves free), the text of one linted clean since the last event
    that could change a verdict (a frame other than a server notification, an HTTP
    exchange, a new session or version): it would be linted clean too, since a server
    notification changes nothing the linter knows. The token must be written plainly (as
    JSON encoders do) and once in the learnt text; everything else goes through."""

    def __init__(self, linter: LiveLinter) -> None:
        self.linter = linter
        self.epoch = 0  # bumped by anything that could change a verdict
        # method -> (text before the token, text after it) of clean shapes, this epoch
        self.clean: dict[str, list[tuple[str, str]]] = {}
        # (linter row, method, before, after, epoch) of rows whose verdict will teach a shape
        self._waiting: deque[tuple[int, str, str, str, int]] = deque()
        self._free: dict[str, str | None] = {}  # method -> its one free member, this epoch
        self.skipped = 0

    def changed(self) -> None:
        self.epoch += 1
        self.clean.clear()
        self._free.clear()  # (the version may have changed)

    def seen(self, record: TrafficRecord) -> bool:
        """Note a record going to the linter; True when it is a server notification (the
        only kind that may have a shape), else verdicts learnt so far no longer hold."""
        if type(record.frame) is Notification and record.direction == "in":
            return True
        if record.kind not in _QUIET_KINDS:
            self.changed()
        return False

    def _token(self, record: TrafficRecord) -> tuple[str, str] | None:
        """(method, the free member's string token) of a server notification, or None."""
        frame = record.frame
        if type(frame) is not Notification or not frame.params or type(record.raw) is not str:
            return None
        method = frame.method
        try:
            key = self._free[method]
        except KeyError:
            key = self._free[method] = self._free_member(method)
        if key is None:
            return None
        value = frame.params.get(key)
        if type(value) is not str:
            return None
        token = _encode_text(value)
        if len(token) != len(value) + 2:
            return None  # escapes in it: how the server wrote them is unknown
        return method, token

    def _free_member(self, method: str) -> str | None:
        bundle = self.linter.linter.bundle
        definition = bundle.notification_defs.get(method)
        free = bundle.free_params(definition) if definition else frozenset()
        return next(iter(free)) if len(free) == 1 else None

    def skip(self, record: TrafficRecord) -> tuple[str, str, str] | bool | None:
        """True when the record can be skipped; (method, before, after) when it must be
        linted and its verdict can teach a shape; None when it must be linted."""
        frame = record.frame
        if type(frame) is Notification and record.direction == "in" and frame.params:
            shapes = self.clean.get(frame.method)
            key = self._free.get(frame.method)
            if shapes and key is not None and self.known(record.raw, frame.params.get(key), shapes):
                self.skipped += 1
                return True
        if not self.seen(record):
            return None
        found = self._token(record)
        if found is None:
            return None
        method, token = found
        raw = record.raw
        assert type(raw) is str
        at = raw.find(token)
        if at < 1 or raw.find(token, at + 1) >= 0:
            return None  # not written once as we would write it: no shape
        return method, raw[:at], raw[at + len(token) :]

    @staticmethod
    def known(raw: object, value: object, shapes: list[tuple[str, str]]) -> bool:
        """Is `raw` one of the clean `shapes` with `value` (the free member) written
        plainly in its place?"""
        if type(value) is not str or not value.isprintable() or '"' in value or "\\" in value:
            return False
        if len(shapes) == 1:  # a flood: one shape (no generator to set up)
            before, after = shapes[0]
            return raw == f'{before}"{value}"{after}'
        return any(raw == f'{before}"{value}"{after}' for before, after in shapes)

    def wait_for(self, row: int, shape: tuple[str, str, str]) -> None:
        self._waiting.append((row, *shape, self.epoch))

    def linted(self, store: LintStore) -> None:
        """Rows the linter is done with: their shapes are clean unless they had a finding
        (or findings were dropped over the store's bound: then nothing is learnt)."""
        waiting = self._waiting
        if not waiting:
            return
        done = len(self.linter.traffic) - self.linter.behind
        while waiting and waiting[0][0] < done:
            row, method, before, after, epoch = waiting.popleft()
            if epoch == self.epoch and not store.has(row) and not store.dropped:
                shapes = self.clean.setdefault(method, [])
                if (before, after) not in shapes:
                    shapes.insert(0, (before, after))
                    del shapes[_SHAPES:]


class RunLint:
    def __init__(
        self, session: ServerConnection, *, verbose: bool, recorder: SessionRecorder | None
    ) -> None:
        self.traffic = TrafficLog()
        self.store = LintStore()
        # A listing over 1 MiB is left unlinted, as any huge row (nobody views it here), and
        # said so: linting 10,000 tools would hold the run's end for seconds.
        self.linter = LiveLinter(self.traffic, self.store, loop_scheduler, huge_listings=False)
        self.verbose = verbose
        self.recorder = recorder
        self.repeats = RepeatFilter(self.linter)
        self._rows: array[int] = array("q")  # the linter's row -> the run's row
        self._seen = 0  # records of the run so far
        self._last_skipped = False
        self.linter.begin_session()
        session.add_traffic_observer(self._observe, self._observe_many)
        session.add_listener(self._heard, notifications=())
        self.store.on_add(self._found)
        self.store.on_change(lambda: self.repeats.linted(self.store))

    def _observe(self, record: TrafficRecord) -> None:
        self.repeats.seen(record)  # a record alone is always linted
        self._log(record)

    def _observe_many(self, records: Sequence[TrafficRecord]) -> None:
        repeats = self.repeats
        known = repeats.known
        skipped = 0
        method: str | None = None  # the method of the clean shapes at hand (a flood: one)
        shapes: list[tuple[str, str]] | None = None
        key: str | None = None
        for record in records:
            frame = record.frame
            if type(frame) is Notification and record.direction == "in" and frame.params:
                if frame.method != method:
                    method = frame.method
                    shapes = repeats.clean.get(method)
                    key = repeats._free.get(method)
                if shapes and key is not None and known(record.raw, frame.params.get(key), shapes):
                    skipped += 1
                    continue
            method = None  # what follows may change what is clean
            if skipped:
                self._skipped(skipped)
                skipped = 0
            shape = repeats.skip(record)
            if shape is True:
                self._skipped(repeats.skipped)
                repeats.skipped = 0
                continue
            row = self._log(record)
            if isinstance(shape, tuple):
                repeats.wait_for(row, shape)
        if skipped:
            self._skipped(skipped)

    def _skipped(self, count: int) -> None:
        """`count` records of the run were skipped (known clean): checked all the same."""
        self._seen += count
        self._last_skipped = True
        self.store.add((), checked=count)

    def _log(self, record: TrafficRecord) -> int:
        self._rows.append(self._seen)
        self._seen += 1
        self._last_skipped = False
        return self.traffic.observe(record).index

    def ready(self, version: str | None) -> None:
        self.repeats.changed()
        self.linter.session_ready(version)

    def _heard(self, item: object) -> None:
        if not isinstance(item, ProtocolViolation):
            return
        self.repeats.changed()
        if self._last_skipped:  # about a row the linter never saw: kept as it is
            finding = violation_finding(-1, item.rule, item.message, self.linter.linter.version)
            self.store.add([finding])  # counted; `_found` leaves a row of -1 to this:
            self._keep(self._seen - 1, finding)
            return
        self.linter.violation(item.rule, item.message)  # about the frame logged last

    def _found(self, findings: list[Finding]) -> None:
        for finding in findings:
            if self.verbose and not is_violation(finding):
                row = self.traffic.row(finding.index)
                what = row[2] or row[1]
                diag(f"lint: {what}: {finding.line()}")
            if finding.index >= 0:
                self._keep(self._rows[finding.index], finding)

    def _keep(self, row: int, finding: Finding) -> None:
        if self.recorder is not None:
            self.recorder.lint(row, finding)

    def finish(self) -> None:
        """Lint what is left (the run is over), and say how it went with `-v`."""
        self.linter.release()
        self.linter.flush()
        self.linter.close()
        if self.verbose:
            counts = ", ".join(f"{rule} ×{n}" for rule, n in sorted(self.store.counts.items()))
            skipped = sorted(self.store.deferred)
            diag(
                f"lint: {self.store.checked - len(skipped)} server message(s) checked, "
                f"{len(self.store)} finding(s)"
                + (f": {counts}" if counts else "")
                + (
                    f"; {len(skipped)} over 1 MiB not linted ("
                    + ", ".join(f"#{i} {self.traffic.row(i)[2] or 'message'}" for i in skipped)
                    + ": the window lints them)"
                    if skipped
                    else ""
                )
            )
