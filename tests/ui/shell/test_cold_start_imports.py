"""The window shows against a stdio server without loading the auth machinery or the HTTP
stack (issue 19, cold start): checked in a fresh interpreter, as tests/cli/test_cli_imports.py
does for the CLI. Both load when a panel or a profile first needs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

# What a window against a stdio server does not use at start.
_HEAVY = (
    "httpx",
    "httpcore",
    "joserfc",
    "inspector.auth",
    "keyring",
    "PySide6.QtWebEngineCore",  # MCP Apps: loaded only when an App tab renders one
)

_LOADED = """
import json, sys
heavy = sorted({name for name in sys.modules for bad in HEAVY
                if name == bad or name.startswith(bad + ".")})
sys.stderr.write("\\nPROBE " + json.dumps({"code": code, "heavy": heavy}) + "\\n")
"""

_GUI = (
    """
import sys
from inspector.__main__ import main
code = main(sys.argv[1:])
"""
    + _LOADED
)

_AUTH_TAB = (
    """
import sys
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from inspector.settings.profiles import ProfileStore
from inspector.storage.paths import profiles_path, settings_path
from inspector.ui.shell.gui_command import build_gui_app
from inspector.ui.shell.main_window import MainWindow

qt = QApplication([])
settings = QSettings(str(settings_path()), QSettings.Format.IniFormat)
window = MainWindow(build_gui_app(ProfileStore(profiles_path()), settings), settings)
window.show()
qt.processEvents()
before = sorted(n for n in sys.modules if n == "inspector.auth" or n == "httpx")
tab = window.current_tab
tabs = tab.bottom
tabs.setCurrentIndex(next(i for i in range(tabs.count()) if tabs.tabText(i) == "Auth"))
qt.processEvents()
code = {"before": before, "tab": tab.bottom.tabText(tab.bottom.currentIndex()),
        "rows": tab.auth_panel.model.rowCount()}
"""
    + _LOADED
)


def _run(tmp_path: Path, script: str, *args: str) -> dict[str, object]:
    env = {
        "PYTHONPATH": str(REPO),
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "QT_QPA_PLATFORM": "offscreen",
        "MCP_INSPECTOR_CONFIG_DIR": str(tmp_path / "config"),
        "MCP_INSPECTOR_DATA_DIR": str(tmp_path / "data"),
    }
    proc = subprocess.run(
        [sys.executable, "-c", script.replace("HEAVY", repr(_HEAVY)), *args],
        capture_output=True,
        text=True,
        timeout=90,
        cwd=REPO,
        env=env,
    )
    lines = [x for x in proc.stderr.splitlines() if x.startswith("PROBE ")]
    assert lines, proc.stderr[-3000:]
    probe: dict[str, object] = json.loads(lines[-1][len("PROBE ") :])
    return probe


def test_window_against_a_stdio_server_loads_no_auth_and_no_http(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    probe = _run(tmp_path, _GUI, "gui", "--profile", "demo", "--screenshot", str(shot))
    assert probe["code"] == 0
    assert shot.stat().st_size > 0  # the window was shown and grabbed
    assert probe["heavy"] == []


def test_the_auth_tab_loads_the_auth_machinery_when_first_shown(tmp_path: Path) -> None:
    # The lazy import must still happen when the Auth panel is first shown.
    probe = _run(tmp_path, _AUTH_TAB)
    code = probe["code"]
    assert isinstance(code, dict)
    assert code["before"] == []
    assert code["tab"] == "Auth"
    assert isinstance(code["rows"], int)
    assert "inspector.auth" in probe["heavy"]
