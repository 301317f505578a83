"""Screenshots of the tool Call view with results, light and dark, against the bundled demo:
a nested form with its structured result (create_ticket), an image (render_chart), calls in
flight with progress (slow_count) and a tool error next to a success (fail_sometimes).
Under Xvfb when DISPLAY is set, else offscreen.

    PYTHONPATH=. python scripts/tool_screenshots.py [OUT_DIR]   (default docs/screenshots)
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

_TMP = Path(tempfile.mkdtemp())
os.environ["MCP_INSPECTOR_CONFIG_DIR"] = str(_TMP / "config")  # no remembered arguments

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from inspector.settings.profiles import ProfileStore  # noqa: E402
from inspector.storage.secrets import SecretStore  # noqa: E402
from inspector.ui.shell.event_loop import run_qt_async  # noqa: E402
from inspector.ui.shell.gui_command import build_gui_app  # noqa: E402
from inspector.ui.shell.main_window import MainWindow  # noqa: E402
from inspector.ui.widgets.theme import apply_theme  # noqa: E402
from inspector.ui.workspace.tool_view import ToolCallView  # noqa: E402

REPO = Path(__file__).resolve().parents[1]

TICKET = {
    "title": "Printer on fire",
    "priority": "high",
    "tags": ["hardware", "urgent"],
    "assignee": {"name": "Ann", "email": "ann@example.com"},
    "due": "2025-02-01",
}
# (file name, tool, the argument sets called in turn, wait for every call to end)
SHOTS: list[tuple[str, str, list[dict[str, Any]], bool]] = [
    ("tool-call", "create_ticket", [TICKET], True),
    ("tool-image", "render_chart", [{"values": [3, 1, 4, 1, 5, 9, 2, 6], "title": "Pi"}], True),
    (
        "tool-progress",
        "slow_count",
        [{"steps": 4, "delay_ms": 100}, {"steps": 30, "delay_ms": 300}, {"steps": 30}],
        False,
    ),
    ("tool-errors", "fail_sometimes", [{"mode": "fail"}, {"mode": "succeed"}], True),
]


async def _until(predicate: Any, what: str, timeout: float = 20) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def _shot(window: MainWindow, tool: str, calls: list[dict[str, Any]], wait: bool) -> None:
    await _until(lambda: window.current_tab.explorer.select("tools", tool), f"the {tool} row")
    await asyncio.sleep(0.2)
    page = window.current_tab.workspace.current
    assert page is not None and isinstance(page.action, ToolCallView)
    view = page.action
    for arguments in calls:
        view.form.set_values(arguments)
        view.run()
        await asyncio.sleep(0.3)
    if wait:
        await _until(lambda: not any(c.record.running for c in view.cards), f"{tool} results")
    else:
        await _until(lambda: view.cards[0].record.progress_count >= 3, f"{tool} progress")
    view.fit_form()
    await asyncio.sleep(0.4)


async def _shots(out: Path) -> int:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    store = ProfileStore(_TMP / "profiles.json", SecretStore())
    saved: list[str] = []
    for theme in ("light", "dark"):
        apply_theme(app, theme)  # type: ignore[arg-type]
        settings = QSettings(str(_TMP / f"{theme}.ini"), QSettings.Format.IniFormat)
        window = MainWindow(build_gui_app(store, settings), settings)
        window.resize(1280, 860)
        window.show()
        window.refresh_colors()
        try:
            demo = window.store.find("demo")
            assert demo is not None
            task = window.connect_profile(demo)
            assert task is not None
            await asyncio.wait_for(task, 30)
            window.current_tab.right_split.setSizes([860, 0])  # the workspace, not the bottom tabs
            for name, tool, calls, wait in SHOTS:
                await _shot(window, tool, calls, wait)
                window.grab().save(str(out / f"{name}-{theme}.png"))
                saved.append(f"{name}-{theme}.png")
        finally:
            await window.current_tab.controller.model.shutdown()
            window.close()
    sys.stderr.write(f"saved {len(saved)} screenshots in {out}: {', '.join(saved)}\n")
    return 0


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    return run_qt_async(lambda: _shots(out))


if __name__ == "__main__":
    raise SystemExit(main())
