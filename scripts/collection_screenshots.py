"""Screenshot of the Collections tab after a run with one failure, its snapshot diff
shown: a collection of demo calls whose `add` snapshot is stale (the server now answers
another sum). Offscreen; everything goes to a throwaway folder.

    PYTHONPATH=. python scripts/collection_screenshots.py [OUT_DIR]
    (default docs/screenshots/issue-12)
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings

from inspector.settings.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.event_loop import run_qt_async
from inspector.ui.shell.gui_command import build_gui_app
from inspector.ui.shell.main_window import MainWindow

REPO = Path(__file__).resolve().parents[1]
TMP = Path(tempfile.mkdtemp(prefix="collection-shots-"))


def text(value: str) -> dict[str, str]:
    return {"type": "text", "text": value}


CALLS = [
    {
        "name": "echo hello",
        "kind": "tool",
        "tool": "echo",
        "arguments": {"message": "hello"},
        "assert": [
            {"outcome": "ok"},
            {"pointer": "/content/0/text", "equals": "hello"},
            {"latencyUnderMs": 2000},
        ],
    },
    {
        "name": "add 2 3",
        "kind": "tool",
        "tool": "add",
        "arguments": {"a": 2, "b": 3},
        "assert": [
            {"outcome": "ok"},
            {
                "snapshot": {
                    "content": [text('{"a": 2, "b": 3, "sum": 6}')],
                    "structuredContent": {"a": 2, "b": 3, "sum": 6},
                }
            },
        ],
    },
    {
        "name": "explode is an internal error",
        "kind": "tool",
        "tool": "explode",
        "arguments": {},
        "assert": [{"outcome": "error", "code": -32603}],
    },
    {
        "name": "read the config",
        "kind": "resource",
        "uri": "demo://config.json",
        "assert": [{"outcome": "ok"}],
    },
    {
        "name": "greet Ada",
        "kind": "prompt",
        "prompt": "greet",
        "arguments": {"name": "Ada"},
        "assert": [{"outcome": "ok"}, {"pointer": "/messages/0/role", "equals": "user"}],
    },
]


async def until(predicate: Callable[[], object], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def shoot(out: Path) -> int:
    store = ProfileStore(TMP / "profiles.json", SecretStore())
    settings = QSettings(str(TMP / "w.ini"), QSettings.Format.IniFormat)
    win = MainWindow(build_gui_app(store, settings), settings)
    win.resize(1400, 900)
    win.show()
    c = win.current_tab.controller
    path = TMP / "demo.collection.json"
    path.write_text(json.dumps({"version": 1, "name": "demo", "calls": CALLS}, indent=2))
    panel = win.current_tab.collections.panel
    try:
        demo = Profile(
            name="Demo server",
            stdio=StdioSettings(
                command=sys.executable,
                args=["-m", "inspector.demo"],
                env=[EnvVar(name="PYTHONPATH", value=str(REPO))],
            ),
        )
        win.connect_profile(demo)
        await until(lambda: c.state is ConnState.CONNECTED and c.catalog.tools.loaded, "demo")
        panel.open_file(path)
        win.current_tab.collections.show_panel()
        task = panel.run_all()
        assert task is not None
        await task
        panel.select("add 2 3")
        win.current_tab.right_split.setSizes([300, 560])
        panel.split.setSizes([520, 860])
        await asyncio.sleep(0.3)
        out.mkdir(parents=True, exist_ok=True)
        target = out / "collections.png"
        win.grab().save(str(target))
        sys.stderr.write(f"saved {target}\n")
    finally:
        await c.shutdown()
        win.close()
    return 0


def main() -> int:
    os.environ["MCP_INSPECTOR_DATA_DIR"] = str(TMP / "data")
    os.environ["MCP_INSPECTOR_CONFIG_DIR"] = str(TMP / "config")
    default = REPO / "docs" / "screenshots" / "issue-12"
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    return run_qt_async(lambda: shoot(out))


if __name__ == "__main__":
    sys.exit(main())
