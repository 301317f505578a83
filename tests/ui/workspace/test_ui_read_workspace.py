"""The Read/Get views through the main window: the explorer selects an item, the workspace
shows its registered view; a huge resource read with the whole window up (traffic log
included) keeps the event loop moving; Ping and the log level live in the window."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtWidgets import QApplication

from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.session_controls import LogLevelControl
from inspector.ui.workspace.prompt_view import PromptGetView
from inspector.ui.workspace.resource_view import ResourceReadView
from inspector.ui.workspace.template_view import TemplateReadView
from tests.helpers.gui import (
    connected,
    python_profile,
    run,
    until,
)
from tests.helpers.stall import STALL_LIMIT, StallMeter
from tests.helpers.tabs import current_tab
from tests.ui.workspace.test_ui_resources import BIG

pytestmark = pytest.mark.timeout(120)


async def connect_to(win: MainWindow, *args: str, max_message_mb: int = 64) -> None:
    profile = python_profile("p", *args, max_message_mb=max_message_mb)
    await connected(win, profile, listed=("resources",))


def shown(win: MainWindow, cls: type) -> object:
    views = [v for v in current_tab(win).workspace.findChildren(cls) if v.isVisible()]
    assert len(views) == 1, views
    return views[0]


async def shown_soon(win: MainWindow, cls: type, instead_of: object = None) -> object:
    """The one visible view of `cls`, once the workspace shows it (in place of another)."""

    def one_new() -> bool:
        views = [v for v in current_tab(win).workspace.findChildren(cls) if v.isVisible()]
        return len(views) == 1 and views[0] is not instead_of

    await until(one_new, f"the {cls.__name__}")
    return shown(win, cls)


def test_workspace_views_ping_and_level(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        await connect_to(window, "-m", "inspector.demo")
        c = current_tab(window).controller.model
        await until(lambda: c.catalog.prompts.loaded and c.catalog.templates.loaded, "lists")
        assert current_tab(window).explorer.select("resources", "demo://config.json")
        view = await shown_soon(window, ResourceReadView)
        assert isinstance(view, ResourceReadView)
        task = view.read()
        assert task is not None
        await task
        assert '"retries": 3' in view.reader.contents.parts[0].text_view.toPlainText()
        assert current_tab(window).explorer.select("templates", "demo://notes/{topic}")
        assert isinstance(await shown_soon(window, TemplateReadView), TemplateReadView)
        assert current_tab(window).explorer.select("prompts", "greet")
        prompt = await shown_soon(window, PromptGetView)
        assert isinstance(prompt, PromptGetView)
        prompt.form.set_values({"name": "Ada"})
        task = prompt.get()
        assert task is not None
        await task
        assert len(prompt.cards) == 2
        task = current_tab(window).ping.ping()
        assert task is not None
        await task
        assert current_tab(window).ping.result.text().endswith("ms")
        level = current_tab(window).notifications.findChild(LogLevelControl)
        assert level is not None and level.combo.isEnabled()
        await current_tab(window).controller.model.shutdown()

    run(loop, scenario())


def test_huge_resource_with_the_whole_window(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        await connect_to(window, BIG, max_message_mb=16)  # text-20mb is over this limit
        assert current_tab(window).explorer.select("resources", "big://text-15mb")
        view = await shown_soon(window, ResourceReadView)
        assert isinstance(view, ResourceReadView)
        with StallMeter() as meter:
            task = view.read()
            assert task is not None
            await task
            part = view.reader.contents.parts[0]
            load = part.load_all()
            assert load is not None
            await load
            current_tab(window).centre.setCurrentWidget(
                current_tab(window).log_panel
            )  # the traffic log with the row
            await asyncio.sleep(0.3)  # not a wait: the meter watches the log show the huge row
            current_tab(window).centre.setCurrentWidget(current_tab(window).workspace)
            assert current_tab(window).explorer.select("resources", "big://text-20mb")
            over = await shown_soon(window, ResourceReadView, instead_of=view)
            assert isinstance(over, ResourceReadView)
            task = over.read()
            assert task is not None
            await task
            await until(
                lambda: part.fully_shown and "exceeds the size limit" in over.reader.status.text(),
                "the refusal shown",
            )
        assert meter.worst < STALL_LIMIT, f"the window stalled {meter.worst * 1000:.0f} ms"
        await current_tab(window).controller.model.shutdown()

    run(loop, scenario(), timeout=100)


def test_destroyed_views_ignore_later_connections(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    """The workspace evicts old pages; their views must not react to a reconnect."""

    async def scenario() -> None:
        from PySide6.QtCore import QEvent

        await connect_to(window, "-m", "inspector.demo")
        c = current_tab(window).controller
        catalog = c.model.catalog
        await until(lambda: catalog.prompts.loaded and catalog.templates.loaded, "lists")
        views = [
            ResourceReadView(c.model.catalog.resources.items[0], c),
            TemplateReadView(c.model.catalog.templates.items[0], c),
            PromptGetView(c.model.catalog.prompts.items[0], c),
        ]
        for view in views:
            view.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        await asyncio.sleep(0)
        errors_before = len(c.model.errors)
        c.model.reconnect()
        await until(lambda: c.model.state is ConnState.CONNECTED, "reconnect", timeout=30)
        await asyncio.sleep(0.1)  # not a wait: a destroyed view reacting would show by now
        assert len(c.model.errors) == errors_before, [e.message for e in c.model.errors.items]
        await c.model.shutdown()

    run(loop, scenario())
