"""Journey (issue 30, item 3): a modern-era server whose lists are fresh for 10 minutes
(the demo with --ttl-ms 600000). Connect: the tools pane says the cache hints and until
when they are fresh; the traffic log shows one tools/list. Reconnect within the TTL: the
tools are still there, "kept from the last connection", and no second tools/list was sent.
Refresh lists again. A resource read's status line shows its own ttlMs and cacheScope."""

from __future__ import annotations

import asyncio

import pytest

from inspector.settings.profiles import Profile
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.resource_view import ResourceReadView
from tests.helpers.gui import python_profile, run, until
from tests.helpers.journeys import (
    click,
    click_row,
    click_tab,
    row_texts,
    shows_connected,
    type_keys,
)

pytestmark = pytest.mark.timeout(90)


def sent(window: MainWindow, method: str) -> int:
    """Requests of `method` the traffic log shows."""
    return sum(
        1
        for row in row_texts(window.current_tab.log_panel.table)
        if method in row and "→" in " ".join(row)
    )


def test_a_fresh_list_is_not_listed_again_on_reconnect_until_refresh(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    profile: Profile = python_profile("ttl demo", "-m", "inspector.demo", "--ttl-ms", "600000")
    window.store.put(profile.model_copy(update={"era": "modern"}))

    async def scenario() -> None:
        tab = window.current_tab
        pane = tab.explorer.panes["tools"]
        try:
            type_keys(tab.bar.profile_combo, "ttl")
            click(tab.bar.connect_button)
            await until(lambda: shows_connected(tab, 11), "the demo's tools")
            assert pane.cache_label.isVisible()
            text = pane.cache_label.text()
            assert text.startswith("ttlMs 600000 · public · fresh until ")
            await until(lambda: sent(window, "tools/list") == 1, "one tools/list in the log")

            click(tab.bar.disconnect_button)
            await until(lambda: tab.bar.connect_button.isEnabled(), "disconnected")
            click(tab.bar.connect_button)
            await until(lambda: sent(window, "server/discover") == 2, "a second handshake")
            await until(lambda: tab.bar.state_label.text() == "Connected", "connected again")
            assert pane.status.text() == "11 tools"
            assert "ttlMs 600000 · public · kept, fresh until " in pane.cache_label.text()
            assert "kept from the last connection" in pane.cache_label.toolTip()
            assert sent(window, "tools/list") == 1  # fresh: not listed again

            click(pane.refresh_button)
            await until(lambda: sent(window, "tools/list") == 2, "Refresh lists again")
            await until(lambda: "kept" not in pane.cache_label.text(), "a fresh listing")

            click_tab(tab.explorer.tabs, "Resources")
            click_row(tab.explorer.panes["resources"].tree, "Read me")
            view = getattr(tab.workspace.stack.currentWidget(), "action", None)
            assert isinstance(view, ResourceReadView) and view.isVisible()
            click(view.reader.read_button)
            await until(lambda: "Read at" in view.reader.status.text(), "the read")
            assert view.reader.status.text().endswith(
                " · ttlMs 600000 (10 min) · cacheScope public"
            )
        finally:
            await tab.controller.model.shutdown()

    run(loop, scenario(), timeout=80)
