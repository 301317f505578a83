"""Sampling and elicitation dialogs against the bundled demo server, in both eras.

The demo's ask_llm and ask_user tools ask the client mid-call: a legacy server request,
or a modern input_required round (MRTR). The same dialogs answer both, through their
widgets; the log keeps flowing while a dialog is open; a request the server withdraws
closes its dialog with a note; several asks queue behind one another.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from shiboken6 import isValid

from inspector.session import ConnectionClosed, InputRejected
from inspector.settings.profiles import Profile
from inspector.ui.asks.elicitation_dialog import ElicitationDialog
from inspector.ui.asks.sampling_dialog import SamplingDialog
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.traffic.traffic_model import COL_SUMMARY
from tests.helpers.asks import (
    call_tool,
    connect,
    dialog_of,
    field,
    field_error,
    no_dialog,
    responder,
    result_of,
    text_of,
    type_into,
)
from tests.helpers.gui import run, then_shutdown, until
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)


def demo(win: MainWindow, era: str = "legacy") -> Profile:
    profile = win.store.find("demo")
    assert profile is not None
    return profile.model_copy(update={"era": era})


def sent_results(win: MainWindow, method_hint: str) -> list[dict[str, object]]:
    """Our responses (direction out) whose text mentions `method_hint`-shaped results."""
    out = []
    for entry in current_tab(win).traffic:
        if entry.direction == "out" and entry.kind in ("response", "error"):
            value = json.loads(entry.text())
            if method_hint in entry.text():
                out.append(value)
    return out


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_sampling_dialog_answers_ask_llm(
    window: MainWindow, loop: asyncio.AbstractEventLoop, era: str
) -> None:
    async def scenario() -> None:
        session = await connect(window, demo(window, era))
        call = call_tool(session, "ask_llm", {"question": "What is MCP?", "maxTokens": 123})
        dialog = await dialog_of(window, SamplingDialog)
        # What the server sent is shown: the conversation, system prompt, maxTokens, hints.
        assert "What is MCP?" in dialog.conversation_text()
        assert "concise assistant" in dialog.system_prompt.toPlainText()
        assert dialog.request.max_tokens == 123
        assert dialog.request.hints == ["claude"]
        assert dialog.request.speed_priority == 0.5
        assert dialog.model_edit.text() == "claude"  # the first hint, by default
        expected = "legacy server request" if era == "legacy" else "input request (MRTR)"
        assert expected in dialog.origin.text()
        dialog.reply_text.setPlainText("A protocol for tools.")
        dialog.model_edit.setText("human-1")
        # Ctrl+Enter approves from the reply text.
        # A window shortcut fires only in the active window, and activation is asynchronous.
        dialog.activateWindow()
        await until(dialog.isActiveWindow, "the dialog to become the active window")
        dialog.reply_text.setFocus()
        QTest.keyClick(dialog.reply_text, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert dialog.answer.done()
        result = await result_of(call)
        assert "human-1 answered" in text_of(result)
        assert "A protocol for tools." in text_of(result)
        await no_dialog(window)
        assert responder(window).answered == 1

    run(loop, then_shutdown(window, scenario()))


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_sampling_reject(window: MainWindow, loop: asyncio.AbstractEventLoop, era: str) -> None:
    async def scenario() -> None:
        session = await connect(window, demo(window, era))
        call = call_tool(session, "ask_llm", {"question": "no"})
        dialog = await dialog_of(window, SamplingDialog)
        dialog.reject_button.click()
        if era == "legacy":
            # Error -1 goes back to the server; the demo turns it into a tool error.
            result = await result_of(call)
            assert result.get("isError") is True
            errors = [
                e for e in current_tab(window).traffic if e.direction == "out" and e.kind == "error"
            ]
            assert errors and json.loads(errors[-1].text())["error"]["code"] == -1
        else:
            # MRTR has no error slot: the paused request is abandoned locally.
            with pytest.raises(InputRejected):
                await result_of(call)

    run(loop, then_shutdown(window, scenario()))


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_elicitation_form_validates_and_accepts(
    window: MainWindow, loop: asyncio.AbstractEventLoop, era: str
) -> None:
    async def scenario() -> None:
        session = await connect(window, demo(window, era))
        call = call_tool(session, "ask_user", {"message": "Who are you?"})
        dialog = await dialog_of(window, ElicitationDialog)
        assert dialog.message.text() == "Who are you?"
        # Required field empty, age out of bounds: Accept refuses and marks the fields.
        type_into(dialog, "age", "200")
        dialog.accept_button.click()
        assert "required" in field_error(dialog, "name")
        assert "150" in field_error(dialog, "age")
        assert not dialog.answer.done()
        assert not dialog.form.send_anyway_button.isHidden()
        type_into(dialog, "name", "Ada")
        type_into(dialog, "age", "36")
        field(dialog, "subscribe").box.setChecked(True)
        dialog.accept_button.click()
        result = await result_of(call)
        assert "Hello, Ada, age 36 (subscribed)" in text_of(result)
        assert result["structuredContent"] == {"name": "Ada", "age": 36, "subscribe": True}

    run(loop, then_shutdown(window, scenario()))


@pytest.mark.parametrize("button", ["decline", "cancel", "escape"])
def test_elicitation_decline_and_cancel(
    window: MainWindow, loop: asyncio.AbstractEventLoop, button: str
) -> None:
    async def scenario() -> None:
        session = await connect(window, demo(window))
        call = call_tool(session, "ask_user")
        dialog = await dialog_of(window, ElicitationDialog)
        if button == "decline":
            dialog.decline_button.click()
        elif button == "cancel":
            dialog.cancel_button.click()
        else:
            dialog.reject()  # what Esc and the title bar's close do
        result = await result_of(call)
        expected = "decline" if button == "decline" else "cancel"
        assert f"The user chose '{expected}'" in text_of(result)

    run(loop, then_shutdown(window, scenario()))


def test_traffic_keeps_flowing_while_a_dialog_is_open(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        session = await connect(window, demo(window))
        call = call_tool(session, "ask_user")
        dialog = await dialog_of(window, ElicitationDialog)
        before = len(current_tab(window).traffic)
        # The dialog is window-modal, opened with open(): the loop runs, requests go out
        # and come back, and the log shows them.
        for _ in range(3):
            await asyncio.wait_for(session.client.ping(), 5)
        other = await result_of(call_tool(session, "echo", {"message": "still here"}))
        assert "still here" in text_of(other)
        current_tab(window).log_panel.model.flush()
        assert len(current_tab(window).traffic) >= before + 8
        assert current_tab(window).log_panel.model.rowCount() == len(current_tab(window).traffic)
        assert dialog.isVisible() and not dialog.answer.done()
        dialog.cancel_button.click()
        await result_of(call)

    run(loop, then_shutdown(window, scenario()))


def test_server_withdrawn_ask_closes_its_dialog_with_a_note(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        session = await connect(window, demo(window))
        call = call_tool(session, "ask_user")
        dialog = await dialog_of(window, ElicitationDialog)
        responder(window).withdraw_delay_ms = 400
        dialog.withdraw_delay_ms = 400
        # Cancelling the tool call makes the demo withdraw its elicitation request
        # (notifications/cancelled for the server's own request id).
        call.cancel("test: the user gave up on the tool")
        await until(lambda: dialog.withdrawn is not None, "the withdrawal")
        assert "withdrew this request" in dialog.notice.label.text()
        assert "the tool call ended" in dialog.notice.label.text()
        assert dialog.close_button.isVisible() and not dialog.accept_button.isVisible()
        assert not dialog.form.isEnabled()
        await no_dialog(window)
        assert not isValid(dialog) or not dialog.isVisible()
        # Nothing was answered for the withdrawn request.
        answers = [
            e
            for e in current_tab(window).traffic
            if e.direction == "out" and e.kind == "response" and "demo-srv" in e.text()
        ]
        assert answers == []

    run(loop, then_shutdown(window, scenario()))


def test_asks_queue_one_dialog_at_a_time_with_a_count(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        session = await connect(window, demo(window))
        first = call_tool(session, "ask_user", {"message": "first"})
        dialog = await dialog_of(window, ElicitationDialog)
        second = call_tool(session, "ask_llm", {"question": "second"})
        third = call_tool(session, "ask_user", {"message": "third"})
        await until(lambda: responder(window).waiting == 2, "two asks to queue")
        assert dialog.waiting.text() == "2 more waiting"
        dialog.decline_button.click()
        await result_of(first)
        sampling = await dialog_of(window, SamplingDialog)
        assert sampling.waiting.text() == "1 more waiting"
        sampling.reply_text.setPlainText("ok")
        sampling.approve_button.click()
        await result_of(second)
        last = await dialog_of(window, ElicitationDialog)
        assert last.message.text() == "third" and not last.waiting.isVisible()
        last.cancel_button.click()
        await result_of(third)

    run(loop, then_shutdown(window, scenario()))


def test_mrtr_rounds_grouped_in_the_log(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        session = await connect(window, demo(window, "modern"))
        call = call_tool(session, "ask_user", {"message": "mrtr"})
        dialog = await dialog_of(window, ElicitationDialog)
        type_into(dialog, "name", "Grace")
        dialog.accept_button.click()
        await result_of(call)
        panel = current_tab(window).log_panel
        panel.model.flush()
        calls = [
            e
            for e in current_tab(window).traffic
            if e.method == "tools/call" and e.kind == "request"
        ]
        assert len(calls) == 2
        rounds = current_tab(window).client_features.rounds
        assert [rounds.mark(e.index) for e in calls] == ["round 1/2", "round 2/2"]
        answers = [current_tab(window).traffic.pair_of(e) for e in calls]
        assert all(a is not None for a in answers)
        assert rounds.mark(answers[0].index) == "round 1/2"  # type: ignore[union-attr]
        # The log shows the marks in the summary column, for requests and answers.
        summaries = [
            panel.model.index(panel.model.row_of(e.index), COL_SUMMARY).data()  # type: ignore[arg-type]
            for e in [calls[0], answers[0], calls[1], answers[1]]  # type: ignore[list-item]
        ]
        assert summaries[0].startswith("⟳ round 1/2")
        assert summaries[1].startswith("⟳ round 1/2") and "input required" in summaries[1]
        assert summaries[2].startswith("⟳ round 2/2")
        # The detail pane offers the whole conversation; it lists all four messages.
        assert panel.select_entry(calls[1].index)
        assert not panel.detail.conversation_button.isHidden()
        panel.detail.conversation_button.click()
        conversation = current_tab(window).client_features.conversation
        assert conversation is not None and conversation.list.count() == 4
        text = conversation.text.toPlainText()
        assert "original request" in text and "input required (inputRequests: user_details)" in text
        assert "retry with inputResponses for user_details" in text and "final answer" in text
        conversation.list.itemClicked.emit(conversation.list.item(1))
        assert panel.selected_entry() == answers[0]
        conversation.close()
        # A single-round request has no mark and no conversation button.
        single = next(
            e
            for e in current_tab(window).traffic
            if e.method == "tools/list" and e.kind == "request"
        )
        assert rounds.mark(single.index) == ""
        panel.select_entry(single.index)
        assert panel.detail.conversation_button.isHidden()

    run(loop, then_shutdown(window, scenario()))


def test_auto_answer_sampling_with_a_canned_reply(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        session = await connect(window, demo(window))
        call = call_tool(session, "ask_llm", {"question": "one"})
        dialog = await dialog_of(window, SamplingDialog)
        assert dialog.auto_answer.isVisible()
        dialog.reply_text.setPlainText("canned!")
        dialog.auto_answer.setChecked(True)
        dialog.approve_button.click()
        await result_of(call)
        features = current_tab(window).client_features
        features._update_menu()
        assert features.auto_action.isEnabled() and features.auto_action.isChecked()
        # The next request is answered at once, with no dialog.
        again = await result_of(call_tool(session, "ask_llm", {"question": "two"}))
        assert "canned!" in text_of(again)
        assert responder(window).dialog is None
        # Turning it off brings the dialog back; the reply stays saved in the config dir.
        features.auto_action.setChecked(False)
        saved = json.loads((window.store.path.parent / "canned-replies.json").read_text())
        assert saved["replies"]["demo"]["enabled"] is False
        third = call_tool(session, "ask_llm", {"question": "three"})
        dialog = await dialog_of(window, SamplingDialog)
        dialog.reject_button.click()
        result = await result_of(third)
        assert result.get("isError") is True

    run(loop, then_shutdown(window, scenario()))


def test_sampling_raw_json_reply(window: MainWindow, loop: asyncio.AbstractEventLoop) -> None:
    async def scenario() -> None:
        session = await connect(window, demo(window))
        call = call_tool(session, "ask_llm", {"question": "raw"})
        dialog = await dialog_of(window, SamplingDialog)
        dialog.reply_text.setPlainText("from the form")
        dialog.reply_tabs.setCurrentIndex(1)
        raw = json.loads(dialog.raw_edit.toPlainText())
        assert raw["content"] == {"type": "text", "text": "from the form"}
        dialog.raw_edit.setPlainText("[not an object]")
        dialog.approve_button.click()
        assert "JSON" in dialog.raw_error.text() and not dialog.answer.done()
        raw["content"]["text"] = "edited raw"
        raw["model"] = "raw-model"
        dialog.raw_edit.setPlainText(json.dumps(raw))
        dialog.approve_button.click()
        assert "raw-model answered" in text_of(await result_of(call))

    run(loop, then_shutdown(window, scenario()))


def test_closing_the_session_withdraws_the_open_dialog(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    """A session that closes while a dialog is open withdraws it (nothing hangs)."""

    async def scenario() -> None:
        session = await connect(window, demo(window))
        call = call_tool(session, "ask_user")
        dialog = await dialog_of(window, ElicitationDialog)
        dialog.withdraw_delay_ms = 10_000
        await current_tab(window).controller.model.shutdown()
        await until(lambda: dialog.withdrawn is not None, "the withdrawal on close")
        assert "session was closed" in dialog.notice.label.text()
        with pytest.raises(ConnectionClosed):
            await result_of(call, 5)
        dialog.close_button.click()
        await no_dialog(window)

    run(loop, then_shutdown(window, scenario()))
