"""Collections in the window, against the demo server: "Save call…" from a tool's form and
JSON editor, a prompt, a resource and a traffic log row; the Collections tab runs them
over the connection (pass and fail, the failed assertion and the snapshot's diff), updates
a snapshot, follows the file on disk, and refuses an invalid file without stopping."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QLineEdit

from inspector.collections.collection import (
    LatencyAssertion,
    OutcomeAssertion,
    PointerAssertion,
    SnapshotAssertion,
)
from inspector.collections.file import load_collection
from inspector.ui.collections.save_dialog import SaveCallDialog
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.prompt_view import PromptGetView
from inspector.ui.workspace.resource_view import ResourceReadView
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import until, with_demo
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(120)


def open_item(win: MainWindow, kind: str, key: str) -> Any:
    lists = {
        "tools": current_tab(win).controller.model.catalog.tools,
        "prompts": current_tab(win).controller.model.catalog.prompts,
    }
    found = lists[kind].find(key) if kind in lists else None
    if kind == "resources":
        found = current_tab(win).controller.model.catalog.resources.find(key)
    assert found is not None, key
    page = current_tab(win).workspace.show_item(found)
    assert page is not None
    return page.action


def dialog_of(win: MainWindow) -> SaveCallDialog:
    dialog = current_tab(win).collections.dialog
    assert dialog is not None, "no Save call dialog"
    return dialog


async def call_tool(view: ToolCallView, values: dict[str, Any]) -> None:
    view.form.set_values(values)
    record = view.run()
    assert record is not None
    await until(lambda: not record.running, "the tool call")


def snapshot_text(win: MainWindow, name: str) -> str:
    row = current_tab(win).collections.panel.row(name)
    assert row is not None
    snaps = [a for a in row.call.assertions if isinstance(a, SnapshotAssertion)]
    return json.dumps(snaps[0].snapshot) if snaps else ""


async def run_all(win: MainWindow) -> None:
    panel = current_tab(win).collections.panel
    task = panel.run_all()
    assert task is not None, "Run all did nothing"
    await task


def test_save_a_tool_call_run_it_fail_it_and_update_its_snapshot(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    win = window
    target = tmp_path / "demo.collection.json"
    panel = current_tab(win).collections.panel

    async def body() -> None:
        view = open_item(win, "tools", "echo")
        assert isinstance(view, ToolCallView)
        await call_tool(view, {"message": "hello"})
        draft = view.request_save()
        assert draft is not None and draft.result is not None
        dialog = dialog_of(win)
        dialog.use_file(target)
        assert dialog.name_edit.text() == "echo"
        dialog.name_edit.setText("echo hello")
        # the pointer is prefilled from the result
        editor = dialog.assertion_editor
        assert editor.kinds == ["outcome"]
        row = editor.add("equals")
        pointer = editor.pointer_edit(row)
        assert pointer is not None and pointer.text() == "/content/0/text"
        value = editor.value_widget(row)
        assert isinstance(value, QLineEdit) and json.loads(value.text()) == "hello"
        editor.set_row(editor.add("latency"), value="5000")
        editor.add("snapshot")
        assert dialog.save() is not None

        saved = load_collection(target).calls
        assert [c.name for c in saved] == ["echo hello"]
        call = saved[0]
        assert call.kind == "tool" and call.tool == "echo"
        assert call.arguments == {"message": "hello"}
        kinds = [type(a) for a in call.assertions]
        assert kinds == [OutcomeAssertion, PointerAssertion, LatencyAssertion, SnapshotAssertion]
        assert call.assertions[0] == OutcomeAssertion("ok")
        # the panel opened the file and selected the call
        assert panel.path == target.absolute()
        assert panel.selected_names() == ["echo hello"]

        await run_all(win)
        row = panel.row("echo hello")
        assert row is not None and row.result is not None
        assert row.result.passed, row.result.failure_text()
        item = panel.tree.topLevelItem(0)
        assert item is not None and item.text(0) == "✓" and item.text(4).endswith(" ms")
        assert "1 passed, 0 failed" in panel.summary.text()

        # The server "changes": the expected answer in the file no longer holds.
        doc = json.loads(target.read_text())
        for assertion in doc["calls"][0]["assert"]:
            if "snapshot" in assertion:
                assertion["snapshot"]["content"][0]["text"] = "hello, world"
        target.write_text(json.dumps(doc, indent=2))
        await until(
            lambda: "world" in snapshot_text(win, "echo hello"),
            "the panel to read the edited file",
        )
        await run_all(win)
        row = panel.row("echo hello")
        assert row is not None and row.result is not None and not row.result.passed
        assert panel.tree.topLevelItem(0).text(0) == "✗"  # type: ignore[union-attr]
        assert (
            current_tab(win).bottom.tabText(current_tab(win).bottom.indexOf(panel))
            == "Collections (1 ✗)"
        )
        panel.select("echo hello")
        view_ = panel.result_view
        text = view_.assertions.toPlainText()
        assert text.startswith("✗ result matches the snapshot: 1 change(s)"), text
        assert not view_.diff.isHidden()
        assert "/content/0/text" in view_.diff.paths.toPlainText()
        assert any("hello, world" in line for line in view_.diff.marked("left"))
        assert panel.update_failed_button.isEnabled()

        assert panel.update_selected_snapshot() == ["echo hello"]
        snap = load_collection(target).calls[0].assertions[-1]
        assert isinstance(snap, SnapshotAssertion)
        assert snap.snapshot["content"][0]["text"] == "hello"
        await run_all(win)
        row = panel.row("echo hello")
        assert row is not None and row.result is not None and row.result.passed

    with_demo(loop, win, body, prompts=True)


def test_save_from_the_json_editor_a_prompt_a_resource_and_a_log_row(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    win = window
    target = tmp_path / "mixed.json"
    panel = current_tab(win).collections.panel

    def save(name: str | None = None) -> None:
        dialog = dialog_of(win)
        dialog.use_file(target)
        if name is not None:
            dialog.name_edit.setText(name)
        assert dialog.save() is not None, dialog.error_label.text()

    async def body() -> None:
        # a tool call typed in the JSON editor, never run: only the request is saved
        view = open_item(win, "tools", "add")
        assert isinstance(view, ToolCallView)
        assert view.form.set_mode("json")
        view.form.json_edit.setPlainText('{"a": 2, "b": 40}')
        draft = view.request_save()
        assert draft is not None and draft.params["arguments"] == {"a": 2, "b": 40}
        dialog = dialog_of(win)
        # nothing ran: nothing to snapshot
        assert not dialog.assertion_editor.actions_by_kind["snapshot"].isEnabled()
        save("add 2 40")
        # bad JSON in the editor: nothing is saved, the bar says why
        view.form.json_edit.setPlainText('{"a": 2,')
        assert view.request_save() is None
        assert "JSON" in view.bar.status_label.text()

        # a prompt, after a Get
        prompt = open_item(win, "prompts", "greet")
        assert isinstance(prompt, PromptGetView)
        prompt.form.set_values({"name": "Ada"})
        task = prompt.get()
        assert task is not None
        await task
        draft = prompt.request_save()
        assert draft is not None and draft.result is not None
        dialog_of(win).assertion_editor.add("snapshot")
        save("greet Ada")

        # a resource, after a Read
        resource = open_item(win, "resources", "demo://config.json")
        assert isinstance(resource, ResourceReadView)
        read = resource.read()
        assert read is not None
        await read
        assert resource.reader.request_save() is not None
        save()

        # a tools/call row of the traffic log (its response row: the request is found)
        echo = open_item(win, "tools", "echo")
        await call_tool(echo, {"message": "from the log"})
        log = current_tab(win).controller.model.traffic
        response = next(
            e
            for e in log.entries
            if e.kind == "response" and e.method == "tools/call" and e.direction == "in"
        )
        menu = current_tab(win).log_panel.row_menu(response)
        texts = [a.text() for a in menu.actions()]
        assert "Save call…" in texts
        next(a for a in menu.actions() if a.text() == "Save call…").trigger()
        dialog = dialog_of(win)
        assert dialog.draft.result is not None
        save("from the log")
        # a row that is not a call offers no Save call
        initialize = next(e for e in log.entries if e.method == "initialize")
        assert "Save call…" not in [
            a.text() for a in current_tab(win).log_panel.row_menu(initialize).actions()
        ]

        calls = load_collection(target).calls
        assert [c.name for c in calls] == [
            "add 2 40",
            "greet Ada",
            "read demo://config.json",
            "from the log",
        ]
        assert calls[1].kind == "prompt" and calls[1].arguments == {"name": "Ada"}
        assert calls[2].kind == "resource" and calls[2].uri == "demo://config.json"
        assert calls[3].kind == "tool" and calls[3].tool == "echo"

        await run_all(win)
        failed = [r.call.name for r in panel.rows if r.result is None or not r.result.passed]
        assert failed == [], [r.result.failure_text() for r in panel.rows if r.result]

    with_demo(loop, win, body, prompts=True)
