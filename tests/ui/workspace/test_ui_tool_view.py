"""The tool Call view against the demo server and server-everything: forms, results of
every kind, progress and Cancel, several calls in flight, errors of both kinds, remembered
arguments across reconnects, and an excluded tool."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.features.catalog.lists import CatalogItem
from inspector.settings.profiles import Profile, StdioSettings
from inspector.ui.content.panes import ImagePane
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.forms.editors import StringEditor
from inspector.ui.workspace.call_card import CallCard
from inspector.ui.workspace.resource_reader import ResourceReadDialog
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import connected, make_controller, python_profile, run, until
from tests.helpers.peers import REPO
from tests.helpers.stall import STALL_LIMIT, StallMeter

pytestmark = [pytest.mark.timeout(120), pytest.mark.usefixtures("config_dir")]


class Console:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, text: str) -> None:
        self.lines.append(text)

    def has(self, needle: str) -> bool:
        return any(needle in line for line in self.lines)


@pytest.fixture
def console() -> Console:
    return Console()


@pytest.fixture
def console_controller(
    loop: asyncio.AbstractEventLoop, console: Console, tmp_path: Path
) -> Iterator[ConnectionController]:
    c = make_controller(tmp_path, console)
    yield c
    run(loop, c.model.shutdown())


DEMO = python_profile("demo", "-m", "inspector.demo")


async def connect(controller: ConnectionController, profile: Profile = DEMO) -> None:
    await connected(controller, profile, listed=("tools",))


def tool(controller: ConnectionController, name: str) -> CatalogItem:
    item = controller.model.catalog.tools.find(name)
    assert item is not None, name
    return item


def open_view(qtbot: QtBot, controller: ConnectionController, name: str) -> ToolCallView:
    view = ToolCallView(tool(controller, name), controller)
    qtbot.addWidget(view)
    view.resize(900, 800)
    view.show()
    return view


async def finished(card: CallCard, timeout: float = 15.0) -> CallCard:
    # The card repaints for the end at once: the cancel button goes.
    await until(
        lambda: not card.record.running and card.cancel_button.isHidden(),
        f"the {card.record.tool} call",
        timeout,
    )
    return card


def outgoing(controller: ConnectionController, method: str) -> int:
    return sum(
        1
        for e in controller.model.traffic.entries
        if e.direction == "out" and f'"method":"{method}"' in e.raw.replace(" ", "")
    )


# -- demo ---------------------------------------------------------------------------


def test_add_shows_a_validated_structured_tree(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    async def scenario() -> None:
        await connect(console_controller)
        view = open_view(qtbot, console_controller, "add")
        view.form.set_values({"a": 2, "b": 3.5})
        record = view.run()
        assert record is not None
        card = await finished(view.cards[0])
        assert record.status == "ok" and card.status_label.text() == "OK"
        assert card.validation_label.text() == "✓ valid against the outputSchema"
        assert card.match_label.text() == "✓ matches the JSON in content[0]"
        assert card.tree is not None
        model = card.tree.json_model
        root = model.index(0, 0)
        keys = {model.index(r, 0, root).data(): model.index(r, 1, root).data() for r in range(3)}
        assert keys == {"a": "2", "b": "3.5", "sum": "5.5"}
        assert card.content_view is not None and len(card.content_view.cards) == 1

    run(loop, scenario())


def test_create_ticket_nested_form(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    async def scenario() -> None:
        await connect(console_controller)
        view = open_view(qtbot, console_controller, "create_ticket")
        assert view.form.values() == {"priority": "medium"}  # the default, applied
        assert view.run() is None  # title is required: not sent
        assert view.form.row("title") is not None
        title_row = view.form.row("title")
        assert title_row is not None and title_row.error_label.text() == "required"
        assert not view.form.banner.isHidden()
        for path, text in ((("title",), "Printer on fire"), (("assignee", "name"), "Ann")):
            row = view.form.row(*path)
            assert row is not None and isinstance(row.editor, StringEditor)
            assert row.editor.line_edit is not None
            row.editor.line_edit.setText(text)
        record = view.run()
        assert record is not None
        card = await finished(view.cards[0])
        assert record.status == "ok"
        structured = record.check.structured if record.check else None
        assert structured["assignee"] == {"name": "Ann"}
        assert structured["title"] == "Printer on fire"
        assert card.tree is not None

    run(loop, scenario())


def test_render_chart_shows_the_image(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    async def scenario() -> None:
        await connect(console_controller)
        view = open_view(qtbot, console_controller, "render_chart")
        assert view.form.values() == {"values": [3, 1, 4, 1, 5, 9, 2, 6]}
        view.run()
        card = await finished(view.cards[0])
        assert card.content_view is not None
        kinds = [c.info.kind for c in card.content_view.cards]
        assert kinds == ["text", "image"]
        pane = card.content_view.cards[1].pane
        assert isinstance(pane, ImagePane) and pane.image is not None and pane.error is None

    run(loop, scenario())


def test_tool_error_and_json_rpc_error_look_different(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    async def scenario() -> None:
        await connect(console_controller)
        failing = open_view(qtbot, console_controller, "fail_sometimes")
        failing.form.set_values({"mode": "fail"})
        failing.run()
        tool_error = await finished(failing.cards[0])
        assert tool_error.record.status == "tool_error"
        assert tool_error.status_label.text() == "Tool error (isError)"
        assert "isError: true" in tool_error.tool_error_label.text()
        assert tool_error.content_view is not None  # the text is shown, for the model
        exploding = open_view(qtbot, console_controller, "explode")
        exploding.run()
        rpc = await finished(exploding.cards[0])
        assert rpc.record.status == "rpc_error" and rpc.record.error_code == -32603
        assert rpc.status_label.text() == "JSON-RPC error"
        assert rpc.error_title_label.text() == "code -32603 · Internal error"
        assert rpc.content_view is None and rpc.error_view is not None
        assert "explode" in rpc.record.error_message
        assert "#c62828" in rpc.styleSheet() or "#ff7b72" in rpc.styleSheet()  # red
        assert "#a35c00" in tool_error.styleSheet() or "#f0b35a" in tool_error.styleSheet()

    run(loop, scenario())


def test_progress_cancel_and_two_calls_in_flight(
    console_controller: ConnectionController,
    loop: asyncio.AbstractEventLoop,
    qtbot: QtBot,
    console: Console,
) -> None:
    async def scenario() -> None:
        await connect(console_controller)
        view = open_view(qtbot, console_controller, "slow_count")
        view.form.set_values({"steps": 20, "delay_ms": 100})
        first = view.run()
        view.form.set_values({"steps": 3, "delay_ms": 100})
        second = view.run()
        assert first is not None and second is not None
        assert [c.record for c in view.cards] == [second, first]  # newest first
        assert first.running and second.running  # both in flight
        await until(lambda: first.progress_count >= 2, "progress")
        card = view.cards[1]
        await until(lambda: card.progress_bar.value() > 0, "the card's coalesced repaint")
        assert card.progress_bar.maximum() == 1000 and card.progress_bar.value() > 0
        assert card.progress_label.text().startswith("Counted ")
        assert card.elapsed_label.text().endswith((" ms", " s"))
        assert view.status_label.text() == "2 running"
        await finished(view.cards[0])
        assert second.status == "ok" and first.running
        card.cancel_button.click()
        await finished(card)
        assert first.status == "cancelled" and card.status_label.text() == "Cancelled"
        assert outgoing(console_controller, "notifications/cancelled") == 1
        await until(lambda: console.has("was cancelled"), "the server's log of the cancel")
        assert first.progress_count < 20

    run(loop, scenario())


def test_send_anyway_reaches_the_server(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    async def scenario() -> None:
        await connect(console_controller)
        view = open_view(qtbot, console_controller, "add")
        view.form.set_values({"a": 1})
        assert view.run() is None
        view.form.send_anyway_button.click()
        card = await finished(view.cards[0])
        assert not card.record.validated_before_sending
        assert "sent without validation" in card.args_label.text()
        assert card.record.status in ("rpc_error", "tool_error")  # the server's own check

    run(loop, scenario())


def test_remembered_arguments_across_reconnects(
    console_controller: ConnectionController,
    loop: asyncio.AbstractEventLoop,
    qtbot: QtBot,
    config_dir: Path,
) -> None:
    async def scenario() -> None:
        await connect(console_controller)
        view = open_view(qtbot, console_controller, "echo")
        assert view.form.values() == {}
        view.form.set_values({"message": "remember me"})
        view.run()
        await finished(view.cards[0])
        await console_controller.model.disconnect_server()
        assert console_controller.model.state is ConnState.DISCONNECTED
        assert not view.run_button.isEnabled()
        await connect(console_controller)
        again = open_view(qtbot, console_controller, "echo")
        assert again.form.values() == {"message": "remember me"}
        other = Profile(name="other", stdio=StdioSettings(command="x"))
        assert again.memory.recall(other.id, "echo") is None  # per profile

    run(loop, scenario())
    assert "remember me" in (config_dir / "arguments.json").read_text()


def test_excluded_tool_needs_call_anyway(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    async def scenario() -> None:
        await connect(console_controller)
        item = tool(console_controller, "echo")
        excluded = CatalogItem(item.kind, item.key, item.raw, item.model, "invalid x-mcp-header")
        view = ToolCallView(excluded, console_controller)
        qtbot.addWidget(view)
        assert view.anyway_box is not None and not view.run_button.isEnabled()
        assert "Call anyway" in view.status_label.text()
        view.form.set_values({"message": "hi"})
        assert view.run() is None
        view.anyway_box.setChecked(True)
        record = view.run()
        assert record is not None and "excluded" in record.note
        await finished(view.cards[0])
        assert record.status == "ok"

    run(loop, scenario())


# -- server-everything --------------------------------------------------------------


def everything(command: list[str]) -> Profile:
    return Profile(name="everything", stdio=StdioSettings(command=command[0], args=command[1:]))


def test_everything_tiny_image_structured_content_and_long_operation(
    console_controller: ConnectionController,
    loop: asyncio.AbstractEventLoop,
    qtbot: QtBot,
    everything_command: list[str],
) -> None:
    async def scenario() -> None:
        await connect(console_controller, everything(everything_command))
        await until(
            lambda: console_controller.model.catalog.tools.find("get-tiny-image") is not None,
            "tools",
        )
        image = open_view(qtbot, console_controller, "get-tiny-image")
        image.run()
        card = await finished(image.cards[0])
        assert card.record.status == "ok" and card.content_view is not None
        panes = [c.pane for c in card.content_view.cards if c.info.kind == "image"]
        assert panes and isinstance(panes[0], ImagePane) and panes[0].image is not None

        structured = open_view(qtbot, console_controller, "get-structured-content")
        assert structured.output_schema is not None
        values = structured.form.values()
        if "location" not in values:
            structured.form.set_values({"location": "New York"})
        structured.run()
        card = await finished(structured.cards[0])
        assert card.record.status == "ok"
        assert card.validation_label.text() == "✓ valid against the outputSchema"
        assert card.tree is not None

        long_op = open_view(qtbot, console_controller, "trigger-long-running-operation")
        long_op.form.set_values({"duration": 30, "steps": 30})
        long_op.run()
        card = long_op.cards[0]
        await until(lambda: card.record.progress_count >= 2, "progress from the long operation")
        await until(lambda: card.progress_bar.value() > 0, "the card's coalesced repaint")
        card.cancel_button.click()
        await finished(card)
        assert card.record.status == "cancelled"
        assert outgoing(console_controller, "notifications/cancelled") == 1

    run(loop, scenario(), 60)


# -- odd tools: bad schemas and bad results -------------------------------------------

ODD = python_profile("odd", str(REPO / "tests" / "servers" / "gui" / "odd_tools_server.py"))


def test_invalid_input_schema_gets_the_editor_and_a_warning(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    async def scenario() -> None:
        await connect(console_controller, ODD)
        view = open_view(qtbot, console_controller, "bad_schema")
        assert "not valid" in view.form.warning_label.text()
        assert view.form.set_mode("json")
        view.form.set_json_text('{"x": 5}')
        record = view.run()  # not validated (the schema is broken), so it is sent
        assert record is not None
        await finished(view.cards[0])
        assert record.arguments == {"x": 5} and record.status == "ok"

        remote = open_view(qtbot, console_controller, "remote_ref")
        assert "never fetched" in remote.form.warning_label.text()
        remote.form.set_values({"thing": {"any": 1}, "name": "n"})
        assert remote.run() is not None  # validation could not resolve it: not a blocker
        await finished(remote.cards[0])

    run(loop, scenario())


def test_structured_content_problems_are_shown(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    async def scenario() -> None:
        await connect(console_controller, ODD)
        view = open_view(qtbot, console_controller, "mismatch")
        view.run()
        card = await finished(view.cards[0])
        text = card.validation_label.text()
        assert text.startswith("✗ 2 problems against the outputSchema")
        assert "count: 'two' is not of type 'integer'" in text and "items: required" in text
        assert card.match_label.text().startswith("⚠ structuredContent differs from the JSON")
        assert card.tree is not None
        count = card.tree.json_model.index_of(("count",))
        assert count.data() == "⚠ count"

    run(loop, scenario())


def test_odd_content_and_a_missing_content(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    async def scenario() -> None:
        await connect(console_controller, ODD)
        view = open_view(qtbot, console_controller, "odd_content")
        view.run()
        card = await finished(view.cards[0])
        assert card.content_view is not None
        cards = card.content_view.cards
        assert [c.info.kind for c in cards] == [
            "text",
            "image",
            "unknown",
            "resource_link",
            "resource",
        ]
        assert "<script>" in cards[0].pane.plain.toPlainText()  # type: ignore[union-attr]
        image = cards[1].pane
        assert isinstance(image, ImagePane) and image.error is not None
        assert "unknown content type 'hologram'" in cards[2].problem_label.text()
        empty = open_view(qtbot, console_controller, "no_content")
        empty.run()
        card = await finished(empty.cards[0])
        assert card.record.status == "ok"
        assert card.record.check is not None
        assert "the result has no 'content' (the spec requires it)" in card.record.check.problems

    run(loop, scenario())


def test_a_huge_result_does_not_freeze_the_window(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    meter = StallMeter()

    async def scenario() -> None:
        await connect(console_controller, ODD)
        view = open_view(qtbot, console_controller, "huge")
        with meter:
            view.run()
            card = await finished(view.cards[0], 30)
            ticks = meter.ticks
            await until(lambda: meter.ticks >= ticks + 2, "the timer to tick after the paint")
            assert card.content_view is not None
            pane = card.content_view.cards[0].pane
            assert pane is not None and getattr(pane, "truncated", False)

    run(loop, scenario(), 60)
    assert meter.worst < STALL_LIMIT, f"the window froze for {meter.worst * 1000:.0f} ms"


def test_resource_links_in_a_result_open_a_reader(
    console_controller: ConnectionController,
    loop: asyncio.AbstractEventLoop,
    qtbot: QtBot,
    everything_command: list[str],
) -> None:
    async def scenario() -> None:
        await connect(console_controller, everything(everything_command))
        await until(
            lambda: console_controller.model.catalog.tools.find("get-resource-links") is not None,
            "tools",
        )
        view = open_view(qtbot, console_controller, "get-resource-links")
        view.form.set_values({"count": 2})
        view.run()
        card = await finished(view.cards[0])
        assert card.content_view is not None
        links = [c for c in card.content_view.cards if c.info.kind == "resource_link"]
        assert len(links) == 2
        links[0].read_button.click()
        dialogs = view.findChildren(ResourceReadDialog)
        assert len(dialogs) == 1 and dialogs[0].reader.uri == links[0].info.uri
        await until(lambda: dialogs[0].reader.reads == 1, "the linked resource read")
        dialogs[0].close()

    run(loop, scenario(), 60)


def test_a_lost_connection_fails_the_calls_in_flight(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    async def scenario() -> None:
        await connect(console_controller)
        view = open_view(qtbot, console_controller, "slow_count")
        view.form.set_values({"steps": 50, "delay_ms": 200})
        record = view.run()
        assert record is not None
        await until(lambda: record.progress_count >= 1, "progress")
        await console_controller.model.disconnect_server()
        card = await finished(view.cards[0])
        assert record.status == "failed"
        assert record.error_message.startswith("the connection closed: ")
        assert card.error_view is not None
        assert not view.run_button.isEnabled()
        assert view.status_label.text() == "Connect to call this tool."

    run(loop, scenario())


# tools that open a dialog for the user (sampling, elicitation) or fetch from the network
_NOT_CLICKED = {
    "trigger-elicitation-request",
    "trigger-url-elicitation",
    "trigger-sampling-request",
    "simulate-research-query",
    "gzip-file-as-resource",
}


def fill_required(view: ToolCallView) -> None:
    """What a user types into the required fields the defaults leave empty."""
    plan = view.form.plan
    assert plan.root is not None
    values = view.form.values()
    for spec in plan.root.properties:
        if not spec.required or spec.name in values:
            continue
        if spec.kind == "enum":
            values[spec.name] = spec.choices[0].value
        elif spec.kind in ("number", "integer"):
            values[spec.name] = 2
        elif spec.kind == "boolean":
            values[spec.name] = True
        else:
            values[spec.name] = "hello"
    view.form.set_values(values)


def test_everything_every_tool_from_its_form(
    console_controller: ConnectionController,
    loop: asyncio.AbstractEventLoop,
    qtbot: QtBot,
    everything_command: list[str],
) -> None:
    async def scenario() -> None:
        await connect(console_controller, everything(everything_command))
        await until(lambda: len(console_controller.model.catalog.tools) >= 13, "tools")
        outcomes: dict[str, str] = {}
        for item in list(console_controller.model.catalog.tools):
            if item.key in _NOT_CLICKED:
                continue
            view = open_view(qtbot, console_controller, item.key)
            if item.key == "trigger-long-running-operation":
                view.form.set_values({"duration": 1, "steps": 2})
            fill_required(view)
            assert view.form.check(), (item.key, view.form.validation_errors())
            assert view.run() is not None, item.key
            card = await finished(view.cards[0], 20)
            outcomes[item.key] = card.record.status
            view.close()
        assert outcomes and all(s in ("ok", "tool_error") for s in outcomes.values()), outcomes
        assert {"echo", "get-sum", "get-tiny-image", "get-structured-content"} <= set(outcomes)

    run(loop, scenario(), 90)


def test_ctrl_enter_runs_from_the_form_and_the_json_editor(
    console_controller: ConnectionController, loop: asyncio.AbstractEventLoop, qtbot: QtBot
) -> None:
    async def scenario() -> None:
        await connect(console_controller)
        view = open_view(qtbot, console_controller, "echo")
        row = view.form.row("message")
        assert row is not None and isinstance(row.editor, StringEditor)
        edit = row.editor.text_edit or row.editor.line_edit
        assert edit is not None
        view.activateWindow()
        await until(view.isActiveWindow, "the view's window active")
        edit.setFocus()
        qtbot.keyClicks(edit, "hi")
        qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert len(view.cards) == 1 and view.cards[0].record.arguments == {"message": "hi"}
        view.form.set_mode("json")
        view.form.json_edit.setFocus()
        qtbot.keyClick(view.form.json_edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert len(view.cards) == 2
        for card in view.cards:
            await finished(card)

    run(loop, scenario())
