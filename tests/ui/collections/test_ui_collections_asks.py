"""A call that asks the client (the demo's ask_llm: sampling, a legacy server request or
a modern input_required round) is saved from its log row with the answer the user gave;
running the saved call answers the same way, without a dialog."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.collections.file import load_collection
from inspector.ui.asks.sampling_dialog import SamplingDialog
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.asks import call_tool, connect, dialog_of, no_dialog, responder, result_of
from tests.helpers.gui import run, then_shutdown
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_saved_call_carries_the_sampling_answer(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path, era: str
) -> None:
    win = window
    target = tmp_path / "asks.json"

    async def scenario() -> None:
        demo = win.store.find("demo")
        assert demo is not None
        session = await connect(win, demo.model_copy(update={"era": era}))
        call = call_tool(session, "ask_llm", {"question": "What is MCP?"})
        dialog = await dialog_of(win, SamplingDialog)
        dialog.reply_text.setPlainText("A protocol for tools.")
        dialog.model_edit.setText("human-1")
        dialog.approve()
        result = await result_of(call)
        assert "A protocol for tools." in str(result)
        await no_dialog(win)
        # the final answer row (in the modern era: of the retried round)
        log = current_tab(win).controller.model.traffic
        answer = [
            e
            for e in log.entries
            if e.direction == "in" and e.kind == "response" and e.method == "tools/call"
        ][-1]
        saving = current_tab(win).collections.save_row(answer)
        assert saving is not None
        draft = saving.draft
        assert draft.params == {"name": "ask_llm", "arguments": {"question": "What is MCP?"}}
        assert draft.result is not None and "A protocol for tools." in str(draft.result)
        assert [a.method for a in draft.answers] == ["sampling/createMessage"]
        saving.use_file(target)
        saving.assertion_editor.add("snapshot")
        assert saving.save() is not None, saving.error_label.text()
        saved = load_collection(target).calls[0]
        assert len(saved.answers) == 1
        assert saved.answers[0].result is not None
        assert "A protocol for tools." in str(saved.answers[0].result)

        answered = responder(win).answered
        panel = current_tab(win).collections.panel
        task = panel.run_all()
        assert task is not None
        await task
        row = panel.rows[0]
        assert row.result is not None
        assert row.result.passed, row.result.failure_text()
        assert responder(win).dialog is None and responder(win).answered == answered

    run(loop, then_shutdown(win, scenario()))
