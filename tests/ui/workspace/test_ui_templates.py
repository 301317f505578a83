"""The template Read view against real servers: a form per RFC 6570 variable, completions
(ref/resource, with the variables already filled as context), the URI expanded live, and
reading it."""

from __future__ import annotations

import asyncio
import json

import pytest
from PySide6.QtCore import QStringListModel
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from inspector.features.catalog.lists import CatalogItem
from inspector.features.mcp_models import ResourceTemplate, parse_lenient
from inspector.protocol.wire.versions import EraSetting
from inspector.settings.profiles import Profile
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.workspace.template_view import TemplateReadView
from tests.helpers.gui import connected, python_profile, run, until

pytestmark = pytest.mark.timeout(90)


async def connect(controller: ConnectionController, profile: Profile) -> None:
    await connected(controller, profile, listed=("templates",))


def template_item(uri_template: str) -> CatalogItem:
    raw = {"uriTemplate": uri_template, "name": "t"}
    return CatalogItem("templates", uri_template, raw, parse_lenient(ResourceTemplate, raw))


def line_edit(view: TemplateReadView, name: str) -> QLineEdit:
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


def completion_requests(controller: ConnectionController) -> list[dict[str, object]]:
    return [
        json.loads(str(e.raw))["params"]
        for e in controller.model.traffic
        if e.direction == "out" and e.method == "completion/complete"
    ]


@pytest.mark.parametrize("era", [EraSetting.LEGACY, EraSetting.MODERN], ids=str)
def test_demo_note_template(
    loop: asyncio.AbstractEventLoop,
    controller: ConnectionController,
    qtbot: object,
    era: EraSetting,
) -> None:
    async def scenario() -> None:
        profile = python_profile("demo", "-m", "inspector.demo")
        profile.era = era
        await connect(controller, profile)
        item = controller.model.catalog.templates.find("demo://notes/{topic}")
        assert item is not None
        view = TemplateReadView(item, controller)
        view.resize(900, 700)
        view.show()
        assert not view.reader.read_button.isEnabled()  # topic is required
        assert "Fill topic first." in view.reader.read_button.toolTip()
        edit = line_edit(view, "topic")
        edit.setFocus()
        QTest.keyClicks(edit, "de")
        await until(lambda: suggestions(edit) == ["debugging"], "suggestions for 'de'")
        assert completion_requests(controller)[-1]["ref"] == {
            "type": "ref/resource",
            "uri": "demo://notes/{topic}",
        }
        QTest.keyClicks(edit, "bugging tips")
        await until(lambda: view.expanded.text().endswith("debugging%20tips"), "the live URI")
        assert view.reader.read_button.isEnabled()
        task = view.read()
        assert task is not None
        await task
        part = view.reader.contents.parts[0]
        assert "with topic = 'debugging tips'" in part.text_view.toPlainText()
        await controller.model.shutdown()

    run(loop, scenario())


def test_malformed_template_is_reported_and_still_usable(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        await connect(controller, python_profile("demo", "-m", "inspector.demo"))
        view = TemplateReadView(template_item("demo://notes/{topic}{?x"), controller)
        view.show()
        assert view.problems.isVisible() and "unclosed" in view.problems.text()
        line_edit(view, "topic").setText("a")
        view.form.set_values({"topic": "a"})
        await until(lambda: "demo://notes/a" in view.expanded.text(), "expansion")
        await controller.model.shutdown()

    run(loop, scenario())


@pytest.mark.peers
def test_everything_templates_text_and_blob(
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
        templates = {i.key: i for i in controller.model.catalog.templates}
        text = next(i for k, i in templates.items() if "/text/" in k)
        blob = next(i for k, i in templates.items() if "/blob/" in k)
        view = TemplateReadView(text, controller)
        view.show()
        edit = line_edit(view, "resourceId")
        edit.setFocus()
        QTest.keyClicks(edit, "7")
        await until(lambda: suggestions(edit) == ["7"], "the server's completion")
        task = view.read()
        assert task is not None
        await task
        assert "Resource 7: This is a plaintext resource" in (
            view.reader.contents.parts[0].text_view.toPlainText()
        )
        blob_view = TemplateReadView(blob, controller)
        blob_view.show()
        blob_view.form.set_values({"resourceId": "3"})
        await until(lambda: blob_view.reader.read_button.isEnabled(), "read enabled")
        task = blob_view.read()
        assert task is not None
        await task
        part = blob_view.reader.contents.parts[0]
        assert part.part.kind == "blob" and part.mode == "text"  # a text/plain blob
        assert "Resource 3: This is a base64 blob" in part.text_view.toPlainText()
        await controller.model.shutdown()

    run(loop, scenario())
