"""Live lint: follows a traffic log and lints the server's messages off the hot path.

The log only tells us it grew (one flag check per message); the rows are linted later, in
batches on the event loop, each batch bounded in time. While traffic keeps arriving the
linter takes at most `share` of the loop's time (a flood is ingested at full speed and
linted behind it); once the log is quiet it catches up at full speed. Rows over `huge`
bytes are not parsed here: they are linted when someone looks at them (`lint_now`).
The session's protocol violations join the findings of their rows (`violation`): one list.

A big listing (a gateway's 10,000 tools) is linted item by item across batches
(`ListingLint`), its progress in the store (`LintStore.progress`); the rows after it wait,
as they depend on it (the tools' output schemas, the next page's names). One over `huge`
bytes is parsed on a daemon thread first. Nothing here is waited for: closing the linter
(or ending the loop) drops what is left, and a thread still parsing is forgotten.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from inspector.lint.finding import Finding, LintStore
from inspector.lint.listing_lint import LISTINGS, ListingLint
from inspector.lint.messages import MessageLinter
from inspector.lint.violations import violation_finding, without_duplicates
from inspector.traffic.log import TrafficLog

__all__ = ["HUGE", "LiveLinter", "Scheduler", "loop_scheduler", "off_loop"]

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


def off_loop(work: Callable[[], Any], deliver: Callable[[Any], None], name: str) -> bool:
    """Run `work` on a daemon thread and `deliver` its result on the running loop's
    thread; False (nothing started) without a running loop. Nobody waits for the thread:
    when the loop has ended by the time it is done, its result is dropped (it touches
    nothing but the loop's queue, so it can outlive the app's objects)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return False

    def run() -> None:
        try:
            result = work()
        except Exception:  # a worker must not die silently, nor take the app down
            log.exception("%s failed", name)
            return
        with contextlib.suppress(RuntimeError):  # a closed loop: the app has quit
            loop.call_soon_threadsafe(deliver, result)

    threading.Thread(target=run, name=name, daemon=True).start()
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
        huge_listings: bool = True,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.traffic = traffic
        self.store = store
        self._schedule = schedule
        self.budget = budget
        self.share = share
        self.huge = huge
        # A listing over `huge` bytes: linted in slices (the window, where a person looks at
        # the Lint tab), or left for when it is viewed like any huge row (a terminal run,
        # which would wait for it at its end: seconds for 10,000 tools).
        self.huge_listings = huge_listings
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
        self._job: ListingLint | None = None  # a big listing being linted
        self._parsing: int | None = None  # a huge listing's row, parsed off the loop
        self._generation = 0  # bumped when the log is cleared: late parses are dropped
        self._unsubscribe = [traffic.on_grow(self._grown), traffic.on_clear(self._cleared)]

    def close(self) -> None:
        self.enabled = False
        self._drop_job()
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
        """Rows not linted yet (a listing being linted counts as one)."""
        busy = self._job is not None or self._parsing is not None
        return len(self.traffic) - self._next + (1 if busy else 0)

    @property
    def busy(self) -> bool:
        """A big listing is being parsed or linted."""
        return self._job is not None or self._parsing is not None

    def _drop_job(self) -> None:
        if self._job is not None:
            self.store.set_progress(self._job.index, None)
        if self._parsing is not None:
            self.store.set_progress(self._parsing, None)
        self._job = None
        self._parsing = None

    # -- scheduling --------------------------------------------------------------
    def _grown(self) -> None:
        if not self._pending and self.enabled:
            self._pending = self._schedule(0.0, self._run)

    def _cleared(self) -> None:
        self._drop_job()
        self._generation += 1
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
        if self._parsing is None and (self._job is not None or self._next < self._end()):
            spent = self._clock() - start
            delay = spent * (1.0 - self.share) / self.share if flowing else 0.0
            self._pending = self._schedule(delay, self._run)

    def _end(self) -> int:
        return len(self.traffic) if self._hold is None else min(self._hold, len(self.traffic))

    def flush(self) -> None:
        """Lint every row that can be linted now (the CLI's end, a save, tests): a
        listing still being parsed off the loop is parsed here."""
        if self._parsing is not None:
            self._parsed(self._parsing, self._generation, self._parse_listing(self._parsing))
        self._lint_until(None)

    def _lint_until(self, deadline: float | None) -> None:
        found: list[Finding] = []
        clock = self._clock
        try:
            while self._parsing is None:
                if self._job is not None:
                    found += self._job_step(deadline)
                    if self.busy:
                        break  # out of time
                    continue
                end = self._end()
                if self._next >= end:
                    break
                stop = min(end, self._next + _CHUNK)
                for index in range(self._next, stop):
                    self._next = index + 1
                    row = self._lint_row(index)
                    if self.busy:
                        break  # a big listing: linted in slices from here
                    if self._violations:
                        row += without_duplicates(self._violations.pop(index, ()), row)
                    found += row
                if deadline is not None and clock() >= deadline:
                    break
        finally:
            checked, self._checked = self._checked, 0
            self.store.add(found, checked=checked)

    def _job_step(self, deadline: float | None) -> list[Finding]:
        job = self._job
        assert job is not None
        found = job.step(deadline, self._clock)
        if not job.finished:
            self.store.set_progress(job.index, (job.done, job.total, job.noun))
            return found
        self._job = None
        self.store.set_progress(job.index, None)
        self._checked += 1
        row = self.store.at(job.index) + found
        found += without_duplicates(self._violations.pop(job.index, ()), row)
        return found

    def _start_listing(
        self, index: int, method: str | None, value: Any, request: dict[str, Any] | None
    ) -> bool:
        """Lint this response in slices if it is a big listing (True)."""
        job = ListingLint.start(self.linter, index, method, value, request)
        if job is None:
            return False
        self._job = job
        self.store.set_progress(index, (0, job.total, job.noun))
        return True

    def _parse_listing(self, index: int) -> tuple[Any, dict[str, Any] | None]:
        entry = self.traffic.entries[index]
        return _parsed(entry.raw), (
            _parsed(self.traffic.entries[entry.pair].raw) if entry.pair >= 0 else None
        )

    def _parsed(
        self, index: int, generation: int, parsed: tuple[Any, dict[str, Any] | None]
    ) -> None:
        """A huge listing is parsed: lint it in slices (or at once if it is not a big
        listing after all)."""
        if generation != self._generation or not self.enabled or self._parsing != index:
            return  # the log was cleared, or the linter closed, meanwhile
        self._parsing = None
        value, request = parsed
        _direction, kind, method, *_ = self.traffic.row(index)
        if not self._start_listing(index, method, value, request):
            self.store.set_progress(index, None)
            self._checked += 1
            found = self._lint_value(index, kind, method, value, request)
            found += without_duplicates(self._violations.pop(index, ()), found)
            checked, self._checked = self._checked, 0
            self.store.add(found, checked=checked)
        self._grown()

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
        if size > self.huge:
            if kind == "response" and method in LISTINGS and self.huge_listings:
                return self._parse_huge_listing(index)
            self._checked += 1
            self.store.deferred.add(index)
            return []
        entry = self.traffic.entries[index]
        value = _parsed(entry.raw)
        if value is None:
            self._checked += 1
            return []  # the core flags invalid frames
        request = None
        if method in _PAIRED_CONTEXT and entry.pair >= 0:
            request = _parsed(self.traffic.entries[entry.pair].raw)
        if kind == "response" and self._start_listing(index, method, value, request):
            return []  # counted when its last slice is done
        self._checked += 1
        return self._lint_value(index, kind, method, value, request)

    def _parse_huge_listing(self, index: int) -> list[Any]:
        """A listing over `huge` bytes: parsed on a daemon thread, then linted in slices."""
        self._parsing = index
        self.store.set_progress(index, (0, 0, "items"))
        generation = self._generation
        if not off_loop(
            lambda: self._parse_listing(index),
            lambda parsed: self._parsed(index, generation, parsed),
            "lint-parse",
        ):
            self._parsed(  # no loop (a flush): parse it here
                index, generation, self._parse_listing(index)
            )
        return []

    def _lint_value(
        self, index: int, kind: str, method: str | None, value: Any, request: Any
    ) -> list[Any]:
        try:
            return self.linter.incoming(index, kind, method, value, request)
        except RecursionError:  # a hostile, deeply nested message
            log.warning("row %d is nested too deeply to lint", index)
            return []

    def lint_now(self, index: int) -> None:
        """Lint a huge row that was deferred (the user is looking at it). Parsing and
        validating megabytes must not freeze the window: with a running loop it happens on
        a daemon worker thread (a fresh linter: the schema and the rules of one message),
        and the findings are added on the loop's thread when they are ready; quitting
        does not wait for it."""
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

        if not off_loop(work, self.store.add, "lint-huge-row"):
            self.store.add(work())


def _parsed(raw: str | bytes) -> Any:
    """A frame's JSON value (None: it does not parse)."""
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None
