"""A Markdown preview opens at the top of the document (issue 18.11), in a resource's
contents and in a text block alike."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from inspector.features.resource_content import parse_read_result
from inspector.ui.content.panes import SafeMarkdownBrowser, TextPane
from inspector.ui.content.resource_contents_view import PartView, ResourceContentsView

pytestmark = pytest.mark.timeout(60)

LONG_MD = "# Title\n\n" + "\n\n".join(
    f"## Section {i}\n\nParagraph {i} of text." for i in range(200)
)


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def test_resource_markdown_preview_opens_at_the_top(qapp: QApplication) -> None:
    view = ResourceContentsView()
    view.resize(700, 400)
    view.show()
    result = parse_read_result(
        {"contents": [{"uri": "file:///README.md", "mimeType": "text/markdown", "text": LONG_MD}]},
        "file:///README.md",
    )
    view.show_result(result)
    settle()
    (part,) = view.findChildren(PartView)
    part.show_mode("markdown")  # the Markdown button
    settle()
    shown = [b for b in view.findChildren(SafeMarkdownBrowser) if b.isVisible()]
    assert shown
    bar = shown[0].verticalScrollBar()
    assert bar.maximum() > 0, "the document is longer than the view"
    assert bar.value() == 0
    assert shown[0].textCursor().position() == 0
    view.deleteLater()


def test_text_block_markdown_opens_at_the_top(qapp: QApplication) -> None:
    pane = TextPane(LONG_MD, "text/markdown")
    pane.resize(600, 300)
    pane.show()
    settle()
    assert pane.mode() == "markdown" and pane.markdown is not None
    assert pane.markdown.verticalScrollBar().value() == 0
    pane.deleteLater()
