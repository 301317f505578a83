"""Watch mode in the window: the toggle starts the server, an edit on disk restarts it and
the strip says what changed; a failed start brings the Server console forward with its
stderr; Re-run now (F5) on an HTTP server re-lists and re-runs without a restart."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from inspector.core.connection_state import ConnState
from inspector.settings.profiles import HttpSettings, Profile
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.watch.watch_dialogs import WatchSettings
from inspector.ui.watch.watch_mode import RERUN_KEY, TOGGLE_KEY
from inspector.watch.marks import WATCH_NOTE
from inspector.watch.report import RunReport
from tests.helpers.demo_http import demo_http_server
from tests.helpers.gui import connected, run, then_shutdown, until
from tests.helpers.tabs import current_tab
from tests.helpers.watched import ADD_TOOL, MARKER, edit, server_folder, stdio_profile

pytestmark = pytest.mark.timeout(120)

COLLECTION = """{"version": 1, "name": "watched", "calls": [
  {"name": "echo hi", "kind": "tool", "tool": "echo", "arguments": {"text": "hi"},
   "assert": [{"pointer": "/content/0/text", "equals": "hi"}]}]}
"""


def _no_watcher_thread_left() -> None:
    """The file watcher's thread ends with watch mode: a thread posting to a closed qasync
    loop crashed a later test (SIGSEGV in pytest-qt's processEvents)."""
    deadline = time.monotonic() + 3
    while any(t.name == "watch files" for t in threading.enumerate()):
        assert time.monotonic() < deadline, "a file watcher thread outlived watch mode"
        time.sleep(0.02)


def _history(window: MainWindow) -> list[RunReport]:
    sup = current_tab(window).watch_mode.supervisor
    return sup.history if sup is not None else []


def test_the_strip_after_a_restart_and_a_failed_start(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    folder = server_folder(tmp_path)
    (folder / "calls.json").write_text(COLLECTION)
    profile = stdio_profile(folder)
    window.add_adhoc(profile)
    wm = current_tab(window).watch_mode
    wm.save_settings(profile, WatchSettings([], 0.3, str(folder / "calls.json")))
    assert wm.toggle_action.shortcut().toString() == TOGGLE_KEY
    assert wm.rerun_action.shortcut().toString() == RERUN_KEY

    async def scenario() -> None:
        assert not wm.toolbar.isVisibleTo(window)  # the default layout keeps its room
        wm.toggle_action.trigger()  # not connected: watch mode connects
        assert wm.toolbar.isVisibleTo(window)
        await until(lambda: len(_history(window)) == 1, "the first start", 30)
        assert current_tab(window).controller.model.state is ConnState.CONNECTED
        assert "start" in wm.strip.result.text()
        assert "collection 1/1 passed" in wm.strip.result.text()

        edit(folder / "server.py", MARKER, ADD_TOOL + MARKER)
        await until(lambda: len(_history(window)) == 2, "the restart", 30)
        text = wm.strip.result.text()
        assert text.startswith("restart #1 · ") and "+1 tool" in text, text
        assert "collection 1/1 passed" in text
        assert "add" in [t["name"] for t in current_tab(window).controller.model.tools or []]
        notes = [
            e.text()
            for e in current_tab(window).traffic
            if e.kind == "note" and e.note == WATCH_NOTE
        ]
        assert any(n.startswith("watch: restart #1") for n in notes), notes
        wm.show_results()
        assert wm.results is not None
        assert "+ tool add" in wm.results.text.toPlainText()
        assert "PASS echo hi" in wm.results.text.toPlainText()
        wm.results.close()

        current_tab(window).bottom.setCurrentIndex(0)
        edit(folder / "server.py", "def add(a: int", "def add(a: int,,")
        await until(lambda: len(_history(window)) == 3, "the failed restart", 30)
        assert "failed" in wm.strip.result.text()
        assert current_tab(window).bottom.currentWidget() is current_tab(window).console
        await until(
            lambda: "SyntaxError" in current_tab(window).console.view.toPlainText(), "the stderr", 5
        )
        assert wm.toggle_action.isChecked()  # still watching: the fix will restart it

        edit(folder / "server.py", "def add(a: int,,", "def add(a: int")
        await until(lambda: len(_history(window)) == 4, "the restart after the fix", 30)
        assert current_tab(window).controller.model.state is ConnState.CONNECTED
        window.grab().save(str(tmp_path / "watch.png"))

        wm.toggle_action.trigger()  # off: the connection stays
        assert wm.supervisor is None and not wm.toggle_action.isChecked()
        assert not wm.toolbar.isVisibleTo(window)
        assert current_tab(window).controller.model.state is ConnState.CONNECTED

    run(loop, then_shutdown(window, scenario()), 110)
    _no_watcher_thread_left()


def test_rerun_now_on_an_http_server_lists_and_runs_without_a_restart(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    with demo_http_server() as url:
        profile = Profile(name="demo http", transport="http", http=HttpSettings(url=url))
        window.add_adhoc(profile)
        wm = current_tab(window).watch_mode

        async def scenario() -> None:
            wm.toggle_action.trigger()  # an HTTP server that is not connected: refused
            assert not wm.toggle_action.isChecked()
            assert "HTTP" in window.statusBar().currentMessage()
            await connected(window, profile, listed="all")
            initializes = sum(1 for e in current_tab(window).traffic if e.method == "initialize")
            wm.rerun_action.trigger()
            assert wm.toolbar.isVisibleTo(window)
            await until(lambda: len(_history(window)) == 1, "the re-run", 20)
            wm.rerun_action.trigger()
            await until(lambda: len(_history(window)) == 2, "the second re-run", 20)
            second = _history(window)[1]
            assert second.trigger == "rerun" and second.ok
            assert second.catalog is not None and not second.catalog.differences
            assert wm.strip.result.text().startswith("re-run · ")
            assert "no catalog change" in wm.strip.result.text()
            # no restart: one session, its lists sent again
            assert (
                sum(1 for e in current_tab(window).traffic if e.method == "initialize")
                == initializes
            )
            assert sum(1 for e in current_tab(window).traffic if e.method == "tools/list") >= 3

        run(loop, then_shutdown(window, scenario()), 60)


def test_the_window_loads_no_watch_machinery_until_watch_mode_is_used() -> None:
    """(The collections core is the Collections tab's, so it loads with the window.)"""
    import subprocess
    import sys

    from tests.helpers.peers import REPO

    probe = (
        "import sys, inspector.ui.shell.main_window\n"
        "print(sorted(m for m in sys.modules if m.startswith(('inspector.watch', 'watchfiles',"
        " 'inspector.compare'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "offscreen"},
    )
    assert out.stdout.strip() == "[]", out.stderr[-2000:]


def test_bad_settings_are_refused_with_the_reason(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    folder = server_folder(tmp_path)
    (folder / "bad.json").write_text('{"version": 1, "calls": [{"name": 1}]}')
    profile = stdio_profile(folder)
    window.add_adhoc(profile)
    wm = current_tab(window).watch_mode
    status = window.statusBar()

    async def scenario() -> None:
        wm.save_settings(profile, WatchSettings(["nowhere/**/*.py"], 0.3, ""))
        wm.toggle_action.trigger()
        assert not wm.toggle_action.isChecked() and wm.supervisor is None
        assert "does not exist" in status.currentMessage()
        assert (
            current_tab(window).controller.model.state is ConnState.DISCONNECTED
        )  # nothing was started

        wm.save_settings(profile, WatchSettings([], 0.3, str(folder / "bad.json")))
        wm.toggle_action.trigger()  # a broken collection: watch without it, and say so
        assert wm.toggle_action.isChecked()
        assert "without its collection" in status.currentMessage()
        assert "bad.json" in status.currentMessage()
        await until(lambda: len(_history(window)) == 1, "the first start", 30)
        assert _history(window)[0].collection is None

        window.disconnect_server()  # the user disconnects: watch mode turns off
        await until(lambda: not wm.toggle_action.isChecked(), "watch mode off", 10)
        assert wm.supervisor is None

    run(loop, then_shutdown(window, scenario()), 60)
    _no_watcher_thread_left()


def test_closing_the_window_while_watching_ends_the_watcher(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    folder = server_folder(tmp_path)
    profile = stdio_profile(folder)
    window.add_adhoc(profile)
    wm = current_tab(window).watch_mode

    async def scenario() -> None:
        wm.save_settings(profile, WatchSettings([], 0.3, ""))
        wm.toggle_action.trigger()
        await until(lambda: len(_history(window)) == 1, "the first start", 30)
        assert any(t.name == "watch files" for t in threading.enumerate())

    run(loop, then_shutdown(window, scenario()), 60)  # the window's shutdown, still watching
    _no_watcher_thread_left()


def test_the_profile_collection_else_the_tab_collection(window: MainWindow, tmp_path: Path) -> None:
    from inspector.ui.watch.watch_mode import WatchMode

    tab_file = tmp_path / "tab.json"
    wm = WatchMode(
        current_tab(window).controller,
        window.chosen_profile,
        window.settings,
        window.statusBar().showMessage,
        lambda: None,
        window,
        tab_collection=lambda: tab_file,
    )
    assert wm.collection_path(WatchSettings([])) == tab_file
    mine = tmp_path / "mine.json"
    assert wm.collection_path(WatchSettings([], 0.5, str(mine))) == mine
    assert current_tab(window).watch_mode.collection_path(WatchSettings([])) is None
