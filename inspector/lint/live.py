"""Live lint: follows a traffic log and lints the server's messages off the hot path.

The log only tells us it grew (one flag check per message); the rows are linted later, in
batches on the event loop, each batch bounded in time. While traffic keeps arriving the
linter takes at most `share` of the loop's time (a flood is ingested at full speed and
linted behind it); once the log is quiet it catches up at full speed. Rows over `huge`
bytes are not parsed here: they are linted when someone looks at them (`lint_now`).
The session's protocol violations join the findings of their rows (`violation`): one list.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any, Final

from inspector.lint.finding import Finding, LintStore
from inspector.lint.messages import MessageLinter
from inspector.lint.violations import violation_finding, without_duplicates
from inspector.traffic.log import TrafficLog

__all__ = ["HUGE", "LiveLinter", "Scheduler", "loop_scheduler"]

log = logging.getLogger(__name__)

Scheduler = Callable[[float, Callable[[], None]], bool]
"""Run a callback after a delay in seconds; False when it cannot (no loop)."""


def loop_scheduler(delay: float, callback: Callable[[], None]) -> bool:
    """The running asyncio loop's `call_later` (qasync's in the app). Without a running
    loop nothing is scheduled: the rows wait for the next growth inside one, or `flush`."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return False
    if delay > 0:
        loop.call_later(delay, callback)
    else:
        loop.call_soon(callback)
    return True


HUGE: Final = 1 << 20  # bytes: bigger rows are linted when viewed
_PAIRED_CONTEXT: Final = frozenset(
    {"tools/call", "tools/list", "prompts/list", "resources/list", "resources/templates/list"}
)
_CHUNK: Final = 8  # rows between clock reads
# An invalid frame is the core's to flag; it is linted only for what the core cannot know
# (an answer to one of our notifications).
_LINTED: Final = frozenset({"notification", "request", "response", "error", "invalid"})


class LiveLinter:
    def __init__(
        self,
        traffic: TrafficLog,
        store: LintStore,
        schedule: Scheduler,
        *,
        budget: float = 0.004,
        share: float = 0.05,
        huge: int = HUGE,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.traffic = traffic
        self.store = store
        self._schedule = schedule
        self.budget = budget
        self.share = share
        self.huge = huge
        self._clock = clock
        self.enabled = True
        self.linter = MessageLinter()
        self._next = 0  # the next row to lint
        self._hold: int | None = None  # rows from here wait for the session's version
        self._starts: list[tuple[int, str | None]] = []  # (first row, version) of sessions
        self._pending = False
        self._len_after_run = 0
        self._checked = 0  # server messages linted in this batch (the store counts them)
        self._violations: dict[int, list[Finding]] = {}  # row -> the session's, not linted yet
        self._unsubscribe = [traffic.on_grow(self._grown), traffic.on_clear(self._cleared)]

    def close(self) -> None:
        self.enabled = False
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []

    # -- sessions --------------------------------------------------------------
    def begin_session(self, version: str | None = None) -> None:
        """A session starts at the next row: its rows wait until `session_ready` (or
        `release`) says which version judges them; `version` is the best guess so far."""
        row = len(self.traffic)
        self._starts.append((row, version))
        self._hold = row

    def session_ready(self, version: str | None) -> None:
        """The session's version is known: its rows are linted against it."""
        if self._hold is not None and self._starts and self._starts[-1][0] == self._hold:
            self._starts[-1] = (self._hold, version)
        elif version is not None:
            self.linter.version = version
        self.release()

    def release(self) -> None:
        self._hold = None
        self._grown()

    def violation(self, rule: str, message: str, index: int | None = None) -> None:
        """The session reported a protocol violation at traffic row `index` (None: the
        log's last row, the frame that broke the rule). It is a finding of that row, added
        when the row is linted (the linter's own finding of the same fault wins)."""
        if index is None:
            index = len(self.traffic) - 1
        finding = violation_finding(index, rule, message, self.linter.version)
        if index < self._next:  # that row is linted already (or there is no row: -1)
            self.store.add(without_duplicates([finding], self.store.at(index)))
        else:
            self._violations.setdefault(index, []).append(finding)

    @property
    def behind(self) -> int:
        """Rows not linted yet."""
        return len(self.traffic) - self._next

    # -- scheduling --------------------------------------------------------------
    def _grown(self) -> None:
        if not self._pending and self.enabled:
            self._pending = self._schedule(0.0, self._run)

    def _cleared(self) -> None:
        self._next = 0
        self._starts = [(0, self.linter.version)] if self._hold is None else [(0, None)]
        self._hold = 0 if self._hold is not None else None
        self._len_after_run = 0
        self._violations.clear()
        self.store.clear()

    def _run(self) -> None:
        self._pending = False
        if not self.enabled:
            return
        start = self._clock()
        flowing = len(self.traffic) > self._len_after_run
        self._lint_until(start + self.budget)
        self._len_after_run = len(self.traffic)
        if self._next < self._end():
            spent = self._clock() - start
            delay = spent * (1.0 - self.share) / self.share if flowing else 0.0
            self._pending = self._schedule(delay, self._run)

    def _end(self) -> int:
        return len(self.traffic) if self._hold is None else min(self._hold, len(self.traffic))

    def flush(self) -> None:
        """Lint every row that can be linted now (the CLI's end, a save, tests)."""
        self._lint_until(None)

    def _lint_until(self, deadline: float | None) -> None:
        found = []
        clock = self._clock
        try:
            while True:
                end = self._end()
                if self._next >= end:
                    break
                stop = min(end, self._next + _CHUNK)
                for index in range(self._next, stop):
                    self._next = index + 1
                    row = self._lint_row(index)
                    if self._violations:
                        row += without_duplicates(self._violations.pop(index, ()), row)
                    found += row
                if deadline is not None and clock() >= deadline:
                    break
        finally:
            checked, self._checked = self._checked, 0
            self.store.add(found, checked=checked)

    # -- one row ---------------------------------------------------------------
    def _lint_row(self, index: int) -> list[Any]:
        starts = self._starts
        while starts and starts[0][0] <= index:
            self.linter.reset(starts.pop(0)[1])
        direction, kind, method, _wall, size, _lat = self.traffic.row(index)
        if direction == "out":
            if kind in ("request", "notification"):
                self.linter.outgoing(kind)
            return []
        if kind == "http":
            exchange = self.traffic.entries[index].http
            if exchange is None:
                return []
            return self.linter.http_headers(index, exchange.response_headers)
        if direction != "in" or kind not in _LINTED:
            return []
        self._checked += 1
        if size > self.huge:
            self.store.deferred.add(index)
            return []
        return self._lint_message(index, kind, method)

    def _lint_message(self, index: int, kind: str, method: str | None) -> list[Any]:
        entry = self.traffic.entries[index]
        try:
            value = json.loads(entry.raw)
        except (ValueError, RecursionError):
            return []  # the core flags invalid frames
        request = None
        if method in _PAIRED_CONTEXT and entry.pair >= 0:
            try:
                request = json.loads(self.traffic.entries[entry.pair].raw)
            except (ValueError, RecursionError):
                request = None
        try:
            return self.linter.incoming(index, kind, method, value, request)
        except RecursionError:  # a hostile, deeply nested message
            log.warning("row %d is nested too deeply to lint", index)
            return []

    def lint_now(self, index: int) -> None:
        """Lint a huge row that was deferred (the user is looking at it). Parsing and
        validating megabytes must not freeze the window: with a running loop it happens on
        a worker thread (a fresh linter: the schema and the rules of one message), and the
        findings are added on the loop's thread when they are ready."""
        if index not in self.store.deferred:
            return
        self.store.deferred.discard(index)
        _direction, kind, method, *_ = self.traffic.row(index)
        raw = self.traffic.entries[index].raw
        version = self.linter.version

        def work() -> list[Finding]:
            try:
                value = json.loads(raw)
            except (ValueError, RecursionError):
                return []
            try:
                return MessageLinter(version).incoming(index, kind, method, value)
            except RecursionError:
                return []

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.store.add(work())
            return
        future = loop.run_in_executor(None, work)
        future.add_done_callback(
            lambda done: self.store.add(done.result()) if not done.cancelled() else None
        )
