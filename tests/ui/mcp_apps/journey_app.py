"""The MCP Apps journey (issue 26), run in a process of its own by
tests/ui/mcp_apps/test_journey_apps.py (QtWebEngine allows one loop run per process: see
apps_scenarios.py).

As a person: Ctrl+T ▸ Command (stdio) ▸ the official basic-vanillajs example ▸ Open tab;
click "Get Time" in the explorer, Run, open the App tab; read the tab's status and the time
the app shows (the result of the call, as rendered in the page); click the app's own "Get
Server Time" button with the mouse, allow the tool call in the consent dialog, and see the
app show the new time. Exits 0 (passed), 1 (failed: the traceback on stderr) or 3
(skipped: the reason on stdout).

    python -m tests.ui.mcp_apps.journey_app
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox, QPushButton

from inspector.ui.shell.event_loop import ensure_application
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.new_tab_dialog import NewTabDialog
from tests.helpers.gui import close_window, make_window, until
from tests.helpers.journeys import (
    click,
    click_row,
    click_tab,
    press,
    shows_connected,
    tab_titles,
    type_into,
    visible_window,
)
from tests.helpers.peers import BASIC_APP_JS

_READ = "document.body ? document.body.innerText : ''"
# Where the page draws a thing, as "x,y" (the app's button in its frame, the frame itself).
_BUTTON = (
    "(() => { const r = document.getElementById('get-time-btn').getBoundingClientRect();"
    " return (r.left + r.width / 2) + ',' + (r.top + r.height / 2); })()"
)
_IFRAME = (
    "(() => { const f = document.querySelector('iframe'); if (!f) return '';"
    " const r = f.getBoundingClientRect(); return r.left + ',' + r.top; })()"
)


def shown_time(text: str) -> str:
    """The time the app shows after "Server Time:" (on its own line in the page's text)."""
    if "Server Time:" not in text:
        return ""
    return text.split("Server Time:", 1)[1].strip().split("\n", 1)[0].strip()


async def page_shows(
    read: Callable[[], Awaitable[str]], ok: Callable[[str], bool], what: str, timeout: float = 15
) -> str:
    """Read the page's text until it shows what `ok` wants (bounded); that text."""
    deadline = asyncio.get_running_loop().time() + timeout
    text = await read()
    while not ok(text):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}; the page shows {text!r}")
        await asyncio.sleep(0.02)
        text = await read()
    return text


class Skip(Exception):
    pass


async def evaluate(frame: Any, script: str) -> Any:
    """What `script` gives in a page frame (the app's, or the shell around it)."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def done(value: Any) -> None:
        if not future.done():
            future.set_result(value)

    frame.runJavaScript(script, 0, done)
    return await asyncio.wait_for(future, 10)


async def journey(window: MainWindow) -> None:
    node = shutil.which("node")
    if node is None or not BASIC_APP_JS.exists():
        raise Skip("server-basic-vanillajs is not installed (scripts/install-peers.sh)")
    press(window, "Ctrl+T")
    await until(lambda: visible_window(NewTabDialog) is not None, "the New tab dialog")
    dialog = visible_window(NewTabDialog)
    assert isinstance(dialog, NewTabDialog)
    type_into(dialog.stdio_edit, f"{node} {BASIC_APP_JS} --stdio")
    assert dialog.stdio_choice.isChecked()  # typing a command picks it
    press(dialog, "Return")
    tab = window.current_tab
    await until(lambda: shows_connected(tab, 1), "the example's one tool", 30)
    assert tab.server_panel.isVisible()

    click_row(tab.explorer.panes["tools"].tree, "Get Time")
    page = tab.workspace.stack.currentWidget()
    view = getattr(page, "action", None)
    tabs = getattr(page, "tabs", None)
    assert view is not None and tabs is not None
    assert tab_titles(tabs) == ["Call", "App", "Details"]
    click(view.run_button)
    click_tab(tabs, "App")
    app = page.app_tab  # type: ignore[attr-defined]
    assert app.isVisible()
    try:
        await until(lambda: app.status.text().endswith("· ready"), "the app", 60)
    except AssertionError:  # what the traffic log shows, to tell why
        for e in tab.traffic:
            sys.stderr.write(f"log: {e.direction} {e.kind} {e.method} {e.text()[:150]}\n")
        sys.stderr.write(f"the App tab says: {app.status.text()}\n")
        raise
    assert app.status.text() == "App ui://get-time/mcp-app.html · call #1 · ready"
    assert app.sandbox_label.text().startswith("⚠ Chromium's process sandbox is off") == (
        os.geteuid() == 0
    )
    shown = app.view
    assert shown is not None
    web = shown.surface.view
    main = shown.surface.page.mainFrame()
    await until(lambda: main.children(), "the app's frame")
    frame = main.children()[0]

    async def app_text() -> str:
        return str(await evaluate(frame, _READ) or "")

    text = await page_shows(
        app_text, lambda t: "Server Time:" in t and "Loading" not in t, "the app's time"
    )
    assert "Get Server Time" in text, text
    first = shown_time(text)
    assert first[:4].isdigit() and first.endswith("Z"), repr(text)  # an ISO 8601 time
    events = app.event_box.toPlainText()
    assert "Received tool call result" in events, events

    # The app's own button, clicked with the mouse where the page draws it.
    offset = [float(v) for v in str(await evaluate(main, _IFRAME)).split(",")]
    center = [float(v) for v in str(await evaluate(frame, _BUTTON)).split(",")]
    target = web.focusProxy() or web
    point = QPoint(int(offset[0] + center[0]), int(offset[1] + center[1]))
    QTest.mouseClick(target, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    await until(lambda: visible_window(QMessageBox) is not None, "the consent dialog", 20)
    consent = visible_window(QMessageBox)
    assert isinstance(consent, QMessageBox)
    assert "get-time" in consent.text(), consent.text()
    allow = next(b for b in consent.findChildren(QPushButton) if b.text() == "Allow once")
    click(allow)
    await until(
        lambda: (
            sum(1 for e in tab.traffic if e.method == "tools/call" and e.direction == "out") >= 2
        ),
        "the app's call in the traffic log",
    )
    text = await page_shows(
        app_text, lambda t: shown_time(t) not in (first, "") and "Loading" not in t, "a new time"
    )
    assert shown_time(text).endswith("Z"), (first, text)  # the new time shown


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    qt = ensure_application()
    qt.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(qt)
    asyncio.set_event_loop(loop)
    tmp = Path(tempfile.mkdtemp(prefix="mcp-apps-journey-"))
    os.environ["MCP_INSPECTOR_DATA_DIR"] = str(tmp / "data")
    window = make_window(tmp)

    async def run() -> int:
        try:
            await journey(window)
            return 0
        except Skip as exc:
            sys.stdout.write(f"{exc}\n")
            return 3
        except BaseException:
            traceback.print_exc()
            return 1
        finally:
            await close_window(window)

    code = loop.run_until_complete(asyncio.wait_for(run(), 100))
    sys.stdout.flush()
    sys.stderr.flush()
    shutil.rmtree(tmp, ignore_errors=True)
    os._exit(code)  # no second loop run, no WebEngine teardown after aboutToQuit


if __name__ == "__main__":
    main()
