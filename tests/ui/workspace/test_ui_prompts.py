"""The prompt Get view against real servers: the argument form (required markers,
completions with context), prompts/get as a conversation, bad input, a resource link."""

from __future__ import annotations

import asyncio
import json

import pytest
from PySide6.QtCore import QStringListModel
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from inspector.features.catalog.lists import CatalogItem
from inspector.features.mcp_models import Prompt, parse_lenient
from inspector.protocol.wire.versions import EraSetting
from inspector.settings.profiles import Profile
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.workspace.prompt_view import PromptGetView
from inspector.ui.workspace.resource_reader import ResourceReadDialog
from tests.helpers.gui import connected, python_profile, run, until
from tests.helpers.peers import REPO

pytestmark = pytest.mark.timeout(90)

SDK_PEER = str(REPO / "tests" / "servers" / "sdk" / "sdk_server.py")


async def connect(controller: ConnectionController, profile: Profile) -> None:
    await connected(controller, profile, listed=("prompts",))


def prompt(controller: ConnectionController, name: str) -> CatalogItem:
    item = controller.model.catalog.prompts.find(name)
    assert item is not None, [i.key for i in controller.model.catalog.prompts]
    return item


def made_up(raw: dict[str, object]) -> CatalogItem:
    return CatalogItem("prompts", str(raw.get("name")), raw, parse_lenient(Prompt, raw))


def line_edit(view: PromptGetView, name: str) -> QLineEdit:
    row = view.form.row(name)
    assert row is not None
    edit = getattr(row.editor, "line_edit", None)
    assert isinstance(edit, QLineEdit)
    return edit


def suggestions(edit: QLineEdit) -> list[str]:
    completer = edit.completer()
    assert completer is not None
    model = completer.model()
    assert isinstance(model, QStringListModel)
    return model.stringList()


def sent(controller: ConnectionController, method: str) -> list[dict[str, object]]:
    return [
        json.loads(str(e.raw))["params"]
        for e in controller.model.traffic
        if e.direction == "out" and e.method == method
    ]


@pytest.mark.parametrize("era", [EraSetting.LEGACY, EraSetting.MODERN], ids=str)
def test_demo_review_code(
    loop: asyncio.AbstractEventLoop,
    controller: ConnectionController,
    qtbot: object,
    era: EraSetting,
) -> None:
    async def scenario() -> None:
        profile = python_profile("demo", "-m", "inspector.demo")
        profile.era = era
        await connect(controller, profile)
        view = PromptGetView(prompt(controller, "review_code"), controller)
        view.resize(900, 800)
        view.show()
        assert view.get() is None  # "code" is required
        assert not sent(controller, "prompts/get")
        assert "Fix the arguments" in view.status.text()
        view.form.set_values({"code": "print(1)"})
        language = line_edit(view, "language")
        language.setFocus()
        QTest.keyClicks(language, "py")
        await until(lambda: suggestions(language) == ["python"], "language suggestions")
        request = sent(controller, "completion/complete")[-1]
        assert request["ref"] == {"type": "ref/prompt", "name": "review_code"}
        assert request["context"] == {"arguments": {"code": "print(1)"}}
        language.setText("python")
        task = view.get()
        assert task is not None
        await task
        assert sent(controller, "prompts/get")[-1]["arguments"] == {
            "code": "print(1)",
            "language": "python",
        }
        assert view.description.text() == "Description: Code review (python)"
        (card,) = view.cards
        assert card.message.role == "user"
        assert "Please review this python code" in card.blocks.cards[0].info.text  # type: ignore[operator]
        assert view.status.text().startswith("1 message in")
        await controller.model.shutdown()
        assert not view.get_button.isEnabled()

    run(loop, scenario())


def test_greet_conversation_and_send_anyway(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        await connect(controller, python_profile("demo", "-m", "inspector.demo"))
        view = PromptGetView(prompt(controller, "greet"), controller)
        view.show()
        view.form.set_values({"name": "Ada"})
        task = view.get()
        assert task is not None
        await task
        assert [c.message.role for c in view.cards] == ["user", "assistant"]
        # Send anyway with the required argument missing: the server's error is shown.
        view.form.set_values({})
        assert view.get() is None
        task = view.get(as_typed=True)
        assert task is not None
        await task
        assert "missing required argument 'name'" in view.status.text()
        assert "prompts/get failed" in view.placeholder.text()
        assert view.cards == []
        await controller.model.shutdown()

    run(loop, scenario())


def test_bad_declarations_and_unknown_prompt(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        await connect(controller, python_profile("demo", "-m", "inspector.demo"))
        view = PromptGetView(
            made_up({"name": "nope", "arguments": [{"name": "a"}, {"title": "no name"}]}),
            controller,
        )
        view.show()
        assert "arguments[1] has no name" in view.declared.text()
        task = view.get()
        assert task is not None
        await task
        assert "unknown prompt 'nope'" in view.status.text()
        await controller.model.shutdown()

    run(loop, scenario())


@pytest.mark.peers
def test_everything_prompts(
    loop: asyncio.AbstractEventLoop,
    controller: ConnectionController,
    qtbot: object,
    everything_command: list[str],
) -> None:
    async def scenario() -> None:
        profile = Profile(name="everything")
        profile.stdio.command = everything_command[0]
        profile.stdio.args = everything_command[1:]
        await connect(controller, profile)
        # completions whose values depend on the other argument (context.arguments)
        view = PromptGetView(prompt(controller, "completable-prompt"), controller)
        view.show()
        view.form.set_values({"department": "Support"})
        name = line_edit(view, "name")
        name.setFocus()
        QTest.keyClicks(name, "K")
        await until(lambda: suggestions(name) == ["Kim"], "names of the Support team")
        assert sent(controller, "completion/complete")[-1]["context"] == {
            "arguments": {"department": "Support"}
        }
        name.setText("Kim")
        task = view.get()
        assert task is not None
        await task
        assert "promote Kim to the head of the Support team" in str(
            view.cards[0].blocks.cards[0].info.text
        )
        # every content type: an embedded resource in a message
        names = [i.key for i in controller.model.catalog.prompts]
        resource_prompt = next(n for n in names if "resource" in n)
        rview = PromptGetView(prompt(controller, resource_prompt), controller)
        rview.show()
        rview.form.set_values({"resourceType": "Text", "resourceId": "2"})
        task = rview.get()
        assert task is not None
        await task
        kinds = [b.info.kind for c in rview.cards for b in c.blocks.cards]
        assert "resource" in kinds, kinds
        await controller.model.shutdown()

    run(loop, scenario())


def test_sdk_peer_modern_prompt(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        profile = python_profile("sdk", SDK_PEER)
        profile.era = EraSetting.MODERN
        await connect(controller, profile)
        view = PromptGetView(prompt(controller, "greet"), controller)
        view.show()
        assert "No suggestions: the server does not declare the completions capability." in (
            view.completion_note.text()
        )
        view.form.set_values({"name": "Zed"})
        task = view.get()
        assert task is not None
        await task
        assert view.cards and "Zed" in str(view.cards[0].blocks.cards[0].info.text)
        await controller.model.shutdown()

    run(loop, scenario())


def test_resource_link_opens_a_reader(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        await connect(controller, python_profile("demo", "-m", "inspector.demo"))
        view = PromptGetView(prompt(controller, "greet"), controller)
        view.show()
        from inspector.features.prompts import parse_get_prompt_result

        link = {"type": "resource_link", "uri": "demo://readme", "name": "readme"}
        view.show_conversation(
            parse_get_prompt_result({"messages": [{"role": "user", "content": link}]})
        )
        view.cards[0].blocks.read_resource_requested.emit("demo://readme")
        await until(lambda: view.findChild(ResourceReadDialog) is not None, "the reader window")
        dialog = view.findChild(ResourceReadDialog)
        assert dialog is not None
        await until(lambda: dialog.reader.reads == 1, "the read")
        assert "demo server" in dialog.reader.contents.parts[0].text_view.toPlainText()
        dialog.close()
        await controller.model.shutdown()

    run(loop, scenario())
