"""Journey (issue 31, items 1, 9 and 13): the call form as a person meets it on the demo
server at the window's default size. Add two numbers ▸ Run with both fields empty: each
problem is listed once, and "required" once under each field; the form grows to show the
banner rather than scrolling. Type the numbers: the problems and the "Fix the arguments…"
hint go. Run: the result comes, and the two fields stay on screen whole (no scrollbar of
the form's own). Ask the user ▸ Run: the elicitation form speaks of fields, not
arguments."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtWidgets import QWidget

from inspector.ui.asks.elicitation_dialog import ElicitationDialog
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.connection_tab import ConnectionTab
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import run, until
from tests.helpers.journeys import (
    click,
    click_row,
    field_edit,
    shows_connected,
    type_into,
    visible_texts,
    visible_window,
)

pytestmark = [pytest.mark.timeout(120), pytest.mark.usefixtures("config_dir")]


def whole_on_screen(widget: QWidget) -> bool:
    """Nothing of `widget` is cut off by a scroll area or a splitter."""
    return widget.isVisible() and widget.visibleRegion().boundingRect().size() == widget.size()


def open_tool(tab: ConnectionTab, title: str) -> ToolCallView:
    click_row(tab.explorer.panes["tools"].tree, title)
    view = getattr(tab.workspace.stack.currentWidget(), "action", None)
    assert isinstance(view, ToolCallView) and view.isVisible()
    return view


def test_add_two_numbers_problems_once_hint_goes_form_stays_whole(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    window.resize(1280, 800)

    async def scenario() -> None:
        tab = window.current_tab
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 11), "the demo's 11 tools")
        view = open_tool(tab, "Add two numbers")
        form = view.form

        # Run with both fields empty: two problems, each once.
        click(view.run_button)
        assert form.banner.isVisible()
        assert (
            form.banner_label.text() == "2 problems with these arguments:\na: required\nb: required"
        )
        for name in ("a", "b"):
            row = form.row(name)
            assert row is not None and row.error_label.isVisible()
            assert row.error_label.text() == "required"
        assert view.status_label.text() == "Fix the arguments, or use Send anyway."
        # The form grew to hold the banner: both fields and their errors are on screen.
        await until(
            lambda: whole_on_screen(field_edit(form, "b")) and whole_on_screen(form.banner),
            "the form to show its fields and the banner whole",
        )
        assert not form.form_area.verticalScrollBar().isVisible()

        # Fix them: the problems and the hint go.
        type_into(field_edit(form, "a"), "2")
        type_into(field_edit(form, "b"), "3")
        await until(lambda: not form.banner.isVisible(), "the problems to go")
        assert "Fix the arguments" not in view.status_label.text()
        row_b = form.row("b")
        assert row_b is not None and not row_b.error_label.isVisible()

        # Run: a result, and the two-field form still whole above it.
        click(view.run_button)
        await until(lambda: "OK" in visible_texts(view.results), "the result card")
        await until(lambda: view.cards[0].height() > 100, "the card to take its size")
        await asyncio.sleep(0)  # the refit queued after the first result
        await until(
            lambda: (
                whole_on_screen(field_edit(form, "a")) and whole_on_screen(field_edit(form, "b"))
            ),
            "both fields on screen",
        )
        assert not form.form_area.verticalScrollBar().isVisible()
        assert whole_on_screen(view.run_button)

        # An elicitation form calls its fields fields.
        ask = open_tool(tab, "Ask the user")
        click(ask.run_button)
        await until(lambda: visible_window(ElicitationDialog) is not None, "the question")
        dialog = visible_window(ElicitationDialog)
        assert isinstance(dialog, ElicitationDialog)
        click(dialog.accept_button)  # the name is required and empty
        assert dialog.form.banner_label.text() == "1 problem with these fields:\nname: required"
        texts = " ".join(visible_texts(dialog))
        assert "argument" not in texts.lower()
        assert "argument" not in dialog.form.form_button.toolTip().lower()
        type_into(field_edit(dialog.form, "name"), "Ada")
        click(dialog.accept_button)
        await until(lambda: not dialog.isVisible(), "the dialog to close")
        await until(lambda: "Ada" in " ".join(visible_texts(ask.results)), "the answer")

    run(loop, scenario(), timeout=90)
