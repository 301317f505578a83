"""Switching to the dark theme with a result on screen (issue 31, item 2): the result card
already shown turns dark as a new one would: its header text light, its buttons and text
box dark, its status and badges in the dark theme's colours. Checked on the pixels."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QWidget,
)

from inspector.ui.forms.schema_form import SchemaForm
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.widgets.theme import apply_theme, colors
from inspector.ui.workspace.call_card import CallCard
from tests.helpers.gui import run, until
from tests.helpers.journeys import (
    click,
    click_row,
    field_edit,
    menu_action,
    shows_connected,
    type_into,
)

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def light_again(qapp: QApplication) -> Iterator[None]:
    """The palette is the application's: the next test finds it light again."""
    yield
    apply_theme(qapp, "light")


def lightness(widget: QWidget) -> int:
    """The lightness of the widget's most common colour on screen (its background)."""
    image = widget.grab().toImage()
    seen: dict[int, int] = {}
    for y in range(0, image.height(), 3):
        for x in range(0, image.width(), 3):
            rgb = image.pixel(x, y)
            seen[rgb] = seen.get(rgb, 0) + 1
    return QColor.fromRgb(max(seen, key=lambda k: seen[k])).lightness()


def test_a_result_card_turns_dark_with_the_theme(
    window: MainWindow, loop: asyncio.AbstractEventLoop, light_again: None
) -> None:
    tab = window.current_tab

    page_form: list[SchemaForm] = []

    async def scenario() -> CallCard:
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 11), "the demo server")
        click_row(tab.explorer.panes["tools"].tree, "Echo")
        page = tab.workspace.current
        assert page is not None
        form = page.findChild(SchemaForm)
        assert form is not None
        page_form.append(form)
        type_into(field_edit(form, "message"), "hello dark")
        run_button = next(b for b in page.findChildren(QPushButton) if b.text() == "Run")
        click(run_button)
        await until(lambda: page.findChild(CallCard) is not None, "the result card")
        card = page.findChild(CallCard)
        assert card is not None
        await until(lambda: "hello dark" in _texts(card), "the result")
        return card

    card = run(loop, scenario())
    boxes = _boxes(card)
    assert boxes and lightness(boxes[0]) > 200  # light to begin with
    menu_action(window, "View", "Theme", "Dark").trigger()
    QApplication.processEvents()
    assert colors().dark
    for box in boxes:
        assert lightness(box) < 80, "a text box stayed light"
    buttons = [b for b in card.findChildren(QAbstractButton) if b.isVisible()]
    assert buttons
    for button in buttons:
        assert lightness(button) < 110, f"the button {button.text()!r} stayed light"
    status = card.status_label
    assert colors().ok.name() in status.styleSheet()  # "OK" in the dark theme's green
    headers = [w for w in card.findChildren(QLabel) if w.isVisible() and "text ·" in w.text()]
    for header in headers:
        assert header.palette().windowText().color().lightness() > 150, "dark header text"

    # What was typed in the form is still there, and the next call sends it.
    (form,) = page_form
    assert field_edit(form, "message").toPlainText() == "hello dark"

    async def again() -> None:
        page = tab.workspace.current
        assert page is not None
        click(next(b for b in page.findChildren(QPushButton) if b.text() == "Run"))
        await until(lambda: len(page.findChildren(CallCard)) == 2, "a second result")
        await until(
            lambda: all("hello dark" in _texts(c) for c in page.findChildren(CallCard)),
            "the second result",
        )

    run(loop, again())
    assert field_edit(form, "message").toPlainText() == "hello dark"


def _boxes(card: CallCard) -> list[QPlainTextEdit | QTextEdit]:
    found = [*card.findChildren(QPlainTextEdit), *card.findChildren(QTextEdit)]
    return [w for w in found if w.isVisible()]


def _texts(card: CallCard) -> str:
    return " ".join(w.toPlainText() for w in _boxes(card))
