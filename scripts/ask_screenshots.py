"""Screenshots of the server-ask dialogs (sampling, elicitation form and URL), the main
window with a dialog open over the live log, and the Tasks panel, in the light and dark
themes. Against real servers: the bundled demo (ask_llm, ask_user) and server-everything
(the URL elicitation and a task), when it is installed. Under Xvfb when DISPLAY is set,
else offscreen.

    PYTHONPATH=. python scripts/ask_screenshots.py [OUT_DIR]   (default docs/screenshots)
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from inspector.settings.profiles import Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.asks.ask_dialog import AskDialog
from inspector.ui.shell.event_loop import run_qt_async
from inspector.ui.shell.gui_command import build_gui_app
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.widgets.theme import apply_theme

REPO = Path(__file__).resolve().parents[1]
EVERYTHING = REPO / ".peers/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"


async def _dialog(window: MainWindow, kind: str, timeout: float = 15) -> AskDialog:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        responder = window.current_tab.controller.responder
        dialog = responder.dialog if responder is not None else None
        if dialog is not None and type(dialog).__name__ == kind and dialog.isVisible():
            await asyncio.sleep(0.3)  # let it lay out and paint
            return dialog
        if asyncio.get_running_loop().time() > deadline:
            raise SystemExit(f"no {kind} appeared")
        await asyncio.sleep(0.05)


async def _connect(window: MainWindow, profile: Profile) -> None:
    task = window.connect_profile(profile)
    assert task is not None
    await asyncio.wait_for(task, 30)
    model = window.current_tab.controller.model
    assert model.session is not None, model.detail


async def _demo_shots(out: Path, window: MainWindow, theme: str) -> list[str]:
    demo = window.store.find("demo")
    assert demo is not None
    await _connect(window, demo)
    session = window.current_tab.controller.model.session
    assert session is not None
    saved: list[str] = []
    call = session.start_request(
        "tools/call",
        {
            "name": "ask_llm",
            "arguments": {"question": "Summarize MCP in one line.", "maxTokens": 120},
        },
    )
    dialog = await _dialog(window, "SamplingDialog")
    reply = getattr(dialog, "reply_text")  # noqa: B009
    reply.setPlainText("MCP lets an app offer tools, resources and prompts to a model.")
    await asyncio.sleep(0.1)
    dialog.grab().save(str(out / f"sampling-dialog-{theme}.png"))
    saved.append(f"sampling-dialog-{theme}.png")
    # The dialog is window-modal over the main window; the log keeps going underneath.
    await session.client.ping()
    window.current_tab.centre.setCurrentWidget(window.current_tab.log_panel)
    await asyncio.sleep(0.3)
    screen = QApplication.primaryScreen()
    if os.environ.get("DISPLAY") and screen is not None:  # the whole screen: dialog included
        screen.grabWindow(0).save(str(out / f"sampling-over-log-{theme}.png"))
    else:
        window.grab().save(str(out / f"sampling-over-log-{theme}.png"))
    saved.append(f"sampling-over-log-{theme}.png")
    getattr(dialog, "approve_button").click()  # noqa: B009
    await asyncio.wait_for(call.result(), 10)

    call = session.start_request(
        "tools/call", {"name": "ask_user", "arguments": {"message": "Tell the demo about you."}}
    )
    dialog = await _dialog(window, "ElicitationDialog")
    dialog.grab().save(str(out / f"elicitation-dialog-{theme}.png"))
    saved.append(f"elicitation-dialog-{theme}.png")
    getattr(dialog, "accept_button").click()  # noqa: B009  (empty name: errors shown)
    await asyncio.sleep(0.5)
    dialog.grab().save(str(out / f"elicitation-errors-{theme}.png"))
    saved.append(f"elicitation-errors-{theme}.png")
    getattr(dialog, "cancel_button").click()  # noqa: B009
    await asyncio.wait_for(call.result(), 10)
    roots = window.current_tab.client_features.open_roots()
    if roots is not None:
        await asyncio.sleep(0.3)
        roots.grab().save(str(out / f"roots-dialog-{theme}.png"))
        saved.append(f"roots-dialog-{theme}.png")
        roots.close()
    await window.current_tab.controller.model.shutdown()
    saved += await _mrtr_shots(out, window, theme, demo)
    return saved


async def _mrtr_shots(out: Path, window: MainWindow, theme: str, demo: Profile) -> list[str]:
    """The modern era: an MRTR round trip, its rounds marked in the log, the conversation."""
    window.current_tab.log_panel.clear()
    await _connect(window, demo.model_copy(update={"era": "modern"}))
    session = window.current_tab.controller.model.session
    assert session is not None
    call = session.start_request(
        "tools/call", {"name": "ask_user", "arguments": {"message": "MRTR round trip"}}
    )
    dialog = await _dialog(window, "ElicitationDialog")
    form = getattr(dialog, "form")  # noqa: B009
    form.set_values({"name": "Grace", "age": 85})
    getattr(dialog, "accept_button").click()  # noqa: B009
    await asyncio.wait_for(call.result(), 10)
    panel = window.current_tab.log_panel
    panel.model.flush()
    request = next(
        e for e in window.current_tab.traffic if e.method == "tools/call" and e.kind == "request"
    )
    window.current_tab.centre.setCurrentWidget(panel)
    panel.splitter.setSizes([620, 260])
    panel.select_entry(request.index)
    await asyncio.sleep(0.3)
    bar = panel.table.horizontalScrollBar()
    bar.setValue(bar.maximum())  # the summary column, where the rounds are marked
    await asyncio.sleep(0.1)
    window.grab().save(str(out / f"mrtr-log-{theme}.png"))
    conversation = window.current_tab.client_features.show_conversation(request.index)
    saved = [f"mrtr-log-{theme}.png"]
    if conversation is not None:
        await asyncio.sleep(0.3)
        conversation.grab().save(str(out / f"mrtr-conversation-{theme}.png"))
        saved.append(f"mrtr-conversation-{theme}.png")
        conversation.close()
    await window.current_tab.controller.model.shutdown()
    return saved


async def _everything_shots(out: Path, window: MainWindow, theme: str) -> list[str]:
    node = shutil.which("node")
    if node is None or not EVERYTHING.exists():
        sys.stderr.write("server-everything is not installed: skipping its screenshots\n")
        return []
    profile = Profile(
        name="everything", stdio=StdioSettings(command=node, args=[str(EVERYTHING), "stdio"])
    )
    window.add_adhoc(profile)
    await _connect(window, profile)
    session = window.current_tab.controller.model.session
    assert session is not None
    saved: list[str] = []
    for _ in range(50):  # it lists the ask tools once it has seen our capabilities
        names = [t["name"] for t in await session.client.list_tools()]
        if "trigger-elicitation-request" in names:
            break
        await asyncio.sleep(0.1)
    call = session.start_request(
        "tools/call", {"name": "trigger-elicitation-request", "arguments": {}}
    )
    dialog = await _dialog(window, "ElicitationDialog")
    dialog.resize(640, 760)
    await asyncio.sleep(0.3)
    dialog.grab().save(str(out / f"elicitation-all-fields-{theme}.png"))
    saved.append(f"elicitation-all-fields-{theme}.png")
    getattr(dialog, "decline_button").click()  # noqa: B009
    await asyncio.wait_for(call.result(), 10)
    call = session.start_request(
        "tools/call",
        {
            "name": "trigger-url-elicitation",
            "arguments": {
                "url": "https://example.com/authorize?client=inspector",
                "message": "Sign in to continue.",
            },
        },
    )
    dialog = await _dialog(window, "UrlElicitationDialog")
    dialog.grab().save(str(out / f"url-elicitation-{theme}.png"))
    saved.append(f"url-elicitation-{theme}.png")
    getattr(dialog, "cancel_button").click()  # noqa: B009
    await asyncio.wait_for(call.result(), 10)
    features = window.current_tab.client_features
    await features.tasks.call_tool("simulate-research-query", {"topic": "tide pools"}, 60_000)
    features.show_tasks()
    window.current_tab.right_split.setSizes([420, 340])
    await asyncio.sleep(2.5)
    panel = features.tasks_panel
    panel.select(features.task_store.ids()[0])
    await asyncio.sleep(0.3)
    window.grab().save(str(out / f"tasks-panel-{theme}.png"))
    saved.append(f"tasks-panel-{theme}.png")
    await window.current_tab.controller.model.shutdown()
    return saved


async def _shots(out: Path) -> int:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    tmp = Path(tempfile.mkdtemp())
    store = ProfileStore(tmp / "profiles.json", SecretStore())
    saved: list[str] = []
    for theme in ("light", "dark"):
        apply_theme(app, theme)  # type: ignore[arg-type]
        settings = QSettings(str(tmp / f"{theme}.ini"), QSettings.Format.IniFormat)
        window = MainWindow(build_gui_app(store, settings), settings)
        window.resize(1280, 800)
        window.show()
        window.refresh_colors()
        try:
            saved += await _demo_shots(out, window, theme)
            saved += await _everything_shots(out, window, theme)
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
