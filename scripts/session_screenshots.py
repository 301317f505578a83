"""Screenshots of session files in the GUI: a recorded demo session opened offline
(File ▸ Open Session), and the replay window showing the drift of a recording of the mcp
SDK peer (tests/servers/sdk/sdk_server.py, which needs the `mcp` test dependency) replayed
against its drifted copy. Offscreen; recordings go to a throwaway data dir.

    PYTHONPATH=. python scripts/session_screenshots.py [OUT_DIR]   (default docs/screenshots)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from inspector.recording.reader import read_session
from inspector.settings.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.event_loop import run_qt_async
from inspector.ui.shell.gui_command import build_gui_app
from inspector.ui.shell.main_window import MainWindow

REPO = Path(__file__).resolve().parents[1]
PY = sys.executable
TMP = Path(tempfile.mkdtemp(prefix="session-shots-"))


def profile(name: str, *args: str) -> Profile:
    return Profile(
        name=name,
        stdio=StdioSettings(
            command=PY, args=list(args), env=[EnvVar(name="PYTHONPATH", value=str(REPO))]
        ),
    )


async def until(predicate: Callable[[], object], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def settle() -> None:
    await asyncio.sleep(0.3)
    QApplication.processEvents()


async def shoot(out: Path) -> int:
    store = ProfileStore(TMP / "profiles.json", SecretStore())
    settings = QSettings(str(TMP / "w.ini"), QSettings.Format.IniFormat)
    win = MainWindow(build_gui_app(store, settings), settings)
    win.resize(1400, 860)
    win.show()
    c = win.current_tab.controller
    files = win.current_tab.session_files
    try:
        win.connect_profile(profile("Demo server", "-m", "inspector.demo"))
        await until(lambda: c.state is ConnState.CONNECTED and c.catalog.tools.loaded, "demo")
        session = c.session
        assert session is not None
        await session.request("tools/call", {"name": "echo", "arguments": {"message": "hello"}})
        await session.request("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}})
        await session.request(
            "tools/call",
            {"name": "slow_count", "arguments": {"steps": 4, "delay_ms": 60}},
            on_progress=lambda _p: None,
        )
        with contextlib.suppress(Exception):  # it always fails: a red row in the log
            await session.request("tools/call", {"name": "explode", "arguments": {}})
    finally:
        await c.shutdown()
    path = files.recorder.last_path
    assert path is not None
    await files.open_session(path)
    view = files.view
    assert view is not None
    for entry in view.offline.traffic:
        if entry.method == "tools/call" and entry.kind == "response":
            view.log_panel.select_entry(entry.index)
            break
    view.panes["tools"].select_key("echo")
    await settle()
    out.mkdir(parents=True, exist_ok=True)
    win.grab().save(str(out / "offline-session.png"))
    files.close_offline()

    try:
        win.connect_profile(profile("SDK peer", str(REPO / "tests/servers/sdk/sdk_server.py")))
        await until(lambda: c.state is ConnState.CONNECTED and c.catalog.tools.loaded, "sdk")
        session = c.session
        assert session is not None
        await session.request("tools/call", {"name": "echo", "arguments": {"text": "hi"}})
        await session.request("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})
    finally:
        await c.shutdown()
    recorded_path = files.recorder.last_path
    assert recorded_path is not None
    replay = files.open_replay(read_session(recorded_path))
    drifted = REPO / "tests/servers/sdk/sdk_server_drifted.py"
    replay.typed.setText(shlex.join([PY, str(drifted)]))
    replay.use_typed.setChecked(True)
    replay.start_button.click()
    await until(lambda: replay.task is not None and replay.task.done(), "the replay", 60)
    for i in range(replay.results.count()):
        item = replay.results.item(i)
        if item is not None and "echo" in item.text():
            replay.results.setCurrentRow(i)
    await settle()
    replay.grab().save(str(out / "replay-drift.png"))
    replay.close()
    win.close()
    sys.stderr.write(f"saved {out / 'offline-session.png'} and {out / 'replay-drift.png'}\n")
    return 0


def main() -> int:
    os.environ["MCP_INSPECTOR_DATA_DIR"] = str(TMP / "data")  # throwaway recordings
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshots"
    return run_qt_async(lambda: shoot(out))


if __name__ == "__main__":
    sys.exit(main())
