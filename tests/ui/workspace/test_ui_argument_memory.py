"""Remembered arguments in the tool form (issue 18.6): secrets are decided by the schema
and by a list of names the user edits, not by a substring; the form says which values are
not remembered and why."""

from __future__ import annotations

import asyncio

import pytest

from inspector.features.catalog.lists import CatalogItem
from inspector.features.mcp_models import Tool, parse_lenient
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.tabs import current_tab

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("config_dir")]

RAW = {
    "name": "complete",
    "inputSchema": {
        "type": "object",
        "properties": {
            "prompt": {"type": "string"},
            "maxTokens": {"type": "integer"},
            "apiKey": {"type": "string"},
            "tenant": {"type": "string"},
        },
    },
}


def tool_view(window: MainWindow) -> ToolCallView:
    item = CatalogItem("tools", "complete", RAW, parse_lenient(Tool, RAW))
    return ToolCallView(item, current_tab(window).controller)


def test_the_form_says_what_is_not_remembered_and_max_tokens_is(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    view = tool_view(window)
    view.show()
    note = view.memory_note.text()
    assert view.memory_note.isVisible()
    assert "apiKey (its name is in the secret field names)" in note
    assert "maxTokens" not in note and "tenant" not in note
    assert "Client ▸ Secret field names" in note
    memory = current_tab(window).controller.arguments
    memory.remember("p", "complete", {"maxTokens": 256, "apiKey": "sk-1"}, RAW["inputSchema"])
    assert memory.recall("p", "complete") == {"maxTokens": 256}
    # The user adds a name from the Client menu; the note follows.
    actions = [a.text() for a in current_tab(window).client_features.menu.actions()]
    assert "Secret &field names…" in actions
    dialog = current_tab(window).client_features.edit_secret_names()
    assert "token" in dialog.textValue().splitlines()
    dialog.setTextValue(dialog.textValue() + "\ntenant")
    dialog.accept()
    assert "tenant" in memory.secret_names
    view.hide()
    view.show()
    assert "tenant (its name is in the secret field names)" in view.memory_note.text()
    view.deleteLater()


def test_no_note_when_everything_is_remembered(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    raw = {"name": "plain", "inputSchema": {"type": "object", "properties": {"n": {}}}}
    view = ToolCallView(
        CatalogItem("tools", "plain", raw, parse_lenient(Tool, raw)), current_tab(window).controller
    )
    view.show()
    assert not view.memory_note.isVisible()
    view.deleteLater()
