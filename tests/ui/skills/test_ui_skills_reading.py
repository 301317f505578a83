"""The Skills tab reads every skill even when the skills change while it reads: the
templates list arriving after the tab was opened stopped the reading under way, and the
next one was refused while the stopped one had not yet ended (the tab stayed at "not read
yet"). A fake connection whose first read waits makes the order certain."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QTabWidget

from inspector.features.catalog.lists import Catalog
from inspector.ui.skills.feature import SkillsFeature
from tests.helpers.gui import run, until
from tests.helpers.journeys import row_texts

TEXT = "---\nname: {name}\ndescription: d\n---\n# {name}\n"


class _Server:
    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.reads: list[str] = []
        self.server_capabilities: dict[str, Any] = {}

    async def read_resource(self, uri: str) -> dict[str, Any]:
        self.reads.append(uri)
        if len(self.reads) == 1:
            await self.gate.wait()
        name = uri.split("//")[1].split("/")[0]
        return {"contents": [{"uri": uri, "text": TEXT.format(name=name)}]}


class _Model:
    def __init__(self, server: _Server) -> None:
        self.catalog = Catalog()
        self.server = server
        self.tasks: list[asyncio.Task[Any]] = []

    def ready_server(self) -> _Server:
        return self.server

    def start(self, coro: Any, _name: str) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self.tasks.append(task)
        return task


class _Controller(QObject):
    server_ready = Signal(object)
    state_changed = Signal(str, str)

    def __init__(self, model: _Model) -> None:
        super().__init__()
        self.model = model


def test_skills_that_change_while_being_read_are_all_read(
    loop: asyncio.AbstractEventLoop,
) -> None:
    async def scenario() -> None:
        server = _Server()
        model = _Model(server)
        centre = QTabWidget()
        feature = SkillsFeature(_Controller(model), centre)  # type: ignore[arg-type]
        skills = [
            {"uri": f"skill://{n}/SKILL.md", "name": n, "mimeType": "text/markdown"}
            for n in ("alpha", "beta")
        ]
        model.catalog.resources.apply_page({"resources": skills}, first=True)
        centre.show()
        centre.setCurrentWidget(feature.panel)  # shown: the reading starts
        await until(lambda: len(server.reads) == 1, "the first read, held")
        template = {"uriTemplate": "skill://{s}/SKILL.md", "name": "any"}
        model.catalog.templates.apply_page({"resourceTemplates": [template]}, first=True)
        templates = feature.panel.templates
        await until(lambda: templates.isVisible(), "the skills looked for again")
        server.gate.set()
        await until(
            lambda: [row[1] for row in row_texts(feature.panel.list)] == ["conforms"] * 2,
            "both skills read",
            timeout=3,
        )
        await asyncio.gather(*model.tasks)
        centre.close()

    run(loop, scenario())
