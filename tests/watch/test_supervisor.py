"""The watch loop against real peers: an `mcp` 2.x server that the test edits on disk (a
tool added, a schema changed, a syntax error then its fix), a server that crashes at start,
and a save of 10,000 files; marks in the traffic log and in the session files."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
from pathlib import Path

from inspector.core.connection import ConnectionModel
from inspector.core.connection_state import ConnState
from inspector.recording.live import AutoRecorder
from inspector.watch.changes import ChangeFeed
from inspector.watch.marks import WATCH_NOTE
from inspector.watch.paths import WatchSpec
from inspector.watch.report import RunReport
from inspector.watch.supervisor import WatchOptions, WatchSupervisor
from tests.helpers.waiting import until
from tests.helpers.watched import (
    ADD_TOOL,
    CRASHING,
    MARKER,
    edit,
    server_folder,
    stdio_profile,
)
from tests.watch.test_changes import write_many

QUIET = 0.3


def _supervisor(
    folder: Path, model: ConnectionModel, *args: str, ignore: tuple[Path, ...] = ()
) -> tuple[WatchSupervisor, list[RunReport]]:
    feed = ChangeFeed(WatchSpec(folder, ignore=ignore).resolve(), quiet=QUIET)
    sup = WatchSupervisor(
        model, stdio_profile(folder, *args), feed=feed, options=WatchOptions(quiet=QUIET)
    )
    reports: list[RunReport] = []
    sup.reports.add(reports.append)
    return sup, reports


async def _stop(sup: WatchSupervisor, task: asyncio.Task[None], model: ConnectionModel) -> None:
    await sup.stop()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await model.shutdown()


async def test_edits_on_disk_restart_the_server_and_show_what_changed(tmp_path: Path) -> None:
    folder = server_folder(tmp_path)
    sessions = folder / ".inspector-sessions"  # our own files inside the watched folder
    sessions.mkdir()
    model = ConnectionModel(recorder=AutoRecorder(lambda: sessions))
    sup, reports = _supervisor(folder, model, ignore=(sessions,))
    task = asyncio.create_task(sup.run())
    server = folder / "server.py"
    try:
        await until(lambda: len(reports) == 1, "the first start", 30)
        first = reports[0]
        assert first.ok and first.trigger == "start" and first.catalog is None
        assert first.summary().endswith("1 tool")

        # A tool added.
        edit(server, MARKER, ADD_TOOL + MARKER)
        await until(lambda: len(reports) == 2, "the restart after a tool was added", 30)
        added = reports[1]
        assert added.ok and added.trigger == "change" and added.number == 1
        assert added.burst is not None and "server.py" in added.burst.describe()
        assert added.catalog is not None
        item = added.catalog.find("tools", "add")
        assert item is not None and item.status == "added"
        assert "+1 tool" in added.summary()
        assert "+ tool add" in added.details()

        # A schema changed.
        edit(server, "def echo(text: str) -> str:", "def echo(text: str, times: int = 1) -> str:")
        await until(lambda: len(reports) == 3, "the restart after a schema change", 30)
        changed = reports[2]
        assert changed.catalog is not None
        echo = changed.catalog.find("tools", "echo")
        assert echo is not None and echo.status == "changed"
        assert "inputSchema" in echo.fields
        assert "1 changed" in changed.summary()

        # A syntax error: the start fails, its stderr is shown, and nothing restarts it.
        edit(server, "def add(a: int", "def add(a: int,,")
        await until(lambda: len(reports) == 4, "the failed restart", 30)
        broken = reports[3]
        assert not broken.ok and broken.number == 3
        assert any("SyntaxError" in line for line in broken.stderr), broken.stderr
        assert "SyntaxError" in broken.details()
        assert "waiting for the next change" in broken.summary()
        assert model.state is ConnState.FAILED
        await asyncio.sleep(QUIET * 4)  # not a wait: a restart without a change would show
        assert len(reports) == 4, "a server that failed to start was restarted without a change"

        # The fix: compared with the last good run, nothing changed.
        edit(server, "def add(a: int,,", "def add(a: int")
        await until(lambda: len(reports) == 5, "the restart after the fix", 30)
        fixed = reports[4]
        assert fixed.ok and fixed.catalog is not None and not fixed.catalog.differences
        assert "no catalog change" in fixed.summary()
        assert model.state is ConnState.CONNECTED

        # The traffic log (kept across restarts) marks each one.
        notes = [e.text() for e in model.traffic if e.kind == "note" and e.note == WATCH_NOTE]
        for number in (1, 2, 3, 4):
            assert any(n.startswith(f"watch: restart #{number}") for n in notes), notes
        assert any("restarting the server: server.py modified" in n for n in notes)
        requests = [e for e in model.traffic if e.method == "initialize" and e.direction == "out"]
        assert len(requests) == 5  # one log, five sessions
    finally:
        await _stop(sup, task, model)
    # The session files say so too, and writing them restarted nothing.
    texts = [p.read_text() for p in sorted(sessions.glob("*.jsonl"))]
    assert len(texts) == 5
    assert sum("watch: restart #" in t for t in texts) == 4
    assert len(reports) == 5


async def test_a_server_that_crashes_at_start_is_not_restarted_in_a_loop(tmp_path: Path) -> None:
    folder = tmp_path / "crash"
    folder.mkdir()
    (folder / "server.py").write_text(CRASHING)
    model = ConnectionModel()
    sup, reports = _supervisor(folder, model)
    task = asyncio.create_task(sup.run())
    try:
        await until(lambda: len(reports) == 1, "the failed start", 20)
        assert not reports[0].ok
        assert reports[0].stderr == ["boom: cannot start (config missing)"]
        await asyncio.sleep(QUIET * 4)  # not a wait: a restart without a change would show
        assert len(reports) == 1  # waits for a change
        # Saves every 0.1 s for 2 s: restarts never come closer than the debounce.
        for i in range(20):
            (folder / "config.toml").write_text(f"n = {i}\n")
            await asyncio.sleep(0.1)
        # The last save's debounced restart has had its time: the count has an upper bound.
        await asyncio.sleep(QUIET * 6)  # not a wait: restarts are counted, not waited for
        count = len(reports)
        assert 1 < count <= 4, [r.summary() for r in reports]
        starts = [r.wall for r in reports[1:]]
        assert all(b - a >= QUIET * 0.9 for a, b in itertools.pairwise(starts))
        assert all(not r.ok and r.stderr for r in reports)
        await asyncio.sleep(QUIET * 4)  # not a wait: a restart without a change would show
        assert len(reports) == count  # and nothing more without a change
    finally:
        await _stop(sup, task, model)


async def test_a_save_of_ten_thousand_files_is_one_restart(tmp_path: Path) -> None:
    folder = server_folder(tmp_path)
    model = ConnectionModel()
    sup, reports = _supervisor(folder, model)
    task = asyncio.create_task(sup.run())
    try:
        await until(lambda: len(reports) == 1, "the first start", 30)
        writer = write_many(folder, 10_000)
        assert await asyncio.to_thread(writer.wait, 60) == 0
        await until(lambda: len(reports) == 2, "the restart", 30)
        await asyncio.sleep(QUIET * 5)  # not a wait: a second restart for the save would show
        assert len(reports) == 2, [r.summary() for r in reports]
        burst = reports[1].burst
        assert burst is not None and burst.count >= 9_000
        assert sup.restarts == 1
    finally:
        await _stop(sup, task, model)


CHATTY_CRASH = """import sys
for i in range(200_000):
    sys.stderr.write(f"line {i}: still failing\\n")
sys.exit(1)
"""


async def test_a_flood_of_stderr_at_a_crash_keeps_the_last_lines(tmp_path: Path) -> None:
    folder = tmp_path / "chatty"
    folder.mkdir()
    (folder / "server.py").write_text(CHATTY_CRASH)
    model = ConnectionModel()
    sup, reports = _supervisor(folder, model)
    task = asyncio.create_task(sup.run())
    try:
        await until(lambda: len(reports) == 1, "the failed start", 30)
        report = reports[0]
        assert not report.ok
        assert 0 < len(report.stderr) <= 40
        assert report.stderr[-1] == "line 199999: still failing"
        assert len(report.details()) < 10_000
    finally:
        await _stop(sup, task, model)


async def test_a_collection_broken_between_runs_says_where_and_watching_goes_on(
    tmp_path: Path,
) -> None:
    from inspector.watch.collection_step import FileCollectionStep

    folder = server_folder(tmp_path)
    calls = tmp_path / "calls.json"  # outside the watched folder: editing it restarts nothing
    calls.write_text(
        '{"version": 1, "name": "w", "calls": [{"name": "echo", "kind": "tool", "tool": "echo",'
        ' "arguments": {"text": "x"}, "assert": [{"pointer": "/content/0/text", "equals": "x"}]}]}'
    )
    model = ConnectionModel()
    feed = ChangeFeed(WatchSpec(folder).resolve(), quiet=QUIET)
    sup = WatchSupervisor(
        model,
        stdio_profile(folder),
        feed=feed,
        collection=FileCollectionStep(calls),
        options=WatchOptions(quiet=QUIET),
    )
    reports: list[RunReport] = []
    sup.reports.add(reports.append)
    task = asyncio.create_task(sup.run())
    try:
        await until(lambda: len(reports) == 1, "the first start", 30)
        assert reports[0].collection is not None and reports[0].collection.ok
        calls.write_text('{"version": 1,\n "calls": [{"name": "x", "kind": "tool",\n "tool": 3}]}')
        edit(folder / "server.py", MARKER, ADD_TOOL + MARKER)
        await until(lambda: len(reports) == 2, "the restart", 30)
        broken = reports[1]
        assert broken.ok  # the server is fine; the collection is not
        assert broken.collection is not None and broken.collection.error is not None
        assert "calls.json:2" in broken.collection.error
        assert "must be a string" in broken.collection.error
        assert "collection not run" in broken.summary()
        assert not broken.passed
    finally:
        await _stop(sup, task, model)


async def test_a_server_that_dies_after_its_start_is_reported_and_waits(tmp_path: Path) -> None:
    folder = server_folder(tmp_path)
    model = ConnectionModel()
    sup, reports = _supervisor(folder, model)
    said: list[str] = []
    sup.status.add(said.append)
    task = asyncio.create_task(sup.run())
    try:
        await until(lambda: len(reports) == 1, "the first start", 30)
        session = model.session
        assert session is not None
        pid = session.transport.pid  # type: ignore[attr-defined]
        os.kill(pid, signal.SIGKILL)  # a crash after the start
        await until(lambda: any("the server exited" in s for s in said), "the report", 10)
        assert "waiting for the next change" in said[-1]
        await asyncio.sleep(QUIET * 4)  # not a wait: a restart without a change would show
        assert len(reports) == 1  # no restart without a change
        edit(folder / "server.py", MARKER, ADD_TOOL + MARKER)
        await until(lambda: len(reports) == 2, "the restart", 30)
        assert reports[1].ok
    finally:
        await _stop(sup, task, model)
