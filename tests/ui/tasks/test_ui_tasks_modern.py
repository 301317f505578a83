"""The Tasks panel in the modern era: the io.modelcontextprotocol/tasks extension against a
small peer (tests/servers/sdk/tasks_server.py): Run as task, polling tasks/get, results inline,
input requests answered in the usual dialog and sent with tasks/update, failure, cancel."""

from __future__ import annotations

import asyncio
import json

import pytest
from PySide6.QtWidgets import QCheckBox

from inspector.features.tasks import EXTENSION
from inspector.settings.profiles import Profile, StdioSettings
from inspector.ui.asks.elicitation_dialog import ElicitationDialog
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tasks.run_as_task import RunAsTaskOption, tool_task_support
from tests.helpers.asks import connect, dialog_of, field, no_dialog, result_of, text_of
from tests.helpers.gui import run, then_shutdown, until
from tests.helpers.peers import PY, REPO
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(60)
PEER = str(REPO / "tests" / "servers" / "sdk" / "tasks_server.py")


def peer() -> Profile:
    return Profile(name="tasks peer", era="modern", stdio=StdioSettings(command=PY, args=[PEER]))


def sent(win: MainWindow, method: str) -> list[dict[str, object]]:
    return [
        json.loads(e.text())
        for e in current_tab(win).traffic
        if e.direction == "out" and e.kind == "request" and e.method == method
    ]


def test_run_as_task_polls_to_an_inline_result(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        session = await connect(window, peer())
        features = current_tab(window).client_features
        assert features.task_store.mode == "modern"
        panel = features.tasks_panel
        assert "io.modelcontextprotocol/tasks" in panel.mode_label.text()
        assert not panel.result_button.isVisible()  # modern results come inline
        # Without the option, the server must answer directly (no extension declared).
        direct = await result_of(session.start_request("tools/call", {"name": "slow_task"}))
        assert text_of(direct) == "slow_task done" and len(features.task_store) == 0
        # The tool view's option: the extension declared on this one request.
        option = RunAsTaskOption()
        option.configure("modern")
        assert not option.isHidden()
        assert option.check.isEnabled() and not option.ttl.isVisibleTo(option)
        option.check.setChecked(True)
        params = option.apply({"name": "slow_task", "arguments": {"seconds": 0.3}})
        caps = params["_meta"]["io.modelcontextprotocol/clientCapabilities"]
        assert caps == {"extensions": {EXTENSION: {}}}
        created = await result_of(session.start_request("tools/call", params))
        assert created["resultType"] == "task"
        # The panel adopted it from the completed call (server-directed) and polls it.
        task_id = created["taskId"]
        await until(lambda: features.task_store.get(task_id) is not None, "the task adopted")
        await until(
            lambda: (t := features.task_store.get(task_id)) is not None and t.terminal,
            "the task to finish",
        )
        task = features.task_store.get(task_id)
        assert task is not None and task.status == "completed"
        assert task.result == {
            "content": [{"type": "text", "text": "slow_task done"}],
            "isError": False,
        }
        assert task.poll_interval_ms == 100 and task.ttl_ms == 60_000
        assert sent(window, "tasks/get")
        assert sent(window, "tasks/result") == []  # no such method in the extension
        # The request declared the extension alongside the connection's own capabilities.
        call_meta = sent(window, "tools/call")[-1]["params"]["_meta"]  # type: ignore[index]
        declared = call_meta["io.modelcontextprotocol/clientCapabilities"]  # type: ignore[index]
        assert EXTENSION in declared["extensions"] and "sampling" in declared  # type: ignore[operator]
        # No protocol violation was reported for the task result.
        assert [
            e for e in current_tab(window).errors.items if e.category == "protocol violation"
        ] == []

    run(loop, then_shutdown(window, scenario()))


def test_input_required_answered_in_the_dialog_then_tasks_update(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        await connect(window, peer())
        features = current_tab(window).client_features
        task, _ = await features.tasks.call_tool("confirm_task", {})
        assert task is not None
        dialog = await dialog_of(window, ElicitationDialog)
        assert dialog.message.text() == "Go ahead with the task?"
        assert "task" in dialog.origin.text()
        ok = field(dialog, "ok").box
        assert isinstance(ok, QCheckBox)
        ok.setChecked(True)
        dialog.accept_button.click()
        await no_dialog(window)
        await until(
            lambda: (t := features.task_store.get(task.task_id)) is not None and t.terminal,
            "the task to complete",
        )
        done = features.task_store.get(task.task_id)
        assert done is not None and done.status == "completed"
        assert 'confirmed: {"action": "accept", "content": {"ok": true}}' in json.dumps(
            done.result
        ).replace('\\"', '"')
        updates = sent(window, "tasks/update")
        assert len(updates) == 1  # the input request was shown and answered once
        assert updates[0]["params"]["inputResponses"] == {  # type: ignore[index]
            "confirm": {"action": "accept", "content": {"ok": True}}
        }

    run(loop, then_shutdown(window, scenario()))


def test_failed_and_cancelled_tasks(window: MainWindow, loop: asyncio.AbstractEventLoop) -> None:
    async def scenario() -> None:
        await connect(window, peer())
        features = current_tab(window).client_features
        failing, _ = await features.tasks.call_tool("failing_task", {})
        assert failing is not None
        await until(
            lambda: (t := features.task_store.get(failing.task_id)) is not None and t.terminal,
            "the failure",
        )
        failed = features.task_store.get(failing.task_id)
        assert failed is not None and failed.status == "failed"
        assert failed.error == {"code": -32603, "message": "the task broke on purpose"}
        panel = features.tasks_panel
        panel.select(failing.task_id)
        assert "── error ──" in panel.detail.toPlainText()
        assert not panel.cancel_button.isEnabled()

        slow, _ = await features.tasks.call_tool("slow_task", {"seconds": 30})
        assert slow is not None
        panel.select(slow.task_id)
        assert panel.cancel_button.isEnabled()
        panel.cancel_selected()
        await until(lambda: sent(window, "tasks/cancel"), "tasks/cancel")
        await until(
            lambda: (
                (t := features.task_store.get(slow.task_id)) is not None and t.status == "cancelled"
            ),
            "the cancelled status (next poll)",
        )
        # Refresh re-polls the known tasks (there is no tasks/list in the extension).
        before = len(sent(window, "tasks/get"))
        panel.refresh()
        await until(lambda: len(sent(window, "tasks/get")) >= before + 2, "a re-poll of both")
        assert sent(window, "tasks/list") == []
        assert panel.model.rowCount() == 2

    run(loop, then_shutdown(window, scenario()))


def test_run_as_task_option_legacy_rules() -> None:
    option = RunAsTaskOption()
    option.configure(None)
    assert option.isHidden() and not option.wanted
    option.configure("legacy", "forbidden")
    assert not option.check.isEnabled() and "does not support" in option.why.text()
    option.configure("legacy", "required")
    assert option.check.isChecked() and not option.check.isEnabled()
    assert option.apply({"name": "t"}) == {"name": "t", "task": {"ttl": 300_000}}
    option.configure("legacy", "optional")
    option.check.setChecked(False)
    assert option.apply({"name": "t"}) == {"name": "t"}
    option.check.setChecked(True)
    option.ttl.setValue(0)
    assert option.apply({"name": "t"}) == {"name": "t", "task": {}}
    assert tool_task_support({"execution": {"taskSupport": "required"}}) == "required"
    assert tool_task_support({"execution": {"taskSupport": "weird"}}) == "forbidden"
    assert tool_task_support({}) == "forbidden"


def test_disconnecting_withdraws_a_task_input_dialog(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        await connect(window, peer())
        features = current_tab(window).client_features
        task, _ = await features.tasks.call_tool("confirm_task", {})
        assert task is not None
        dialog = await dialog_of(window, ElicitationDialog)
        dialog.withdraw_delay_ms = 10_000
        window.disconnect_server()
        await until(lambda: dialog.withdrawn is not None, "the withdrawal")
        assert "session ended" in dialog.notice.label.text()
        dialog.close_button.click()
        await no_dialog(window)
        assert sent(window, "tasks/update") == []

    run(loop, then_shutdown(window, scenario()))
