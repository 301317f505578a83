"""Screenshots of connection tabs (issue 11): three tabs (the demo connected, a server that
could not start, a second demo), and a sampling request from a background tab over the tab
being looked at (the dialog names its tab; the tab shows "1 waiting"). Under Xvfb when
DISPLAY is set (the whole screen, dialog included), else offscreen (the window and the
dialog saved apart).

    PYTHONPATH=. python scripts/tab_screenshots.py [OUT_DIR]  (default docs/screenshots/issue-11)
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from inspector.core.connection_state import ConnState
from inspector.settings.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.shell.event_loop import run_qt_async
from inspector.ui.shell.gui_command import build_gui_app
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.connection_tab import ConnectionTab
from inspector.ui.widgets.theme import apply_theme

REPO = Path(__file__).resolve().parents[1]
MISBEHAVING = REPO / "tests" / "servers" / "misbehaving" / "server.py"


def _python(name: str, *args: str) -> Profile:
    env = [EnvVar(name="PYTHONPATH", value=str(REPO))]
    return Profile(name=name, stdio=StdioSettings(command=sys.executable, args=list(args), env=env))


async def _until(predicate: object, what: str, timeout: float = 30) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():  # type: ignore[operator]
        if asyncio.get_running_loop().time() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


def _save(window: MainWindow, path: Path) -> None:
    app = QApplication.instance()
    screen = QApplication.primaryScreen() if isinstance(app, QApplication) else None
    if os.environ.get("DISPLAY") and screen is not None:
        screen.grabWindow(0).save(str(path))
    else:
        window.grab().save(str(path))
    sys.stdout.write(f"saved {path}\n")


async def shots(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="tab-shots-"))
    os.environ["MCP_INSPECTOR_CONFIG_DIR"] = str(tmp / "config")
    settings = QSettings(str(tmp / "window.ini"), QSettings.Format.IniFormat)
    store = ProfileStore(tmp / "profiles.json", SecretStore())
    window = MainWindow(build_gui_app(store, settings), settings)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "light")
    window.refresh_colors()
    window.resize(1280, 800)
    window.move(0, 0)
    window.show()
    demo = store.find("demo")
    assert demo is not None
    broken = _python("broken build", str(MISBEHAVING), "--mode", "exit-early")
    deployed = _python("deployed", "-m", "inspector.demo")
    window.app.profiles.add_adhoc(broken)
    window.app.profiles.add_adhoc(deployed)
    window.refresh_profiles()
    try:
        first = window.current_tab
        window.connect_profile(demo)
        failed = window.new_tab(broken)
        other = window.new_tab(deployed)
        for tab in (first, other):
            await _until(lambda t=tab: t.controller.model.tools is not None, tab.display_title())
        await _until(lambda: failed.controller.model.state is ConnState.FAILED, "the failure")
        other.rename("deployed")
        window.tabs.setCurrentWidget(first)
        tools = first.explorer.tool_names()
        if tools:
            first.explorer.select("tools", tools[0])
        await asyncio.sleep(0.5)
        _save(window, out / "three-tabs.png")
        # A sampling request from the background tab "deployed".
        session = other.controller.model.session
        assert session is not None
        session.start_request(
            "tools/call", {"name": "ask_llm", "arguments": {"question": "Which tab asks?"}}
        )
        await _until(lambda: _dialog(other) is not None, "the sampling dialog")
        await asyncio.sleep(0.6)
        _save(window, out / "ask-from-background-tab.png")
        dialog = _dialog(other)
        if dialog is not None and not os.environ.get("DISPLAY"):
            dialog.grab().save(str(out / "ask-from-background-tab-dialog.png"))
        if dialog is not None:
            dialog.reject()
    finally:
        await window.shutdown()
        window.close()
    return 0


def _dialog(tab: ConnectionTab) -> object | None:
    responder = tab.controller.responder
    dialog = responder.dialog if responder is not None else None
    return dialog if dialog is not None and dialog.isVisible() else None


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshots" / "issue-11"
    return run_qt_async(lambda: shots(out))


if __name__ == "__main__":
    sys.exit(main())
