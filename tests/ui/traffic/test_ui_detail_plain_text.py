"""The traffic detail pane colours JSON only (issue 31, item 12): an HTTP row's plain text
("POST http://…") shows uncoloured, where the JSON lexer used to paint the "tt" of "http"
as a keyword; a JSON message is still coloured."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication

from inspector.settings.targets import url_profile
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.demo_http import demo_http_server
from tests.helpers.gui import run, then_shutdown, until
from tests.helpers.journeys import click_row, click_tab, row_texts, shows_connected

pytestmark = pytest.mark.timeout(60)


def coloured(document: QTextDocument) -> list[str]:
    """The pieces of text the highlighter gave a colour."""
    out = []
    block = document.firstBlock()
    while block.isValid():
        layout = block.layout()
        for part in layout.formats() if layout is not None else []:
            out.append(block.text()[part.start : part.start + part.length])
        block = block.next()
    return out


def test_an_http_rows_plain_text_is_not_coloured_as_json(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    tab = window.current_tab

    async def scenario(url: str) -> None:
        window.add_adhoc(url_profile(url))
        tab.connect_selected()
        await until(lambda: shows_connected(tab, 11), "the demo over HTTP")
        click_tab(tab.centre, "Traffic")
        table = tab.log_panel.table
        await until(lambda: any(r[2] == "http" for r in row_texts(table)), "an HTTP row")
        click_row(table, "http", column=2)
        pretty = tab.log_panel.detail.pretty
        await until(lambda: "http" in pretty.toPlainText(), "the row's text")
        QApplication.processEvents()  # the highlighter's pass queued by the new text
        assert coloured(pretty.document()) == [], pretty.toPlainText()
        click_row(table, "response", column=2)
        await until(lambda: '"jsonrpc"' in coloured(pretty.document()), "a JSON message coloured")

    with demo_http_server() as url:  # closed while its server still runs (never after)
        run(loop, then_shutdown(window, scenario(url)))
