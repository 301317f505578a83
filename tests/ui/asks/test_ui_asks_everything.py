"""server-everything's requests answered through the dialogs' widgets, roots from the
profile (and list_changed on edit), and its tasks (tools/call as a task) in the Tasks panel."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit

from inspector.settings.profiles import Profile, RootEntry, StdioSettings
from inspector.ui.asks.elicitation_dialog import ElicitationDialog, UrlElicitationDialog
from inspector.ui.asks.sampling_dialog import SamplingDialog
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.asks import (
    call_tool,
    connect,
    dialog_of,
    field,
    field_error,
    no_dialog,
    result_of,
    text_of,
    type_into,
)
from tests.helpers.gui import run, then_shutdown, until
from tests.helpers.tabs import current_tab

pytestmark = [pytest.mark.timeout(90), pytest.mark.peers]


@pytest.fixture
def opened_urls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """URLs the app asked the system to open (no browser is started in tests)."""
    urls: list[str] = []

    def fake_open(url: QUrl) -> bool:
        urls.append(url.toString())
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(fake_open))
    return urls


def sent_requests(win: MainWindow, method: str) -> list[str]:
    return [
        e.text()
        for e in current_tab(win).traffic
        if e.direction == "out" and e.kind == "request" and e.method == method
    ]


def everything(command: list[str], roots: list[RootEntry] | None = None) -> Profile:
    return Profile(
        name="everything",
        stdio=StdioSettings(command=command[0], args=command[1:]),
        roots=roots or [],
    )


async def tool_listed(win: MainWindow, name: str) -> None:
    """server-everything adds the ask tools after it has seen the client's capabilities."""
    session = current_tab(win).controller.model.session
    assert session is not None

    async def names() -> list[str]:
        return [t["name"] for t in await session.client.list_tools()]

    deadline = asyncio.get_running_loop().time() + 10
    while name not in await names():
        assert asyncio.get_running_loop().time() < deadline, f"{name} was never listed"
        await asyncio.sleep(0.1)


def test_sampling_request(
    window: MainWindow, loop: asyncio.AbstractEventLoop, everything_command: list[str]
) -> None:
    async def scenario() -> None:
        session = await connect(window, everything(everything_command))
        await tool_listed(window, "trigger-sampling-request")
        call = call_tool(session, "trigger-sampling-request", {"prompt": "hi", "maxTokens": 77})
        dialog = await dialog_of(window, SamplingDialog)
        assert "Resource trigger-sampling-request context: hi" in dialog.conversation_text()
        assert dialog.request.temperature == 0.7
        assert dialog.request.max_tokens == 77
        assert "helpful test server" in dialog.system_prompt.toPlainText()
        assert dialog.request.problems == []
        dialog.reply_text.setPlainText("Hello from the dialog")
        dialog.stop_combo.setCurrentText("maxTokens")
        dialog.approve_button.click()
        text = text_of(await result_of(call))
        assert "Hello from the dialog" in text and '"stopReason": "maxTokens"' in text
        assert '"model": "mcp-inspector-qt (human)"' in text

    run(loop, then_shutdown(window, scenario()))


def test_elicitation_form_every_field_type(
    window: MainWindow, loop: asyncio.AbstractEventLoop, everything_command: list[str]
) -> None:
    async def scenario() -> None:
        session = await connect(window, everything(everything_command))
        await tool_listed(window, "trigger-elicitation-request")
        call = call_tool(session, "trigger-elicitation-request")
        dialog = await dialog_of(window, ElicitationDialog)
        assert dialog.spec.problems == []
        kinds = {f.name: f.kind for f in dialog.spec.fields}
        assert kinds == {
            "name": "string",
            "check": "boolean",
            "firstLine": "string",
            "email": "string",
            "homepage": "string",
            "birthdate": "string",
            "integer": "integer",
            "number": "number",
            "untitledSingleSelectEnum": "enum",
            "untitledMultipleSelectEnum": "multi",
            "titledSingleSelectEnum": "enum",
            "titledMultipleSelectEnum": "multi",
            "legacyTitledEnum": "enum",
        }
        # Defaults applied, titles shown for titled and legacy enums.
        first_line = field(dialog, "firstLine").line_edit
        assert isinstance(first_line, QLineEdit)
        assert first_line.text() == "It was a dark and stormy night."
        assert field(dialog, "integer").edit.text() == "42"
        hero = field(dialog, "titledSingleSelectEnum").combo
        assert isinstance(hero, QComboBox)
        assert hero.currentText().startswith("Superman")
        pets = field(dialog, "legacyTitledEnum").combo
        assert isinstance(pets, QComboBox)
        labels = [pets.itemText(i).split("  ")[0] for i in range(pets.count())]
        assert labels[-5:] == ["Cats", "Dogs", "Birds", "Fish", "Reptiles"]
        fish = field(dialog, "titledMultipleSelectEnum").boxes
        assert [box.text() for box in fish] == ["Tuna", "Salmon", "Trout"]
        # Bad input is marked next to its field.
        type_into(dialog, "email", "not-an-email")
        type_into(dialog, "birthdate", "31/12/1999")
        dialog.accept_button.click()
        assert "required" in field_error(dialog, "name")
        assert "email" in field_error(dialog, "email")
        assert "date" in field_error(dialog, "birthdate")
        assert not dialog.answer.done()
        type_into(dialog, "name", "Ada Lovelace")
        type_into(dialog, "email", "ada@example.com")
        type_into(dialog, "birthdate", "1815-12-10")
        check = field(dialog, "check").box
        assert isinstance(check, QCheckBox)
        check.setChecked(True)
        pets.setCurrentIndex(labels.index("Dogs"))
        fish[2].setChecked(True)  # Trout, besides the default Tuna
        dialog.accept_button.click()
        text = text_of(await result_of(call))
        raw: dict[str, Any] = json.loads(text.split("Raw result: ", 1)[1])
        assert raw["action"] == "accept"
        content = raw["content"]
        assert content["name"] == "Ada Lovelace" and content["check"] is True
        assert content["integer"] == 42 and content["number"] == 3.14
        assert content["untitledMultipleSelectEnum"] == ["Guitar"]
        assert content["titledMultipleSelectEnum"] == ["fish-1", "fish-3"]
        assert content["legacyTitledEnum"] == "pet-2"
        assert content["birthdate"] == "1815-12-10"

    run(loop, then_shutdown(window, scenario()))


def test_url_elicitation(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    everything_command: list[str],
    opened_urls: list[str],
) -> None:
    async def scenario() -> None:
        session = await connect(window, everything(everything_command))
        await tool_listed(window, "trigger-url-elicitation")
        url = "https://example.com/consent?x=<b>bold</b>"
        call = call_tool(session, "trigger-url-elicitation", {"url": url, "message": "Sign in"})
        dialog = await dialog_of(window, UrlElicitationDialog)
        assert dialog.url_label.text() == url
        assert dialog.url_label.textFormat() == Qt.TextFormat.PlainText
        assert dialog.message.text() == "Sign in"
        assert dialog.open_button.isEnabled() and dialog.refusal is None
        assert opened_urls == []  # nothing is opened until the user asks
        dialog.open_button.click()
        assert opened_urls == [QUrl(url).toString()]
        dialog.done_button.click()
        text = text_of(await result_of(call))
        assert '"action": "accept"' in text

        # Anything but http(s) is refused with the reason, and cannot be opened.
        bad = call_tool(
            session, "trigger-url-elicitation", {"url": "javascript:alert(1)", "message": "x"}
        )
        dialog = await dialog_of(window, UrlElicitationDialog)
        assert dialog.refusal is not None and "javascript" in dialog.refusal
        assert "will not be opened" in dialog.notice.label.text()
        assert not dialog.open_button.isEnabled() and not dialog.done_button.isEnabled()
        assert dialog.open_url() is False and len(opened_urls) == 1
        dialog.decline_button.click()
        assert '"action": "decline"' in text_of(await result_of(bad))

    run(loop, then_shutdown(window, scenario()))


def test_roots_answered_from_the_profile_and_list_changed_on_edit(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    everything_command: list[str],
    tmp_path: Path,
) -> None:
    first = RootEntry(uri=(tmp_path / "one").as_uri(), name="one")
    profile = window.store.put(everything(everything_command, [first]))

    def roots_answers() -> list[list[dict[str, Any]]]:
        out = []
        for entry in current_tab(window).traffic:
            if entry.direction == "out" and entry.kind == "response":
                value = json.loads(entry.text())
                if "roots" in value.get("result", {}):
                    out.append(value["result"]["roots"])
        return out

    async def scenario() -> None:
        await connect(window, profile)
        await until(lambda: roots_answers(), "the answer to roots/list")
        assert roots_answers()[0] == [{"uri": first.uri, "name": "one"}]
        features = current_tab(window).client_features
        dialog = features.open_roots()
        assert dialog is not None
        assert dialog.roots() == [first]
        assert "Saved in the profile" in dialog.where_label.text()
        second = (tmp_path / "two").as_uri()
        dialog.add_row(second, "two")
        assert dialog.apply()
        assert "list_changed sent" in dialog.status.text()
        sent = [
            e
            for e in current_tab(window).traffic
            if e.direction == "out" and e.method == "notifications/roots/list_changed"
        ]
        assert len(sent) == 1
        # server-everything asks again on list_changed and gets the new list.
        await until(lambda: len(roots_answers()) >= 2, "a second roots/list")
        assert [r["uri"] for r in roots_answers()[-1]] == [first.uri, second]
        # Kept in the profile file.
        saved = window.store.get(profile.id)
        assert saved is not None and [r.uri for r in saved.roots] == [first.uri, second]
        # A non-file URI is allowed with a warning; an empty one is refused.
        dialog.add_row("https://example.com", "")
        assert dialog.apply()
        assert "file://" in dialog.status.text()
        dialog.add_row("  ", "")
        assert not dialog.apply()
        assert "no URI" in dialog.status.text()
        dialog.close()

    run(loop, then_shutdown(window, scenario()))


def test_task_with_input_required_in_the_tasks_panel(
    window: MainWindow, loop: asyncio.AbstractEventLoop, everything_command: list[str]
) -> None:
    async def scenario() -> None:
        await connect(window, everything(everything_command))
        features = current_tab(window).client_features
        assert features.task_store.mode == "legacy"
        bottom = current_tab(window).bottom
        index = bottom.indexOf(features.tasks_panel)
        assert bottom.isTabVisible(index)
        task, raw = await features.tasks.call_tool(
            "simulate-research-query", {"topic": "python", "ambiguous": True}, ttl_ms=60_000
        )
        assert task is not None and task.origin == "tools/call simulate-research-query"
        assert "task" in raw
        panel = features.tasks_panel
        assert panel.model.rowCount() == 1
        assert bottom.tabText(index) == "Tasks (1)"
        # The research needs a clarification: the task goes input_required, the client
        # calls tasks/result, and the server's elicitation arrives through it.
        dialog = await dialog_of(window, ElicitationDialog, timeout=20)
        assert "multiple interpretations" in dialog.message.text()
        choice = field(dialog, "interpretation").combo
        assert isinstance(choice, QComboBox)
        options = [choice.itemText(i) for i in range(choice.count())]
        choice.setCurrentIndex(next(i for i, t in enumerate(options) if "snake" in t))
        dialog.accept_button.click()
        await no_dialog(window)
        await until(
            lambda: (
                (t := features.task_store.get(task.task_id)) is not None and t.result is not None
            ),
            "the task's result",
            timeout=30,
        )
        done = features.task_store.get(task.task_id)
        assert done is not None and done.status == "completed"
        assert "snake" in json.dumps(done.result)
        panel.select(task.task_id)
        assert "── result ──" in panel.detail.toPlainText()
        assert panel.model.index(0, 0).data() == "completed"
        # tasks/list knows it too.
        panel.refresh()
        await until(lambda: "done" in panel.status.text(), "tasks/list")
        methods = [e.method for e in current_tab(window).traffic if e.direction == "out"]
        assert "tasks/get" in methods and "tasks/result" in methods and "tasks/list" in methods

    run(loop, then_shutdown(window, scenario()), timeout=60)


def test_task_cancel(
    window: MainWindow, loop: asyncio.AbstractEventLoop, everything_command: list[str]
) -> None:
    async def scenario() -> None:
        await connect(window, everything(everything_command))
        features = current_tab(window).client_features
        task, _ = await features.tasks.call_tool("simulate-research-query", {"topic": "x"})
        assert task is not None
        panel = features.tasks_panel
        panel.select(task.task_id)
        assert panel.cancel_button.isEnabled()
        panel.cancel_selected()
        await until(
            lambda: (
                (t := features.task_store.get(task.task_id)) is not None and t.status == "cancelled"
            ),
            "the task to be cancelled",
        )
        assert not panel.cancel_button.isEnabled()

    run(loop, then_shutdown(window, scenario()))


def test_run_as_task_from_the_tool_view(
    window: MainWindow, loop: asyncio.AbstractEventLoop, everything_command: list[str]
) -> None:
    """The tool Call view's "Run as task" (taskSupport: required here) hands the task to
    the Tasks panel, which follows it."""

    async def scenario() -> None:
        await connect(window, everything(everything_command))
        catalog = current_tab(window).controller.model.catalog
        await until(lambda: catalog.tools.find("simulate-research-query") is not None, "tools")
        item = catalog.tools.find("simulate-research-query")
        assert item is not None
        view = ToolCallView(item, current_tab(window).controller)
        option = view.task_option
        assert option.check.isChecked() and not option.check.isEnabled()  # required
        assert "required" in option.why.text()
        view.form.set_values({"topic": "coral"})
        assert view.run() is not None
        features = current_tab(window).client_features
        store = features.task_store

        def adopted() -> bool:  # by the view, with the tool's name as its origin
            return any(
                (t := store.get(i)) is not None and t.origin.startswith("tools/call ")
                for i in store.ids()
            )

        await until(adopted, "the task in the Tasks panel")
        task_id = features.task_store.ids()[0]
        call = next(
            json.loads(e.text())
            for e in current_tab(window).traffic
            if e.direction == "out" and e.method == "tools/call"
        )
        assert call["params"]["task"] == {"ttl": 300_000}
        task = features.task_store.get(task_id)
        assert task is not None and task.origin == "tools/call simulate-research-query"
        # Followed: the panel polls it (the whole run to a result is tested above).
        await until(lambda: len(sent_requests(window, "tasks/get")) >= 1, "a tasks/get poll")
        view.deleteLater()

    run(loop, then_shutdown(window, scenario()), timeout=40)
