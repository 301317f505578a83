"""The live linter: off the log's hot path, in bounded batches, a session's rows held until
its version is known, huge rows left for when they are viewed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from inspector.lint import LintStore, LiveLinter
from inspector.lint.messages import MessageLinter
from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord, kind_of
from tests.helpers.waiting import until


class ManualScheduler:
    def __init__(self) -> None:
        self.calls: list[tuple[float, Callable[[], None]]] = []

    def __call__(self, delay: float, callback: Callable[[], None]) -> bool:
        self.calls.append((delay, callback))
        return True

    def run_one(self) -> float:
        delay, callback = self.calls.pop(0)
        callback()
        return delay


class FakeClock:
    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def add(log: TrafficLog, direction: str, message: dict[str, object]) -> None:
    raw = json.dumps(message)
    frame = parse_frame(raw)
    log.observe(TrafficRecord(direction, kind_of(frame), raw, 0.0, 0.0, "stdio", frame))  # type: ignore[arg-type]


BAD_LOG = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "x", "data": 1}}
GOOD_LOG = {
    "jsonrpc": "2.0",
    "method": "notifications/message",
    "params": {"level": "info", "data": 1},
}


def test_nothing_is_linted_on_the_append_only_scheduled() -> None:
    log, store, sched = TrafficLog(), LintStore(), ManualScheduler()
    LiveLinter(log, store, sched)
    for _ in range(100):
        add(log, "in", BAD_LOG)
    assert len(store) == 0 and len(sched.calls) == 1  # one batch asked for, not 100
    while sched.calls:
        sched.run_one()
    assert store.counts["schema.enum"] == 100 and store.checked == 100
    assert store.rows() == list(range(100))


def test_a_clean_batch_is_heard_its_messages_counted() -> None:
    """A clean server's messages change only the linted count; whoever shows the count (the
    Lint tab) must hear it (issue 26: "0 server message(s) linted" beside a full log)."""
    log, store, sched = TrafficLog(), LintStore(), ManualScheduler()
    LiveLinter(log, store, sched)
    changes: list[int] = []
    added: list[int] = []
    store.on_change(lambda: changes.append(store.checked))
    store.on_add(lambda batch: added.append(len(batch)))
    for _ in range(3):
        add(log, "in", GOOD_LOG)
    add(log, "out", GOOD_LOG)  # ours: not linted, not counted
    while sched.calls:
        sched.run_one()
    assert changes == [3] and added == []  # one batch, heard once; no findings
    add(log, "in", BAD_LOG)
    while sched.calls:
        sched.run_one()
    assert changes == [3, 4] and added == [1]


def test_a_flood_gets_a_bounded_share_of_the_loop() -> None:
    log, store, sched = TrafficLog(), LintStore(), ManualScheduler()
    linter = LiveLinter(log, store, sched, budget=0.004, share=0.1, clock=FakeClock(0.001))
    for _ in range(500):
        add(log, "in", GOOD_LOG)
    sched.run_one()  # the first batch: stops at its budget
    assert 0 < store.checked < 500
    for _ in range(100):  # traffic keeps coming: the next batch waits 9x its time
        add(log, "in", GOOD_LOG)
    delay = sched.calls[0][0]
    assert delay > 0.02
    sched.run_one()  # it saw the log grow: it waits again
    assert sched.calls[0][0] > 0.02
    sched.run_one()
    quiet_delay = sched.calls[0][0]  # the log was quiet since: catch up at once
    assert quiet_delay == 0.0
    while sched.calls:
        sched.run_one()
    assert store.checked == 600 and linter.behind == 0


def test_a_sessions_rows_wait_for_its_version() -> None:
    log, store, sched = TrafficLog(), LintStore(), ManualScheduler()
    linter = LiveLinter(log, store, sched)
    linter.begin_session()
    modern_only = {
        "jsonrpc": "2.0",
        "method": "notifications/subscriptions/acknowledged",
        "params": {},
    }
    add(log, "in", modern_only)
    while sched.calls:
        sched.run_one()
    assert store.checked == 0 and linter.behind == 1  # held
    linter.session_ready("2026-07-28")
    while sched.calls:
        sched.run_one()
    assert store.checked == 1
    assert "unknown-method" not in store.counts  # judged by 2026-07-28, where it exists


def test_huge_rows_are_linted_when_viewed() -> None:
    log, store, sched = TrafficLog(), LintStore(), ManualScheduler()
    linter = LiveLinter(log, store, sched, huge=200)
    big = dict(BAD_LOG, params={"level": "x", "data": "y" * 500})
    add(log, "in", big)
    linter.flush()
    assert store.deferred == {0} and len(store) == 0
    linter.lint_now(0)
    assert store.deferred == set() and store.counts["schema.enum"] == 1


def test_clearing_the_log_clears_the_findings() -> None:
    log, store, sched = TrafficLog(), LintStore(), ManualScheduler()
    linter = LiveLinter(log, store, sched)
    add(log, "in", BAD_LOG)
    linter.flush()
    assert len(store) == 1
    log.clear()
    assert len(store) == 0
    add(log, "in", BAD_LOG)
    linter.flush()
    assert store.rows() == [0]


def test_hostile_rows_never_stop_the_linter() -> None:
    log, store, sched = TrafficLog(), LintStore(), ManualScheduler()
    linter = LiveLinter(log, store, sched)
    deep = (
        '{"jsonrpc":"2.0","method":"notifications/message","params":'
        + "[" * 5000
        + "]" * 5000
        + "}"
    )
    for raw in ("not json", deep, '{"jsonrpc":"2.0","id":null,"result":{}}', "[1,2]"):
        frame = parse_frame(raw)
        log.observe(TrafficRecord("in", kind_of(frame), raw, 0.0, 0.0, "stdio", frame))
    add(log, "in", BAD_LOG)
    linter.flush()
    assert store.counts["schema.enum"] == 1 and linter.behind == 0


def test_without_a_loop_nothing_runs_until_flush() -> None:
    from inspector.lint.live import loop_scheduler

    log, store = TrafficLog(), LintStore()
    linter = LiveLinter(log, store, loop_scheduler)
    add(log, "in", BAD_LOG)
    assert len(store) == 0
    linter.flush()
    assert len(store) == 1


async def test_a_huge_row_viewed_is_linted_on_a_worker_thread() -> None:
    from inspector.lint.live import loop_scheduler

    log, store = TrafficLog(), LintStore()
    linter = LiveLinter(log, store, loop_scheduler, huge=200)
    add(log, "in", dict(BAD_LOG, params={"level": "x", "data": "y" * 500}))
    linter.flush()
    assert store.deferred == {0}
    linter.lint_now(0)
    assert len(store) == 0  # nothing parsed on the caller's (the window's) thread
    for _ in range(200):
        if len(store):
            break
        await asyncio.sleep(0.01)
    assert store.counts["schema.enum"] == 1 and store.deferred == set()
    linter.lint_now(0)  # once only
    await asyncio.sleep(0.05)  # not a wait: a second lint would have landed by now
    assert len(store) == 1


def test_a_flood_of_one_broken_rule_is_counted_not_kept() -> None:
    log, sched = TrafficLog(), ManualScheduler()
    store = LintStore(keep_per_rule=50)
    linter = LiveLinter(log, store, sched)
    for _ in range(300):
        add(log, "in", BAD_LOG)
    linter.flush()
    assert store.counts["schema.enum"] == 300  # exact
    assert len(store.by_rule("schema.enum")) == 50 and store.dropped == 250
    assert store.has(49) and not store.has(299)  # badges for the kept ones


def test_the_sessions_violations_are_findings_of_their_rows() -> None:
    """Issue 26, item 10: one list, one count. A violation joins its row's findings; one the
    linter finds on that row by a rule of its own (an unknown method) is counted once."""
    log, store, sched = TrafficLog(), LintStore(), ManualScheduler()
    linter = LiveLinter(log, store, sched)
    add(log, "in", GOOD_LOG)
    linter.violation("batch", "a batch in 2025-06-18")  # the last row: 0
    add(log, "in", {"jsonrpc": "2.0", "method": "notifications/nope", "params": {}})
    linter.violation("unknown-notification", "notifications/nope is not one")  # row 1
    linter.violation("lifecycle", "before the initialize response", 1)
    assert len(store) == 0  # waits for its row to be linted
    while sched.calls:
        sched.run_one()
    assert [(f.index, f.rule) for f in store.findings] == [
        (0, "protocol.batch"),
        (1, "unknown-method"),
        (1, "protocol.lifecycle"),
    ]
    assert store.checked == 2
    assert store.findings[0].where.startswith("basic § JSON-RPC")
    # A violation about a row linted already is added at once.
    linter.violation("progress-token", "no request holds it", 0)
    assert store.counts["protocol.progress-token"] == 1 and store.at(0)[-1].index == 0
    # Pending violations go with the log when it is cleared.
    add(log, "in", GOOD_LOG)
    linter.violation("batch", "again")
    log.clear()
    while sched.calls:
        sched.run_one()
    assert len(store) == 0


def catalog_rows(log: TrafficLog, n: int) -> list[tuple[str, dict[str, Any]]]:
    """A tools/list of `n` tools (some broken) and its request, then a tools/call whose
    result breaks the outputSchema of one of them (a row that needs the listing linted).
    Returns the (method, message) of the server's two answers, with their requests."""
    from tests.lint.test_listing_lint import big_catalog

    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    tools = big_catalog(n, "2025-06-18")
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "gw__tool_21"}}
    result = {"content": [], "structuredContent": {"n": "not a number"}}
    called = {"jsonrpc": "2.0", "id": 3, "result": result}
    for direction, message in (("out", listing), ("in", tools), ("out", call), ("in", called)):
        add(log, direction, message)
    return [("tools/list", listing), ("tools/list", tools), ("tools/call", call), ("", called)]


def test_a_big_listing_is_linted_in_slices_its_progress_truthful() -> None:
    """Issue 27: a 10,000-tool listing is not linted in one go (seconds of a frozen window):
    slice by slice, the store says how far it is; the rows after it wait for it; once done,
    its findings are those of linting it at once."""
    log, store, sched = TrafficLog(), LintStore(), ManualScheduler()
    linter = LiveLinter(log, store, sched, budget=0.004, clock=FakeClock(0.001))
    linter.session_ready("2025-06-18")
    rows = catalog_rows(log, 2000)
    sched.run_one()
    done, total, noun = store.progress[1]
    assert 0 < done < total == 2000 and noun == "tools" and linter.busy
    assert store.progress_text() == f"linting {done:,} of 2,000 tools (row #1)…"
    assert store.checked == 0 and not store.has(3)  # the tools/call waits
    seen = [done]
    while sched.calls:
        sched.run_one()
        if 1 in store.progress:
            seen.append(store.progress[1][0])
    assert seen == sorted(seen) and len(seen) > 10  # it moved on, slice by slice
    assert store.progress == {} and store.progress_text() == "" and not linter.busy
    assert store.checked == 2
    # The same findings as linting each message at once.
    eager = MessageLinter("2025-06-18")
    (_, ask), (_, listed), (_, call), (_, called) = rows
    at_once = eager.incoming(1, "response", "tools/list", listed, ask)
    at_once += eager.incoming(3, "response", "tools/call", called, call)
    assert sorted(store.findings, key=repr) == sorted(at_once, key=repr)
    assert store.counts["structured-content-schema"] == 1  # the call, after the listing


def test_closing_the_linter_mid_listing_drops_the_rest() -> None:
    """Quitting never waits for a big listing's lint: closing the linter (as a tab that
    closes does) leaves its slices undone, and says nothing is in progress any more."""
    log, store, sched = TrafficLog(), LintStore(), ManualScheduler()
    linter = LiveLinter(log, store, sched, budget=0.004, clock=FakeClock(0.001))
    catalog_rows(log, 2000)
    sched.run_one()
    assert linter.busy and store.progress
    done = store.progress[1][0]
    linter.close()
    assert not linter.busy and store.progress == {}
    while sched.calls:  # a slice scheduled already runs to nothing
        sched.run_one()
    assert store.checked == 0 and not sched.calls and done < 2000


async def test_a_huge_listing_is_parsed_on_a_daemon_thread_then_sliced() -> None:
    """A listing over `huge` bytes is parsed off the loop (a daemon thread: nothing waits for
    it at exit) and linted in slices on the loop; the window's thread never parses it."""
    import threading

    from inspector.lint.live import loop_scheduler

    log, store = TrafficLog(), LintStore()
    linter = LiveLinter(log, store, loop_scheduler, huge=10_000)
    linter.session_ready("2025-06-18")
    threads: list[threading.Thread] = []
    real_start = threading.Thread.start

    def start(thread: threading.Thread) -> None:
        threads.append(thread)
        real_start(thread)

    threading.Thread.start = start  # type: ignore[method-assign]
    try:
        catalog_rows(log, 600)
        await until(lambda: store.checked == 2, "the listing and the call linted")
    finally:
        threading.Thread.start = real_start  # type: ignore[method-assign]
    assert [(t.name, t.daemon) for t in threads] == [("lint-parse", True)]
    assert store.counts["unique-names"] == 1 and store.counts["structured-content-schema"] == 1
    assert store.progress == {}


def test_a_worker_done_after_the_loop_ended_drops_its_result() -> None:
    """The app quit while a worker parsed: asyncio.run returned without waiting for it,
    and its result, delivered to a closed loop, is dropped without an error."""
    import threading

    from inspector.lint.live import off_loop

    release = threading.Event()
    delivered: list[object] = []

    async def app() -> None:
        assert off_loop(release.wait, delivered.append, "lint-test-worker")

    asyncio.run(app())  # returns with the worker still blocked: nothing waited for it
    [worker] = [t for t in threading.enumerate() if t.name == "lint-test-worker"]
    assert worker.daemon and worker.is_alive() and not release.is_set()
    release.set()
    worker.join(10)
    assert not worker.is_alive() and delivered == []
