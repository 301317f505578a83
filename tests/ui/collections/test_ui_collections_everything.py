"""Collections in the window against server-everything: a tool call with a snapshot, and
a prompt argument's completion/complete saved from the prompt's form (with the answer the
form's completer got), run over the connection."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.collections.file import load_collection
from inspector.settings.profiles import Profile
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.prompt_view import PromptGetView
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import connected, run, until
from tests.helpers.tabs import current_tab

pytestmark = [pytest.mark.timeout(120), pytest.mark.peers]


def test_save_and_run_a_tool_call_and_a_completion(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    everything_command: list[str],
) -> None:
    win = window
    target = tmp_path / "everything.collection.json"
    panel = current_tab(win).collections.panel

    def save(name: str, *, snapshot: bool = False) -> None:
        dialog = current_tab(win).collections.dialog
        assert dialog is not None
        dialog.use_file(target)
        dialog.name_edit.setText(name)
        if snapshot:
            dialog.assertion_editor.add("snapshot")
        assert dialog.save() is not None, dialog.error_label.text()

    async def scenario() -> None:
        profile = Profile(name="everything")
        profile.stdio.command = everything_command[0]
        profile.stdio.args = everything_command[1:]
        try:
            await connected(win, profile, listed=("tools", "prompts"))
            page = current_tab(win).workspace.show_item(
                current_tab(win).controller.model.catalog.tools.find("get-sum")
            )
            assert page is not None and isinstance(page.action, ToolCallView)
            view = page.action
            view.form.set_values({"a": 2, "b": 3})
            record = view.run()
            assert record is not None
            await until(lambda: not record.running, "get-sum")
            assert view.request_save() is not None
            save("sum 2 3", snapshot=True)

            found = current_tab(win).controller.model.catalog.prompts.find("completable-prompt")
            page = current_tab(win).workspace.show_item(found)
            assert page is not None and isinstance(page.action, PromptGetView)
            prompt = page.action
            prompt.form.set_values({"department": "Support", "name": "K"})
            menu = prompt.save_button.menu()
            assert menu is not None
            texts = [a.text() for a in menu.actions() if a.text()]
            assert texts == [
                "prompts/get…",
                "completion/complete of “department”…",
                "completion/complete of “name”…",
            ]
            draft = prompt.request_completion_save("name")
            assert draft.params["argument"] == {"name": "name", "value": "K"}
            assert draft.params["context"] == {"arguments": {"department": "Support"}}
            save("complete name")

            calls = load_collection(target).calls
            assert [c.kind for c in calls] == ["tool", "completion"]
            task = panel.run_all()
            assert task is not None
            await task
            for row in panel.rows:
                assert row.result is not None
                assert row.result.passed, row.result.failure_text()
            completion = panel.row("complete name")
            assert completion is not None and completion.result is not None
            assert completion.result.result is not None
            assert completion.result.result["completion"]["values"] == ["Kim"]
        finally:
            await current_tab(win).controller.model.shutdown()

    run(loop, scenario(), timeout=100)
