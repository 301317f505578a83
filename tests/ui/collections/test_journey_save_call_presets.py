"""Journey (issue 31, items 20 and 22): the Save call dialog's assertions as a person makes
them on the demo server. Echo "Hello there (world)", Run, Save call…: "Value matches
regex" is preset to a readable regex (no `\\ ` for each space), and the Collections panel
shows it as written (/…/, not a JSON string with its backslashes doubled). "Value equals"
follows its pointer while its value is the preset, and keeps a typed value. The table has
room for five rows."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLineEdit

from inspector.ui.collections.save_dialog import SaveCallDialog
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import python_profile, run, until
from tests.helpers.journeys import (
    click,
    click_row,
    click_tab,
    field_edit,
    shows_connected,
    type_into,
    type_keys,
    visible_texts,
    visible_window,
)

pytestmark = [pytest.mark.timeout(90), pytest.mark.usefixtures("config_dir")]


def value_edit(dialog: SaveCallDialog, row: int) -> QLineEdit:
    widget = dialog.assertion_editor.value_widget(row)
    assert isinstance(widget, QLineEdit)
    return widget


def add_assertion(dialog: SaveCallDialog, title: str) -> int:
    editor = dialog.assertion_editor
    action = next(a for a in editor.menu.actions() if a.text() == title)
    assert action.isEnabled()
    action.trigger()  # Add assertion ▸ title
    return editor.table.rowCount() - 1


def test_regex_and_pointer_presets_and_room_for_rows(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    demo = python_profile("Demo here", "-m", "inspector.demo")
    demo.stdio.cwd = str(tmp_path)  # the collection file goes next to the server
    window.store.put(demo)

    async def scenario() -> None:
        tab = window.current_tab
        type_keys(tab.bar.profile_combo, "Demo h")
        assert tab.bar.profile_combo.currentText() == "Demo here"
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 11), "the demo's 11 tools")
        click_row(tab.explorer.panes["tools"].tree, "Echo")
        view = getattr(tab.workspace.stack.currentWidget(), "action", None)
        assert isinstance(view, ToolCallView)
        type_into(field_edit(view.form, "message"), "Hello there (world)")
        click(view.run_button)
        await until(lambda: "OK" in visible_texts(view.results), "the result")

        click(view.save_button)
        await until(lambda: visible_window(SaveCallDialog) is not None, "the Save call dialog")
        dialog = visible_window(SaveCallDialog)
        assert isinstance(dialog, SaveCallDialog)
        editor = dialog.assertion_editor

        regex = add_assertion(dialog, "Value matches regex")
        assert value_edit(dialog, regex).text() == r"^Hello there \(world\)"

        equals = add_assertion(dialog, "Value equals")
        pointer = editor.pointer_edit(equals)
        assert pointer is not None and pointer.text() == "/content/0/text"
        assert value_edit(dialog, equals).text() == '"Hello there (world)"'
        type_into(pointer, "/content/0/type")
        assert value_edit(dialog, equals).text() == '"text"'
        type_into(value_edit(dialog, equals), '"image"')  # typed: the pointer no longer moves it
        type_into(pointer, "/content/0/text")
        assert value_edit(dialog, equals).text() == '"image"'
        assert not editor.problem.isVisible()

        # Room for five rows: the three there and two more, without scrolling.
        table = editor.table
        assert table.rowCount() == 3
        assert table.viewport().height() >= 5 * table.rowHeight(0)
        assert not table.verticalScrollBar().isVisible()

        click(dialog.save_button)
        await until(lambda: not dialog.isVisible(), "the dialog to close")
        click_tab(tab.bottom, "Collections")
        panel = tab.collections.panel
        click_row(panel.tree, "echo", column=1)
        lines = panel.result_view.assertions.toPlainText()
        assert r"• /content/0/text matches /^Hello there \(world\)/" in lines

    run(loop, scenario(), timeout=60)
