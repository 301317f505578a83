"""File ▸ Live Taps: a running tap is listed, followed live in the main view (frames appear
while the host talks; pairing, the explorer from what the host listed, stderr), marked
read-only, and when the tap ends its session file stays and opens offline."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.recording.offline import load_offline
from inspector.recording.reader import read_session
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import connected, run, until
from tests.helpers.peers import PY, SERVERS, demo_command
from tests.helpers.tabs import current_tab
from tests.helpers.tap import tap_argv, tap_env

HOST = SERVERS / "tap" / "paced_host.py"


@pytest.fixture
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "rt"
    monkeypatch.setenv("MCP_INSPECTOR_RUNTIME_DIR", str(folder))
    return folder


@pytest.fixture
def host(tmp_path: Path, runtime: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A host talking to the demo server through a tap; its calls wait for `go`."""
    session = tmp_path / "tap.jsonl"
    argv = [PY, str(HOST), "--calls", "4", "--every", "0.2", "--go", str(tmp_path / "go"),
            "--", *tap_argv(session, demo_command(), "--name", "demo via tap")]  # fmt: skip
    proc = subprocess.Popen(argv, env=tap_env(runtime), stderr=subprocess.DEVNULL)
    yield proc
    proc.kill()
    proc.wait()


def test_a_live_tap_is_followed_while_the_host_talks(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    host: subprocess.Popen[bytes],
    tmp_path: Path,
) -> None:
    taps = window.live_taps

    async def scenario() -> None:
        await until(lambda: taps.fill(), "the tap is listed")
        (entry,) = taps.fill()
        assert entry.name == "demo via tap"
        labels = [a.text() for a in taps.menu.actions()]
        assert labels[0].startswith("demo via tap — pid ")
        await taps.open(entry)
        follow = taps.follow
        assert follow is not None
        view = follow.view
        assert current_tab(window).session_files.stack.currentWidget() is view
        assert view.banner.title.text().startswith("Live tap (read-only)")
        assert not window.connect_action.isEnabled()  # read-only: the host's session
        offline = view.offline
        # The handshake and the lists the host asked for, before any call.
        await until(lambda: offline.catalog["tools"].loaded, "the explorer from tools/list")
        assert "echo" in {i.key for i in offline.catalog["tools"].items}
        assert offline.ready is not None and offline.ready.server_info["name"].startswith("mcp")
        before = view.rows()
        calls = [r for r in offline.traffic if r.method == "tools/call"]
        assert calls == []
        (tmp_path / "go").write_text("")  # the host starts calling
        await until(
            lambda: len([r for r in offline.traffic if r.method == "tools/call"]) >= 2,
            "calls appear while the host talks",
        )
        assert follow.timer.isActive() and not follow.ended
        assert view.rows() > before
        # Paired, with latency.
        answered = [r for r in offline.traffic if r.kind == "response" and r.method]
        assert any(r.method == "tools/call" for r in answered)
        await until(lambda: follow.ended, "the tap ended", timeout=30)
        assert "ended" in view.banner.title.text()
        assert len([r for r in offline.traffic if r.method == "tools/call"]) == 8
        assert view.console.text()  # the demo's stderr
        # The timeline was rebuilt from the whole file.
        assert view.timeline_panel.row_for("tools/call") is not None
        assert view.bottom.widget(0) is view.timeline_panel
        notes = [str(r.raw) for r in offline.traffic if r.kind == "note"]
        assert "server exited (code 0)" in notes

    run(loop, scenario(), timeout=60)
    assert host.wait(20) == 0
    # What is left opens offline like any other session file.
    offline = load_offline(read_session(tmp_path / "tap.jsonl"))
    assert len([r for r in offline.traffic if r.method == "tools/call"]) == 8
    assert offline.ready is not None


def test_no_running_taps_says_how_to_start_one(window: MainWindow, runtime: Path) -> None:
    assert window.live_taps.fill() == []
    (only,) = window.live_taps.menu.actions()
    assert not only.isEnabled()
    assert "mcp-inspector-qt tap -- COMMAND" in only.text()


def test_a_tap_opens_in_a_tab_of_its_own_beside_a_live_connection(
    window: MainWindow, loop: asyncio.AbstractEventLoop, host: subprocess.Popen[bytes]
) -> None:
    taps = window.live_taps
    live = window.current_tab

    async def scenario() -> None:
        demo = window.store.find("demo")
        assert demo is not None
        await connected(window, demo)
        await until(lambda: taps.fill(), "the tap is listed")
        (entry,) = taps.fill()
        await taps.open(entry)
        follow = taps.follow
        assert follow is not None
        # The live view stays as it was; the tap is followed in a new, read-only tab.
        assert window.connection_tabs() == [live, window.current_tab]
        assert live.session_files.view is None and live.controller.model.connected
        followed = window.current_tab
        assert followed.session_files.view is follow.view
        assert followed.tab_state() == "offline session"
        # Its Server box names the tap's file, not the profile used last (issue 31).
        assert followed.bar.profile_combo.currentText() == "tap.jsonl (read-only)"
        assert not window.connect_action.isEnabled()
        window.tabs.setCurrentWidget(live)
        assert window.connect_action.isEnabled()  # the menus follow the current tab

    run(loop, scenario(), timeout=60)
