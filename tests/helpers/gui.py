"""Helpers for GUI tests on a qasync loop.

TESTING.md: never use qtbot.waitUntil/waitSignal inside a coroutine running on qasync
(it hangs); poll with `await asyncio.sleep(0.01)` instead, and bound every run.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Iterable, Iterator
from pathlib import Path
from typing import Any, Literal, TypeVar

import qasync
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from inspector.core.connection_state import ConnState
from inspector.core.front_end import OpenerFactory
from inspector.core.inspector_model import InspectorModel
from inspector.features.asks.canned_replies import CannedReplies
from inspector.features.catalog.lists import CatalogKind
from inspector.features.forms.argument_memory import ArgumentMemory
from inspector.settings.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.asks.gui_responder import GuiResponders
from inspector.ui.auth.auth_opener import desktop_opener
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.shell.gui_command import build_gui_app
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.shell.qt_thread_gc import collect_on_qt_thread
from tests.helpers.peers import PY, REPO
from tests.helpers.tabs import current_tab

T = TypeVar("T")
MISBEHAVING = str(REPO / "tests" / "servers" / "misbehaving" / "server.py")
RICH_TEXT = str(REPO / "tests" / "servers" / "gui" / "rich_text_server.py")


_current_loop: asyncio.AbstractEventLoop | None = None


def current_loop() -> asyncio.AbstractEventLoop | None:
    """The qasync loop of the running GUI test, if any (see tests/conftest.py)."""
    return _current_loop


def new_loop(app: QApplication) -> Iterator[asyncio.AbstractEventLoop]:
    global _current_loop
    # As in the app: no QObject may be freed by the cyclic collector on a worker thread
    # (a SIGSEGV in QTimerInfoList::activateTimers, docs/known-issues.md).
    collect_on_qt_thread(app)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    _current_loop = loop
    try:
        yield loop
    finally:
        if not loop.is_closed() and not loop.is_running():
            # Let callbacks queued by the test's teardown run inside the loop.
            loop.run_until_complete(asyncio.sleep(0.01))
            # Then end what is still pending, as asyncio.run does: a task the loop never ran
            # leaves an unawaited coroutine behind (a RuntimeWarning in some later test).
            pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.wait(pending, timeout=5))
        _current_loop = None
        loop.close()
        asyncio.set_event_loop(None)


def run(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T], timeout: float = 30) -> T:
    return loop.run_until_complete(asyncio.wait_for(coro, timeout))


async def until(predicate: Callable[[], object], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(0.01)


def python_profile(name: str, *args: str, max_message_mb: int = 64) -> Profile:
    """A stdio profile running this interpreter with `inspector` importable."""
    return Profile(
        name=name,
        stdio=StdioSettings(
            command=PY, args=list(args), env=[EnvVar(name="PYTHONPATH", value=str(REPO))]
        ),
        max_message_mb=max_message_mb,
    )


def window_for(
    store: ProfileStore,
    tmp: Path,
    settings_name: str = "window.ini",
    *,
    opener: OpenerFactory = desktop_opener,
) -> MainWindow:
    """A main window over `store`, its app model built as `gui` builds it (not shown)."""
    settings = QSettings(str(tmp / settings_name), QSettings.Format.IniFormat)
    return MainWindow(build_gui_app(store, settings, opener=opener), settings)


def make_window(tmp: Path) -> MainWindow:
    window = window_for(ProfileStore(tmp / "profiles.json", SecretStore()), tmp)
    window.show()
    return window


def make_controller(
    tmp: Path, console: Callable[[str], None] | None = None
) -> ConnectionController:
    """A connection and its Qt adapter without a window: no pins, no recording, asks
    answered by dialogs without a parent; `console` hears the server console's lines."""
    app = InspectorModel(
        profiles=ProfileStore(tmp / "profiles.json", SecretStore()),
        canned=CannedReplies(tmp / "canned-replies.json"),
        arguments=ArgumentMemory.shared(),
    )
    connection = app.open_connection(GuiResponders(None, None))
    if console is not None:
        connection.console.add(console)
    return ConnectionController(connection, app.arguments)


async def connected(
    target: MainWindow | ConnectionController,
    profile: Profile,
    *,
    listed: Iterable[CatalogKind] | Literal["all"] = (),
    timeout: float = 30,
) -> ConnectionController:
    """Connect and wait until connected and the `listed` lists have settled (loaded, failed
    or absent; "all": every list, none still loading). A window connects through its own
    intent, as a click would (it remembers the profile, the log knows the connection)."""
    if isinstance(target, MainWindow):
        target.connect_profile(profile)
        controller = current_tab(target).controller
    else:
        controller = target
        controller.model.connect_profile(profile)
    c = controller.model
    await until(
        lambda: c.state is ConnState.CONNECTED,
        f"{profile.name} to connect (state {c.state}: {c.detail})",
        timeout=timeout,
    )
    lists = c.catalog.lists
    kinds = list(lists) if listed == "all" else list(listed)
    await until(
        lambda: (
            all(lists[k].loaded or lists[k].error or lists[k].absent for k in kinds)
            and not (listed == "all" and any(lst.loading for lst in lists.values()))
        ),
        f"{', '.join(kinds)} listed ({c.detail})",
        timeout=timeout,
    )
    return controller


async def close_window(window: MainWindow) -> None:
    await window.shutdown()  # every tab's server
    window.close()
    window.deleteLater()


async def then_shutdown(window: MainWindow, scenario: Coroutine[Any, Any, T]) -> T:
    """Run `scenario`, then close the session: no server may outlive a test body, since
    pytest-qt processes Qt events between test phases, when no asyncio loop runs (qasync
    timers would then fire outside the loop)."""
    try:
        return await scenario
    finally:
        await window.shutdown()  # every tab's server


def with_demo(
    loop: asyncio.AbstractEventLoop,
    win: MainWindow,
    body: Callable[[], Coroutine[Any, Any, None]],
    *,
    prompts: bool = False,
    timeout: float = 100,
) -> None:
    """Connect the current tab to the bundled demo profile, wait for its tools (and its
    prompts with `prompts`), run `body`, and shut the server down before the test ends (no
    server may outlive the test body)."""

    async def scenario() -> None:
        demo = win.store.find("demo")
        assert demo is not None
        try:
            win.connect_profile(demo)
            await until(
                lambda: current_tab(win).controller.model.tools is not None, "the demo's tools"
            )
            if prompts:
                await until(
                    lambda: current_tab(win).controller.model.catalog.prompts.loaded,
                    "the demo's prompts",
                )
            await body()
        finally:
            await current_tab(win).controller.model.shutdown()

    run(loop, scenario(), timeout=timeout)
