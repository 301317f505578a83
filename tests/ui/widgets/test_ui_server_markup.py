"""Server text shown in real views stays text: `<b>x</b>` is shown as `<b>x</b>`.

tests/ui/widgets/test_plain_text_rule.py checks the source; this checks what a user sees, against a
server whose every string is HTML (tests/servers/gui/rich_text_server.py): the explorer row
of an item, the tool view, the prompt view (its form and a conversation) and the resource
view (and what a read returns). Every label that shows a `<` is in plain-text format, and the
labels that show a server string show it verbatim.
"""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.prompt_view import PromptGetView
from inspector.ui.workspace.resource_view import ResourceReadView
from inspector.ui.workspace.tool_view import ToolCallView
from inspector.ui.workspace.workspace import ItemPage
from tests.helpers.gui import (
    RICH_TEXT,
    python_profile,
    run,
    then_shutdown,
    until,
)
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)

MARKUP = '<img src=x onerror="alert(1)"> and <b>bold</b> <a href="http://evil">link</a>'


def labels_showing(widget: QWidget, text: str) -> list[QLabel]:
    return [label for label in widget.findChildren(QLabel) if text in label.text()]


def assert_all_plain(widget: QWidget) -> None:
    """Every label with markup-looking text is plain text (so the markup is not rendered)."""
    for label in widget.findChildren(QLabel):
        if "<" in label.text():
            assert label.textFormat() == Qt.TextFormat.PlainText, label.text()


def open_page(window: MainWindow, kind: str, key: str) -> ItemPage:
    assert current_tab(window).explorer.select(kind, key), f"{key} is not in the {kind} list"
    page = current_tab(window).workspace.current
    assert page is not None and page.item.key == key
    return page


def test_server_markup_is_shown_as_text_in_the_views(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        window.connect_profile(python_profile("html", RICH_TEXT, "--prompts-and-resources"))
        controller = current_tab(window).controller
        await until(lambda: controller.model.state is ConnState.CONNECTED, "the connection")
        await until(
            lambda: all(
                controller.model.catalog[k].loaded for k in ("tools", "prompts", "resources")
            ),
            "the lists",
        )

        # The explorer row is painted as text (drawText); the description is in its
        # tooltip, escaped, so Qt cannot take it for HTML.
        row = current_tab(window).explorer.panes["tools"].model.index(0)
        assert row.data(Qt.ItemDataRole.DisplayRole) == "<b>markup</b>"
        tip = row.data(Qt.ItemDataRole.ToolTipRole)
        assert "A tool whose description has &lt;img src=x" in tip
        assert "&lt;b&gt;bold&lt;/b&gt;" in tip and "<b>bold</b>" not in tip

        # The tool view: the description above the form, verbatim and plain.
        page = open_page(window, "tools", "<b>markup</b>")
        assert page.title.text() == "<b>markup</b>"
        assert isinstance(page.action, ToolCallView)
        shown = labels_showing(page.action, "A tool whose description has")
        assert [label.text() for label in shown] == [f"A tool whose description has {MARKUP}"]
        assert shown[0].textFormat() == Qt.TextFormat.PlainText
        assert_all_plain(page)

        # The prompt view: the argument's caption, then a conversation from prompts/get.
        page = open_page(window, "prompts", "<b>prompt</b>")
        assert page.title.text() == "<b>prompt</b>"
        view = page.action
        assert isinstance(view, PromptGetView)
        assert [lbl.text() for lbl in labels_showing(view.form, "An argument with")] == [
            f"An argument with {MARKUP}"
        ]
        task = view.get()
        assert task is not None
        await task
        assert view.description.text() == f"Description: The result's description has {MARKUP}"
        assert view.description.textFormat() == Qt.TextFormat.PlainText
        assert len(view.cards) == 1
        assert MARKUP in view.cards[0].blocks.cards[0].info.text
        assert_all_plain(page)

        # The resource view: the page header, then what resources/read returned.
        page = open_page(window, "resources", "test://markup")
        assert page.title.text() == "<b>resource</b>"
        resource = page.action
        assert isinstance(resource, ResourceReadView)
        read = resource.read()
        assert read is not None
        await read
        assert resource.reader.result is not None
        assert resource.reader.result.parts[0].text == MARKUP
        assert_all_plain(page)
        details = page.details
        details.fill()
        assert details.description.toPlainText() == f"A resource whose description has {MARKUP}"

    run(loop, then_shutdown(window, scenario()), timeout=60)
