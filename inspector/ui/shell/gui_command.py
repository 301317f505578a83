"""`mcp-inspector-qt gui`: open the window, optionally connect at once, optionally take
a screenshot and exit (screenshot mode, used for the README and by checks).

Exit codes follow the CLI: 0 ok, 2 usage (an unknown profile), 3 could not connect,
5 timed out waiting for the server; and 6: no display to open the window on (screenshot
mode needs none: it runs offscreen).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from inspector.core.front_end import AuthNote, OpenerFactory
from inspector.core.inspector_model import InspectorModel, build_app
from inspector.settings.profiles import Profile, ProfileStore
from inspector.settings.targets import stdio_profile, url_profile
from inspector.storage.paths import config_dir, sessions_dir, settings_path
from inspector.storage.secrets import SecretStore
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.recording.recording_settings import load_recording_settings
from inspector.ui.shell.event_loop import run_qt_async
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.shell.screenshot_open import Opening, open_and_run, parse_open
from inspector.ui.shell.startup_checks import OFFSCREEN_HINT, display_problem, unwritable_folders
from inspector.ui.traffic.traffic_model import COL_METHOD
from inspector.ui.widgets.app_resources import app_icon
from inspector.ui.widgets.theme import ThemeChoice, apply_theme

if TYPE_CHECKING:
    from inspector.auth import Opener

__all__ = [
    "GuiOptions",
    "Opening",
    "build_gui_app",
    "open_targets",
    "parse_open",
    "resolve_targets",
    "run_gui",
]

log = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_CONNECTION = 3
EXIT_TIMEOUT = 5
EXIT_NO_DISPLAY = 6


@dataclass
class GuiOptions:
    profile: str | None = None
    stdio: str | None = None
    url: str | None = None
    screenshot: str | None = None
    theme: ThemeChoice | None = None
    timeout: float = 30.0
    open_item: str | None = None  # "tool:NAME", "resource:URI", "template:T", "prompt:NAME"
    call_args: str | None = None  # JSON object: call/read/get the opened item with these
    tab: str | None = None  # screenshot mode: "traffic" shows the log instead of the workspace
    # Every --profile/--stdio/--url as (kind, value), in the order given: a tab each.
    targets: list[tuple[str, str]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # session files: a read-only tab each


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def resolve_target(options: GuiOptions, store: ProfileStore) -> Profile | None:
    """The first profile to connect to at once, or None. Raises ValueError for usage
    errors."""
    targets = resolve_targets(options, store)
    return targets[0] if targets else None


def resolve_targets(options: GuiOptions, store: ProfileStore) -> list[Profile]:
    """The profiles to open a tab for, in the order given. Raises ValueError for usage
    errors (an unknown profile, an empty or badly quoted command, a URL that is not one)."""
    given = list(options.targets)
    if not given:  # built in code with one target
        for kind in ("profile", "stdio", "url"):
            value = getattr(options, kind)
            if value:
                given.append((kind, value))
    return [_resolve(kind, value, store) for kind, value in given]


def _resolve(kind: str, value: str, store: ProfileStore) -> Profile:
    if kind == "profile":
        profile = store.find(value)
        if profile is None:
            names = ", ".join(repr(n) for n in store.names())
            raise ValueError(f"no profile named {value!r} (profiles: {names})")
        return profile
    if kind == "stdio":
        return stdio_profile(value)
    return url_profile(value)


def settle_heap() -> None:
    """Move what start-up built (modules, Qt wrappers, schemas) out of the collector's way.

    Those objects live as long as the app. Left in the oldest generation, every full
    collection walks them all again, and a flood of messages (which triggers collections)
    then stalls the GUI for tens of milliseconds each time. Frozen, they are skipped.

    Young collections run every 10,000 allocations, not every 700: a flood allocates a
    few short-lived objects per message, and collecting every hundred messages cost more
    than the messages themselves.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def desktop_opener(note: AuthNote) -> Opener:
    """The system browser opener; the auth stack is imported only when a profile needs it."""
    from inspector.ui.auth.auth_opener import desktop_opener as opener

    return opener(note)


def build_gui_app(
    store: ProfileStore, settings: QSettings, *, opener: OpenerFactory = desktop_opener
) -> InspectorModel:
    """The composition root of the GUI: the app model over `store`, recording as the
    window's settings say, logging in through the system browser (`opener`)."""
    return build_app(store, recording=load_recording_settings(settings), opener=opener)


def check_environment(options: GuiOptions) -> int | None:
    """Before Qt starts: a window needs a display (screenshot mode does not: it goes
    offscreen), and a home the app cannot write is said once, up front. An exit code, or
    None to go on."""
    problem = display_problem()
    if problem is not None:
        if not options.screenshot:
            _say(f"mcp-inspector-qt gui: error: {problem}; {OFFSCREEN_HINT}")
            return EXIT_NO_DISPLAY
        log.info("%s: the screenshot is taken offscreen", problem)
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    for line in unwritable_folders(
        {
            "profiles, window state and pins are not saved this session": config_dir(),
            "sessions are not recorded": sessions_dir(),
        }
    ):
        _say(f"warning: {line}")
    return None


def run_gui(options: GuiOptions) -> int:
    stop = check_environment(options)
    if stop is not None:
        return stop
    store = ProfileStore(secrets=SecretStore())
    if store.load_error:
        _say(f"warning: {store.load_error}")
    try:
        targets = resolve_targets(options, store)
    except ValueError as exc:
        _say(f"mcp-inspector-qt gui: error: {exc}")
        return EXIT_USAGE
    try:
        opening = parse_open(options.open_item, options.call_args)
    except ValueError as exc:
        _say(f"mcp-inspector-qt gui: error: {exc}")
        return EXIT_USAGE
    if (opening is not None or options.tab) and not options.screenshot:
        _say("mcp-inspector-qt gui: error: --open, --call-args and --tab go with --screenshot")
        return EXIT_USAGE
    files = [Path(name).absolute() for name in options.files]
    missing = [str(path) for path in files if not path.exists()]
    if missing:
        _say(f"mcp-inspector-qt gui: error: no such session file: {', '.join(missing)}")
        return EXIT_USAGE
    if files and options.screenshot and (targets or opening is not None or options.tab):
        _say(
            "mcp-inspector-qt gui: error: --screenshot of session files takes no server, "
            "--open or --tab"
        )
        return EXIT_USAGE
    if options.screenshot and not targets and not files:
        demo = store.find("demo")
        targets = [demo] if demo is not None else []

    async def main() -> int:
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.setQuitOnLastWindowClosed(False)  # the asyncio main() decides when to end
        app.setWindowIcon(app_icon())
        settings = QSettings(str(settings_path()), QSettings.Format.IniFormat)
        app_model = build_gui_app(store, settings)
        window = MainWindow(app_model, settings)
        theme = options.theme or str(window.settings.value("theme", "system"))
        apply_theme(app, theme if theme in ("system", "light", "dark") else "system")  # type: ignore[arg-type]
        window.refresh_colors()
        if options.screenshot:
            # Screenshots have one size whatever the last session left in the settings.
            window.resize(1280, 960 if opening is not None else 860)
        window.show()
        settle_heap()
        # Ctrl+C in the terminal closes the window (Python only sees the signal when it
        # runs, so a slow timer wakes it up).
        signal.signal(signal.SIGINT, lambda *_: window.close())
        wake = QTimer(window)
        wake.timeout.connect(lambda: None)
        wake.start(250)
        if targets:
            await asyncio.sleep(0)  # let the window appear before the servers start
            open_targets(window, targets)
        elif not files:
            window.offer_reopen()  # the tabs of the last run, in a bar (nothing blocks)
        opening_files = window.open_session_files(files) if files else None
        try:
            if opening_files is not None:
                code = await opened_files(window, opening_files, options.timeout)
                if options.screenshot:
                    if code != EXIT_OK:
                        return code
                    return await save_screenshot(window, Path(options.screenshot))
            if options.screenshot:
                return await take_screenshot(
                    window, Path(options.screenshot), options.timeout, opening, options.tab
                )
            await window.wait_closed()
            return EXIT_OK
        finally:
            await app_model.shutdown()
            window.close()

    return run_qt_async(main)


def open_targets(window: MainWindow, targets: list[Profile]) -> None:
    """A tab per target, in order (the first uses the window's empty tab); the last one
    given is the current tab."""
    saved = {p.id for p in window.store.profiles}
    for index, target in enumerate(targets):
        if target.id not in saved:
            window.app.profiles.add_adhoc(target)
        if index == 0:
            window.refresh_profiles()
            window.connect_profile(target)
        else:
            window.new_tab(target)


async def _settled(window: MainWindow, deadline: float) -> bool:
    """Wait until every tab is connected with its tools listed, or failed. False: timed
    out."""

    def settled(c: ConnectionController) -> bool:
        if c.model.state in (ConnState.FAILED, ConnState.LOST):
            return True
        return c.model.state is ConnState.CONNECTED and c.model.tools is not None

    while time.monotonic() < deadline:
        if all(settled(t.controller) for t in window.connection_tabs()):
            return True
        await asyncio.sleep(0.02)
    return False


async def take_screenshot(
    window: MainWindow,
    path: Path,
    timeout: float,
    opening: Opening | None = None,
    tab: str | None = None,
) -> int:
    """Wait for server info and tools (or a failure), optionally open an item and call it,
    then save the window as PNG."""
    controller = window.current_tab.controller
    deadline = time.monotonic() + timeout
    if not await _settled(window, deadline):
        _say(
            f"error: timed out after {timeout:g} s waiting for the server "
            f"(state: {controller.model.state.value}; {controller.model.detail})"
        )
        return EXIT_TIMEOUT
    for other in window.connection_tabs():
        c = other.controller
        if other is not window.current_tab and c.model.state in (ConnState.FAILED, ConnState.LOST):
            _say(f"warning: tab {other.display_title()!r} could not connect: {c.model.detail}")
    if controller.model.state in (ConnState.FAILED, ConnState.LOST):
        _say(f"error: could not connect: {controller.model.detail}")
        return EXIT_CONNECTION
    await _settle(window)
    if opening is not None:
        problem = await open_and_run(window, opening, deadline)
        if problem is not None:
            _say(f"error: {problem}")
            return EXIT_TIMEOUT if "timed out" in problem else EXIT_USAGE
    if tab == "traffic":
        _select_app_result(window)
        window.current_tab.centre.setCurrentWidget(window.current_tab.log_panel)
        await asyncio.sleep(0.15)  # let it lay out and paint on the loop
    return await save_screenshot(window, path)


async def opened_files(window: MainWindow, task: asyncio.Task[Any], timeout: float) -> int:
    """Wait for the session files to open and their rows to be shown; say on stderr what
    could not be opened (the window shows it too) and what opened with a problem (a cut-off
    last line). EXIT_USAGE when a file could not be opened, as the CLI's commands exit on
    a file that is not a session; EXIT_TIMEOUT when it took longer than `timeout`."""
    try:
        results = await asyncio.wait_for(asyncio.shield(task), timeout)
    except TimeoutError:
        _say(f"error: timed out after {timeout:g} s reading the session files")
        return EXIT_TIMEOUT
    code = EXIT_OK
    for path, view, problem in results:
        if view is None:
            _say(f"error: {problem or f'cannot open {path}'}")
            code = EXIT_USAGE
            continue
    deadline = time.monotonic() + timeout
    views = [view for _path, view, _problem in results if view is not None]
    while time.monotonic() < deadline:  # every view is indexed and shows its rows
        if all(
            view.complete and (view.rows() > 0 or not view.offline.traffic.entries)
            for view in views
        ):
            break
        await asyncio.sleep(0.02)
    for path, view, _problem in results:
        for note in view.offline.recorded.problems if view is not None else ():
            _say(f"note: {path.name}: {note}")
    await asyncio.sleep(0.15)  # let the tabs lay out and paint on the loop
    return code


async def save_screenshot(window: MainWindow, path: Path) -> int:
    """Save the window as PNG at `path` and say so on stderr."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(path)):
        _say(f"error: could not write {path}")
        return EXIT_USAGE
    tabs = window.connection_tabs()
    if len(tabs) > 1:
        names = ", ".join(t.display_title() for t in tabs)
        _say(f"saved {path} ({len(tabs)} tabs: {names}; current: {tabs[-1].display_title()})")
    else:
        _say(f"saved {path}")
    return EXIT_OK


def _select_app_result(window: MainWindow) -> None:
    """An MCP App was opened: its tool result, as sent to the app, is the telling row (and
    the app's long method names are shown whole)."""
    panel = window.current_tab.log_panel
    panel.model.flush()
    for entry in reversed(window.current_tab.traffic.entries):
        if entry.direction == "to-app" and entry.method == "ui/notifications/tool-result":
            panel.table.resizeColumnToContents(COL_METHOD)
            panel.select_entry(entry.index)
            return


async def _settle(window: MainWindow) -> None:
    """Let batched rows land and pick a telling row for the detail pane."""
    await asyncio.sleep(0.2)
    panel = window.current_tab.log_panel
    panel.model.flush()
    for entry in reversed(window.current_tab.traffic.entries):
        if entry.kind == "response" and entry.method == "tools/list":
            panel.select_entry(entry.index)
            break
    tools = window.current_tab.explorer.tool_names()
    if tools:
        window.current_tab.explorer.select("tools", tools[0])
    # Waiting on the qasync loop lets Qt lay out and paint. A nested processEvents() here
    # would run the loop's callbacks inside this task: a stdio pump woken that way fails
    # ("Cannot enter into task") and the shutdown then waits for it forever.
    await asyncio.sleep(0.15)
