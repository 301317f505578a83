"""Journey (issue 30, item 2): an HTTP profile of the demo server (over HTTP, in this
process). Profiles ▸ the profile ▸ "Server Card (draft)" (disabled for a stdio profile):
the tab says it is a draft; Fetch Server Card shows the card's name, version and remote,
and where it was found. With a card that is not JSON the findings are listed; with none,
"No Server Card (not an error)"."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from inspector.demo.http import DemoHttpServer
from inspector.settings.profiles import HttpSettings, Profile, ProfileStore, StdioSettings
from inspector.ui.profiles.profiles_dialog import ProfilesDialog
from inspector.ui.profiles.server_card_tab import ServerCardTab
from tests.helpers.gui import run, until
from tests.helpers.journeys import click, click_tab, tab_titles
from tests.helpers.memory_keyring import MemoryKeyring

pytestmark = pytest.mark.timeout(60)


def click_profile(dialog: ProfilesDialog, name: str) -> None:
    """Click the profile's row in the list, as a person does."""
    [item] = dialog.list.findItems(name, Qt.MatchFlag.MatchStartsWith)
    rect = dialog.list.visualItemRect(item)
    assert rect.isValid(), f"{name!r} is not on screen"
    QTest.mouseClick(dialog.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


@pytest.fixture
def card_demo() -> Iterator[DemoHttpServer]:
    server = DemoHttpServer("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.close_all()
        server.server_close()
        thread.join(5)


def test_the_server_card_is_shown_marked_draft(
    memory_keyring: MemoryKeyring,
    loop: asyncio.AbstractEventLoop,
    store: ProfileStore,
    card_demo: DemoHttpServer,
) -> None:
    store.put(Profile(name="local script", stdio=StdioSettings(command="python3")))
    store.put(
        Profile(name="demo over http", transport="http", http=HttpSettings(url=card_demo.url))
    )
    dialog = ProfilesDialog(store)
    dialog.show()
    tabs = dialog.editor.tabs
    card_tab = tabs.indexOf(dialog.editor.card)

    async def scenario() -> None:
        click_profile(dialog, "local script")
        assert not tabs.isTabEnabled(card_tab)
        click_profile(dialog, "demo over http")
        assert "Server Card (draft)" in tab_titles(tabs)
        click_tab(tabs, "Server Card (draft)")
        page = tabs.currentWidget()
        assert isinstance(page, ServerCardTab)
        assert page.draft.text().startswith("Draft: Server Cards are a proposal (SEP-2127)")
        assert page.draft.isVisible()

        click(page.fetch_button)
        await until(lambda: page.fetch_button.isEnabled() and page.result, "the card")
        assert page.status.text() == f"Found a Server Card (draft) at {card_demo.url}/server-card"
        shown = page.text.toPlainText().splitlines()
        assert "name: io.github.mcp-inspector-qt/mcp-inspector-qt-demo" in shown
        assert "version: 0.1.0" in shown
        assert f"remote 1: streamable-http {card_demo.url}" in shown

        card_demo.card = b"<html>welcome</html>"
        click(page.fetch_button)
        # While it is asked for, the status is not in the last answer's colour.
        assert page.status.text().startswith("Fetching the card of ")
        assert page.status.styleSheet() == ""
        await until(lambda: "not with a card" in page.status.text(), "the broken card")
        assert "  (the whole document): It is not JSON (application/mcp-server-card+json)." in (
            page.text.toPlainText().splitlines()
        )

        card_demo.card = None
        click(page.fetch_button)
        await until(lambda: page.status.text().startswith("No Server Card"), "no card")
        assert "(not an error)" in page.status.text()

    try:
        run(loop, scenario())
    finally:
        dialog.deleteLater()
