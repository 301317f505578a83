"""The compare window over two real connections of one InspectorModel (no tabs needed): two
`mcp` 2.x builds that differ by one tool and one schema field, their structural diff,
"Run on both", a side that cannot connect, and a side that dies mid-listing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from inspector.core.connection import ConnectionModel
from inspector.core.inspector_model import InspectorModel
from inspector.features.asks.canned_replies import CannedReplies
from inspector.features.forms.argument_memory import ArgumentMemory
from inspector.settings.profiles import Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.asks.gui_responder import GuiResponders
from inspector.ui.compare import CompareWindow, open_compare
from tests.helpers.gui import python_profile, run, until
from tests.helpers.journeys import press
from tests.helpers.peers import SERVERS

CATALOG = str(SERVERS / "sdk" / "catalog_server.py")
PAGING = str(SERVERS / "misbehaving" / "paging_server.py")


@pytest.fixture(autouse=True)
def keep_running(qapp: QApplication) -> Iterator[None]:
    """As `gui` sets it: closing the compare window (the only window here) must not end
    the event loop the test runs on."""
    before = qapp.quitOnLastWindowClosed()
    qapp.setQuitOnLastWindowClosed(False)
    yield
    qapp.setQuitOnLastWindowClosed(before)


def two_connections(tmp: Path) -> tuple[ConnectionModel, ConnectionModel]:
    app = InspectorModel(
        profiles=ProfileStore(tmp / "profiles.json", SecretStore()),
        canned=CannedReplies(tmp / "canned-replies.json"),
        arguments=ArgumentMemory.shared(),
    )
    return app.open_connection(GuiResponders(None, None)), app.open_connection(
        GuiResponders(None, None)
    )


async def connect(conn: ConnectionModel, profile: Profile) -> None:
    conn.connect_profile(profile)
    await until(lambda: conn.connected, f"{profile.name} to connect ({conn.detail})", 30)


async def settle(window: CompareWindow) -> None:
    await until(lambda: window.task is not None, "a refresh to start")
    assert window.task is not None
    await asyncio.wait_for(asyncio.shield(window.task), 30)


def test_two_builds_side_by_side_and_run_on_both(
    loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    left, right = two_connections(tmp_path)

    async def scenario() -> None:
        await asyncio.gather(
            connect(left, python_profile("v1", CATALOG)),
            connect(right, python_profile("v2", CATALOG, "--build", "v2")),
        )
        window = open_compare(left, right, "catalog v1", "catalog v2")
        try:
            await settle(window)
            assert window.diff is not None and not window.diff.same
            assert window.summary.text() == "Differences: 1 added, 1 changed."
            rows = dict(window.tree.rows("tools"))
            assert rows == {
                "search": "~ changed: inputSchema",
                "translate": "+ added",
                "echo": "= same",
            }
            assert dict(window.tree.rows("prompts")) == {"review": "= same"}
            assert "catalog-peer" in window.left_label.text()
            window.copy_button.click()
            copied = QApplication.clipboard().text()
            assert '~ /inputSchema/properties/limit/type: "integer" → "number"' in copied
            assert '+ added tool "translate"' in copied
            # The picked changed item: its structural diff, not a text diff.
            assert window.tree.select("tools", "search")
            assert window.detail.paths.toPlainText() == (
                '~ /inputSchema/properties/limit/type: "integer" → "number"'
            )
            assert '"integer"' in " ".join(window.detail.marked("left"))
            assert '"number"' in " ".join(window.detail.marked("right"))
            # Unchanged items can be hidden.
            window.show_same.setChecked(False)
            assert dict(window.tree.rows("tools")) == {
                "search": "~ changed: inputSchema",
                "translate": "+ added",
            }
            # Run on both: the search tool was picked with it.
            panel = window.run_both
            assert panel.name.currentText() == "search"
            panel.choose("tool", "search", {"query": "q", "limit": 3})
            task = panel.start()
            assert task is not None
            await asyncio.wait_for(task, 20)
            assert panel.result is not None
            assert [c.path for c in panel.result.changes] == [
                "/content/0/text",
                "/structuredContent/result",
            ]
            assert panel.status.text() == "The answers differ in 2 place(s)."
            assert panel.left_status.text().startswith("catalog v1: answered in")
            # Bad arguments: a clear message, no call.
            panel.form.set_mode("json")
            panel.form.set_json_text("[1, 2")
            assert panel.start() is None
            assert panel.start(anyway=True) is None  # not JSON: nothing to send
            assert "the JSON is not valid" in panel.status.text()
            # Arguments that break the schema: refused, unless sent anyway.
            panel.form.set_json_text('{"query": 5}')
            assert panel.start() is None
            assert panel.status.text().startswith("The arguments do not fit the schema")
            task = panel.start(anyway=True)
            assert task is not None
            await asyncio.wait_for(task, 20)
            assert panel.result is not None and panel.result.arguments == {"query": 5}
            panel.choose("prompt", "review", {"topic": "tests"})
            task = panel.start()
            assert task is not None
            await asyncio.wait_for(task, 20)
            assert panel.status.text() == "The two answers are the same (volatile fields ignored)."
        finally:
            window.close()
            await asyncio.gather(left.shutdown(), right.shutdown())

    run(loop, scenario(), 90)


def test_a_side_that_cannot_connect_keeps_the_other_usable(
    loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    left, right = two_connections(tmp_path)

    async def scenario() -> None:
        await connect(left, python_profile("v1", CATALOG))
        right.connect_profile(
            Profile(name="broken", stdio=StdioSettings(command="/nonexistent/mcp-server"))
        )
        await until(lambda: right.state.value == "failed", "the right side to fail", 20)
        window = open_compare(left, right, "catalog v1", "broken build")
        try:
            await settle(window)
            assert "Right: broken build" in window.right_label.text()
            assert "not connected (failed" in window.right_label.text()
            assert "/nonexistent/mcp-server" in window.right_label.text()
            rows = dict(window.tree.rows("tools"))
            assert rows == {"echo": "? not compared", "search": "? not compared"}
            assert "not compared" in window.summary.text()
            # Run on both still answers on the side that works.
            window.run_both.choose("tool", "echo", {"text": "hi"})
            task = window.run_both.start()
            assert task is not None
            await asyncio.wait_for(task, 20)
            result = window.run_both.result
            assert result is not None and result.left.result is not None
            assert result.right.error == "not connected"
            assert "broken build: failed" in window.run_both.right_status.text()
        finally:
            window.close()
            await asyncio.gather(left.shutdown(), right.shutdown())

    run(loop, scenario(), 60)


def test_a_side_dying_mid_listing_says_so(loop: asyncio.AbstractEventLoop, tmp_path: Path) -> None:
    left, right = two_connections(tmp_path)

    async def scenario() -> None:
        await asyncio.gather(
            connect(left, python_profile("paging", PAGING)),
            connect(right, python_profile("dies", PAGING, "--mode", "dies-paging")),
        )
        window = open_compare(left, right, "paging", "dies while paging")
        try:
            await settle(window)
            text = window.right_label.text()
            assert "listing tools failed" in text and "server exited (code 4)" in text
            tally = window.diff.counts()["tools"] if window.diff else {}
            assert tally["same"] == 100 and tally["unlisted"] == 150 and tally["removed"] == 0
            assert "⚠" not in window.left_label.text()
        finally:
            window.close()
            await asyncio.gather(left.shutdown(), right.shutdown())

    run(loop, scenario(), 60)


def test_demo_in_two_eras_is_the_same_until_a_list_changes(
    loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    left, right = two_connections(tmp_path)
    modern = python_profile("demo modern", "-m", "inspector.demo")
    modern.era = "modern"

    async def scenario() -> None:
        await asyncio.gather(
            connect(left, python_profile("demo legacy", "-m", "inspector.demo")),
            connect(right, modern),
        )
        await until(lambda: left.catalog.tools.loaded, "the left tab's tools")
        window = open_compare(left, right, "demo (legacy)", "demo (modern)")
        try:
            await settle(window)
            assert window.diff is not None and window.diff.same, window.summary.text()
            assert window.summary.text() == "The catalogs are the same."
            assert "legacy" in window.left_label.text() and "modern" in window.right_label.text()
            # The left server changes its tool list: the tab re-lists, the window says so.
            assert left.session is not None
            await left.session.client.call_tool("toggle_bonus_tool", {})
            await until(lambda: window.stale, "the window to hear of the change")
            assert "Changed since: tools on the left; Refresh." in window.summary.text()
            window.refresh_button.click()
            await settle(window)
            assert window.diff is not None and not window.diff.same
            # The bonus tool is listed on the left only now.
            assert [(i.key, i.status) for i in window.diff.differences] == [("reverse", "removed")]
            assert dict(window.tree.rows("tools"))["reverse"] == "− removed"
            assert window.stale == []
        finally:
            window.close()
            await asyncio.gather(left.shutdown(), right.shutdown())

    run(loop, scenario(), 60)


def test_before_anything_is_picked_or_run_the_panes_say_so_and_esc_closes(
    loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    """Issue 31, items 18 and 7: the panes are titled with the two sides (not a replay's
    "Recorded" / "Now"), "Run on both" claims no sameness before anything ran, Esc closes."""
    left, right = two_connections(tmp_path)  # neither connected: nothing to list

    async def scenario() -> None:
        window = open_compare(left, right, "catalog v1", "catalog v2")
        await settle(window)
        for view in (window.detail, window.run_both.view):
            assert (view.left_title.text(), view.right_title.text()) == (
                "catalog v1",
                "catalog v2",
            )
        assert window.detail.paths.placeholderText() == "Pick an item to compare its two sides."
        window.tabs.setCurrentWidget(window.run_both)
        paths = window.run_both.view.paths
        assert paths.isVisible() and not paths.toPlainText()
        assert paths.placeholderText() == "Run a call on both servers to compare the answers."
        press(window.tree, "Escape")
        assert not window.isVisible()

    run(loop, scenario())
