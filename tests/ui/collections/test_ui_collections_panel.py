"""The Collections tab's hard cases: an invalid file (its place and reason shown, the app
still working, read again once fixed), saving into an invalid file (refused, untouched),
a run that stays live and can be stopped, running while not connected, and File ▸ Save
Session as Test Collection from the demo session."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from inspector.collections.call_draft import CallDraft
from inspector.collections.collection import SnapshotAssertion
from inspector.collections.file import load_collection
from inspector.recording.reader import SessionFileError, read_session
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import run, until, with_demo
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(120)


def write(path: Path, calls: list[dict[str, Any]]) -> None:
    path.write_text(json.dumps({"version": 1, "name": path.stem, "calls": calls}, indent=2))


ECHO: dict[str, Any] = {
    "name": "echo hi",
    "kind": "tool",
    "tool": "echo",
    "arguments": {"message": "hi"},
    "assert": [{"outcome": "ok"}, {"pointer": "/content/0/text", "equals": "hi"}],
}


def test_an_invalid_file_is_shown_with_its_place_and_the_app_keeps_working(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    win = window
    panel = current_tab(win).collections.panel
    path = tmp_path / "broken.json"
    path.write_text('{"version": 1, "calls": [\n  {"name": "x", "kind": "tool",\n')

    async def body() -> None:
        assert not panel.open_file(path)
        shown = panel.error_label.text()
        assert not panel.error_label.isHidden()
        assert str(path) in shown and ":3" in shown, shown  # the line where it ends
        assert panel.rows == [] and not panel.run_all_button.isEnabled()
        # an unknown assertion and a pointer that is not a pointer: named where they are
        write(path, [{**ECHO, "assert": [{"pointer": "content/0", "equals": 1}]}])
        await until(lambda: "JSON Pointer" in panel.error_label.text(), "the pointer error")
        assert "calls[0]" in panel.error_label.text() or "line" in panel.error_label.text()
        write(path, [{**ECHO, "assert": [{"looksLike": "hi"}]}])
        await until(lambda: "looksLike" in panel.error_label.text(), "the unknown assertion")
        # saving into it is refused and leaves the file as it is
        before = path.read_text()
        draft = CallDraft("tools/call", {"name": "echo", "arguments": {"message": "a"}})
        dialog = current_tab(win).collections.save_call(draft)
        assert dialog is not None
        dialog.use_file(path)
        assert dialog.save() is None
        assert "not valid" in dialog.error_label.text() and "looksLike" in dialog.error_label.text()
        assert path.read_text() == before
        dialog.reject()
        # the app still works: a tool call goes through
        page = current_tab(win).workspace.show_item(
            current_tab(win).controller.model.catalog.tools.find("echo")
        )
        assert page is not None and isinstance(page.action, ToolCallView)
        page.action.form.set_values({"message": "still here"})
        record = page.action.run()
        assert record is not None
        await until(lambda: not record.running, "the call")
        assert record.status == "ok"
        # fixed on disk: read again, listed, runnable
        write(path, [ECHO])
        await until(lambda: panel.error_label.isHidden(), "the fixed file to be read")
        assert [r.call.name for r in panel.rows] == ["echo hi"]
        task = panel.run_all()
        assert task is not None
        await task
        assert panel.rows[0].result is not None and panel.rows[0].result.passed

    with_demo(loop, win, body)


def test_a_half_saved_file_keeps_the_selection_and_results_once_it_reads_again(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    """An editor that truncates then writes: the panel reads an empty file in between.
    The call picked and its last result come back when the file reads again."""
    win = window
    panel = current_tab(win).collections.panel
    path = tmp_path / "saved.json"
    write(path, [ECHO, {**ECHO, "name": "echo again"}])

    async def body() -> None:
        assert panel.open_file(path)
        task = panel.run_all()
        assert task is not None
        await task
        panel.select("echo again")
        assert panel.selected_names() == ["echo again"]
        path.write_text("")  # half way through a save
        await until(lambda: not panel.error_label.isHidden(), "the empty file to be read")
        assert panel.rows == []
        write(path, [ECHO, {**ECHO, "name": "echo again"}])
        await until(lambda: panel.error_label.isHidden(), "the saved file to be read")
        assert panel.selected_names() == ["echo again"]
        row = panel.row("echo again")
        assert row is not None and row.result is not None and row.result.passed

    with_demo(loop, win, body)


def _outgoing(win: MainWindow, method: str) -> list[dict[str, Any]]:
    out = []
    for e in current_tab(win).controller.model.traffic.entries:
        if e.direction == "out" and e.method == method:
            out.append(json.loads(e.text()))
    return out


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_run_stays_live_shows_progress_and_stop_cancels_the_call_in_flight(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path, era: str
) -> None:
    """Stop cancels the request in flight as a tool card's Cancel does: the server gets a
    notifications/cancelled for it, its row says cancelled (neither passed nor failed), the
    calls after it are not sent, and the session stays connected for the next run."""
    win = window
    panel = current_tab(win).collections.panel
    path = tmp_path / "slow.json"
    slow: dict[str, Any] = {
        "name": "slow",
        "kind": "tool",
        "tool": "slow_count",
        "arguments": {"steps": 40, "delay_ms": 250},
        "assert": [],
    }
    write(path, [ECHO, slow, {**ECHO, "name": "after"}])
    assert panel.open_file(path)
    assert not panel.run_all_button.isEnabled()  # not connected
    assert "Connect" in panel.run_all_button.toolTip()
    assert panel.run_all() is None

    async def scenario() -> None:
        demo = win.store.find("demo")
        assert demo is not None
        try:
            win.connect_profile(demo.model_copy(update={"era": era}))
            await until(
                lambda: current_tab(win).controller.model.tools is not None, "the demo's tools"
            )
            session = current_tab(win).controller.model.session
            assert session is not None and session.era.value == era
            await body()
        finally:
            await current_tab(win).controller.model.shutdown()

    async def body() -> None:
        await until(lambda: panel.run_all_button.isEnabled(), "Run all to be enabled")
        task = panel.run_all()
        assert task is not None
        await until(lambda: panel.rows[1].running, "the slow call to start")
        await until(lambda: _outgoing(win, "tools/call")[-1:] != [], "the slow call sent")
        # the loop keeps turning (the window stays live) while the call runs
        ticks = 0
        for _ in range(10):
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 10
        assert not panel.progress.isHidden() and panel.progress.value() == 1
        assert panel.tree.topLevelItem(1).text(0) == "…"  # type: ignore[union-attr]
        assert not panel.run_all_button.isEnabled() and not panel.stop_button.isHidden()
        panel.stop_button.click()
        await until(lambda: task.done(), "the run to stop")
        assert not task.cancelled()
        first, slow_row, after = panel.rows
        assert first.result is not None and first.result.passed
        assert slow_row.result is not None and slow_row.result.cancelled
        assert not slow_row.result.passed and not slow_row.running
        assert slow_row.result.outcome.message == "stopped by the user"
        assert after.result is None  # never sent
        item = panel.tree.topLevelItem(1)
        assert item is not None and item.text(0) == "⊘"
        assert "cancelled" in item.toolTip(1)
        assert panel.summary.text().startswith("Run stopped. 1 passed, 0 failed, 1 cancelled")
        panel.select("slow")
        assert "⊘ cancelled" in panel.result_view.headline.text()
        # the server was told: one notifications/cancelled, for the slow call's id
        calls = _outgoing(win, "tools/call")
        slow_ids = [c["id"] for c in calls if c["params"]["name"] == "slow_count"]
        assert len(slow_ids) == 1 and len(calls) == 2  # "after" was not sent
        cancels = _outgoing(win, "notifications/cancelled")
        assert [c["params"]["requestId"] for c in cancels] == slow_ids
        assert panel.run_all_button.isEnabled() and panel.progress.isHidden()
        # still connected: the next run works, on the same session
        assert current_tab(win).controller.model.state is ConnState.CONNECTED
        task = panel.run_names(["after"])
        assert task is not None
        await task
        assert after.result is not None and after.result.passed, after.result.failure_text()
        assert len(_outgoing(win, "notifications/cancelled")) == 1

    run(loop, scenario(), timeout=100)


def test_save_session_as_test_collection(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    win = window
    target = tmp_path / "session.collection.json"
    actions = [a.text() for a in win.menus.file.actions()]
    replay = next(i for i, t in enumerate(actions) if t.startswith("Re&play"))
    assert actions[replay + 1] == "Save Session as &Test Collection…"

    async def body() -> None:
        page = current_tab(win).workspace.show_item(
            current_tab(win).controller.model.catalog.tools.find("add")
        )
        assert page is not None and isinstance(page.action, ToolCallView)
        page.action.form.set_values({"a": 20, "b": 22})
        record = page.action.run()
        assert record is not None
        await until(lambda: not record.running, "the call")

        def answer_recorded() -> bool:  # the recorder's thread writes within 50 ms
            path = current_tab(win).session_files.current_file()
            try:
                frames = read_session(path).frames() if path is not None else []
            except SessionFileError:
                return False  # a line half written
            answers = [f.raw for f in frames if f.direction == "in"]
            return any('"result"' in raw and "42" in raw for raw in answers)

        await until(answer_recorded, "the call's answer in the recording")
        recorded = current_tab(win).session_files.current_recording()
        text = current_tab(win).collections.convert_session(recorded, target)
        assert text is not None and "saved call" in text
        calls = load_collection(target).calls
        tool_calls = [c for c in calls if c.kind == "tool"]
        assert [(c.tool, c.arguments) for c in tool_calls] == [("add", {"a": 20, "b": 22})]
        assert any(c.kind == "catalog" for c in calls)
        panel = current_tab(win).collections.panel
        assert panel.path == target.absolute()
        assert current_tab(win).bottom.currentWidget() is panel
        task = panel.run_all()
        assert task is not None
        await task
        failed = [r.result.failure_text() for r in panel.rows if r.result and not r.result.passed]
        assert failed == []
        assert len([r for r in panel.rows if r.result is not None]) == len(calls)

    with_demo(loop, win, body)


def test_the_profiles_last_collection_opens_on_connect(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    win = window
    path = tmp_path / "last.json"
    write(path, [ECHO])
    demo = win.store.find("demo")
    assert demo is not None
    current_tab(win).collections.memory.used(path, demo.id)
    assert current_tab(win).collections.panel.path is None

    async def body() -> None:
        assert current_tab(win).collections.panel.path == path.absolute()
        assert [r.call.name for r in current_tab(win).collections.panel.rows] == ["echo hi"]
        # and the Save call dialog offers it first
        draft = CallDraft("tools/call", {"name": "echo", "arguments": {"message": "x"}})
        dialog = current_tab(win).collections.save_call(draft)
        assert dialog is not None and dialog.current_file() == path.absolute()
        dialog.reject()

    with_demo(loop, win, body)


def test_update_snapshot_adds_one_and_update_all_failed_over_the_modern_era(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    """Against the demo in the 2026-07-28 era: "Update snapshot" on a call without one adds
    it; a stale snapshot fails, and "Update all failed" fixes it in the file."""
    win = window
    panel = current_tab(win).collections.panel
    path = tmp_path / "modern.json"
    stale = {
        **ECHO,
        "name": "stale",
        "assert": [{"snapshot": {"content": [{"type": "text", "text": "old"}]}}],
    }
    write(path, [ECHO, stale])
    panel.open_file(path)

    async def scenario() -> None:
        demo = win.store.find("demo")
        assert demo is not None
        modern = demo.model_copy(update={"era": "modern"})
        try:
            win.connect_profile(modern)
            await until(
                lambda: current_tab(win).controller.model.tools is not None, "the demo's tools"
            )
            session = current_tab(win).controller.model.session
            assert session is not None and session.era.value == "modern"
            task = panel.run_all()
            assert task is not None
            await task
            first, second = panel.rows
            assert first.result is not None and first.result.passed
            assert second.result is not None and not second.result.passed
            panel.select("echo hi")
            assert panel.update_selected_snapshot() == ["echo hi"]
            panel.select("stale")
            assert panel.update_failed_button.isEnabled()
            assert panel.update_failed_snapshots() == ["stale"]
            saved = {c.name: c for c in load_collection(path).calls}
            snaps = [a for a in saved["echo hi"].assertions if isinstance(a, SnapshotAssertion)]
            assert snaps and snaps[0].snapshot["content"][0]["text"] == "hi"
            stale_snap = saved["stale"].assertions[0]
            assert isinstance(stale_snap, SnapshotAssertion)
            assert stale_snap.snapshot["content"][0]["text"] == "hi"
            row = panel.row("stale")
            assert row is not None and "run it again" in row.note
            task = panel.run_all()
            assert task is not None
            await task
            assert all(r.result is not None and r.result.passed for r in panel.rows)
        finally:
            await current_tab(win).controller.model.shutdown()

    run(loop, scenario(), timeout=100)


def test_a_big_collection_is_read_on_a_thread_and_the_window_stays_live(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    win = window
    panel = current_tab(win).collections.panel
    path = tmp_path / "big.json"
    snapshot = {"content": [{"type": "text", "text": "x" * 100}]}
    calls = [
        {**ECHO, "name": f"call {i}", "assert": [{"snapshot": snapshot}]} for i in range(10_000)
    ]
    write(path, calls)
    assert path.stat().st_size > 1024 * 1024

    async def scenario() -> None:
        assert panel.open_file(path)  # being read
        assert panel.rows == []
        ticks = 0
        while len(panel.rows) < 10_000:
            await asyncio.sleep(0.005)
            ticks += 1
            assert ticks < 6000, "the big collection was never shown"
        assert ticks > 1  # the loop turned while the file was read
        assert panel.tree.topLevelItemCount() == 10_000
        assert panel.row("call 9999") is not None
        assert panel.select("call 5000") and panel.selected_names() == ["call 5000"]

    run(loop, scenario(), timeout=60)
