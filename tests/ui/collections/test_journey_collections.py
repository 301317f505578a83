"""Journey (issue 26): a collection made and run through the window, as a person does, on
server-everything. Choose the saved profile, Connect, click "Get Sum Tool", type 2 and 3,
Run, "Save call…" into a new collection next to the server; save the same call again
expecting the tool to fail; open the Collections panel, Run all, and read a pass and a
fail: the marks on the rows, the summary, why the second failed, the tab's badge and the
status bar."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox

from inspector.ui.collections.save_dialog import SaveCallDialog
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import run, until
from tests.helpers.journeys import (
    click,
    click_row,
    click_tab,
    everything_profile,
    field_edit,
    row_texts,
    shows_connected,
    tab_titles,
    type_into,
    type_keys,
    visible_texts,
    visible_window,
)

pytestmark = [pytest.mark.timeout(120), pytest.mark.peers]


async def save_call(window: MainWindow, view: ToolCallView) -> SaveCallDialog:
    click(view.save_button)
    await until(lambda: visible_window(SaveCallDialog) is not None, "the Save call dialog")
    dialog = visible_window(SaveCallDialog)
    assert isinstance(dialog, SaveCallDialog)
    return dialog


def test_save_two_calls_run_the_collection_and_read_pass_and_fail(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    everything_command: list[str],
    tmp_path: Path,
) -> None:
    window.store.put(everything_profile(everything_command, tmp_path))
    target = tmp_path / "everything.collection.json"

    async def scenario() -> None:
        tab = window.current_tab
        type_keys(tab.bar.profile_combo, "Ever")
        assert tab.bar.profile_combo.currentText() == "Everything"
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 17), "everything's 17 tools")

        click_row(tab.explorer.panes["tools"].tree, "Get Sum Tool")
        page = tab.workspace.stack.currentWidget()
        view = getattr(page, "action", None)
        assert isinstance(view, ToolCallView) and view.isVisible()
        type_into(field_edit(view.form, "a"), "2")
        type_into(field_edit(view.form, "b"), "3")
        click(view.run_button)
        await until(
            lambda: "The sum of 2 and 3 is 5." in visible_texts(view.results), "the result card"
        )
        assert "OK" in visible_texts(view.results)

        # Save the call: a new collection next to the server (its working folder).
        dialog = await save_call(window, view)
        assert dialog.file_combo.currentText() == str(target)
        assert dialog.file_note.text() == "A new collection file is created here."
        assert dialog.name_edit.text() == "get-sum"
        assert '"a": 2' in dialog.request.toPlainText()
        assert row_texts(dialog.assertion_editor.table)[0][0] == "Outcome is"
        # Every message the status bar shows (it shows one for 8 s; a look may come later).
        shown: list[str] = [tab.status.currentMessage()]
        tab.status.message_given.connect(shown.append)
        click(dialog.save_button)
        await until(lambda: not dialog.isVisible(), "the dialog to close")
        await until(
            lambda: f"Saved “get-sum” to {target}" in shown,
            "the status bar to say where",
        )

        # The same call again, expecting the tool to fail: it will not.
        dialog = await save_call(window, view)
        assert dialog.file_note.text() == "The call is added to this collection."
        type_into(dialog.name_edit, "sum expects an error")
        expect = dialog.assertion_editor.table.findChild(QComboBox)
        assert isinstance(expect, QComboBox) and expect.currentText().startswith("ok")
        type_keys(expect, "isE")
        assert expect.currentText() == "isError: true (the tool failed)"
        click(dialog.save_button)
        await until(lambda: not dialog.isVisible(), "the dialog to close")

        # The Collections panel: both calls, not run yet; Run all.
        click_tab(tab.bottom, "Collections")
        panel = tab.collections.panel
        assert panel.isVisible()
        assert [r[:2] for r in row_texts(panel.tree)] == [
            ["○", "get-sum"],
            ["○", "sum expects an error"],
        ]
        click(panel.run_all_button)
        await until(lambda: "passed" in panel.summary.text(), "the run to end")
        assert panel.summary.text().startswith("1 passed, 1 failed")
        assert [r[:4] for r in row_texts(panel.tree)] == [
            ["✓", "get-sum", "tool", "get-sum"],
            ["✗", "sum expects an error", "tool", "get-sum"],
        ]
        assert tab_titles(tab.bottom)[-1] == "Collections (1 ✗)"
        # Another notice (a roots request, say) may already have replaced it: read the record.
        await until(
            lambda: "Collection run: 1 passed, 1 failed" in shown, "the status bar's run summary"
        )
        # Why the second failed, when it is picked.
        click_row(panel.tree, "sum expects an error", column=1)
        headline = panel.result_view.headline.text()
        assert headline.startswith("sum expects an error: ✗ 1 assertion(s) failed")
        lines = panel.result_view.assertions.toPlainText()
        assert "outcome is isError: expected outcome isError, got ok" in lines
        click_row(panel.tree, "get-sum", column=1)
        assert "✓" in panel.result_view.headline.text()

    run(loop, scenario(), timeout=90)
