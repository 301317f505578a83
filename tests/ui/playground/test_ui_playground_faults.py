"""The Playground when things go wrong (issue 28, bad input): a model that loops stops at the
step limit; a tool that answers with a JSON-RPC error is an error on its card and the model
is told; a server's elicitation during a turn opens the tab's usual dialog, answered there;
a provider that says 429, 500 or garbage, or is down, ends the turn with its sentence. After
each, the demo tab is still connected and the next turn runs. With recording off, the turn
says the conversation is not kept."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.features.providers.providers import ModelEntry, ModelSettings, ProviderConfig
from inspector.ui.asks.elicitation_dialog import ElicitationDialog
from inspector.ui.playground.playground_window import PlaygroundWindow
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.journeys import (
    click,
    menu_action,
    press,
    shows_connected,
    type_into,
    visible_window,
)
from tests.helpers.model_standin import model_standin, provider_for

pytestmark = pytest.mark.timeout(90)


def _calls(word: str, tool: str, arguments: dict[str, object]) -> dict[str, object]:
    return {
        "when": {"lastUserContains": word, "lastIsToolResult": False},
        "reply": {"toolCalls": [{"name": tool, "arguments": arguments}]},
    }


SCRIPT = {
    "rules": [
        {  # whatever the results say: a model that loops
            "when": {"lastUserContains": "loop"},
            "reply": {"toolCalls": [{"name": "echo", "arguments": {"message": "again"}}]},
        },
        _calls("explode", "explode", {}),
        _calls("ask me", "ask_user", {"message": "Who are you?"}),
        {"when": {"lastUserContains": "busy"}, "fault": {"status": 429, "retryAfter": 7}},
        {"when": {"lastUserContains": "broken"}, "fault": {"status": 500, "message": "oops"}},
        {"when": {"lastUserContains": "garbage"}, "fault": {"malformedJson": True}},
    ]
}


def test_loops_tool_errors_asks_and_provider_failures_leave_the_tab_connected(
    window: MainWindow, loop: asyncio.AbstractEventLoop, config_dir: Path
) -> None:
    async def turn(pg: PlaygroundWindow, text: str) -> str:
        count = len(pg.transcript.turns)
        type_into(pg.prompt, text)
        click(pg.send_button)
        await until(lambda: len(pg.transcript.turns) > count, "the turn")
        await until(pg.send_button.isEnabled, f"the turn {text!r} to end")
        return pg.message.text()

    async def scenario() -> None:
        tab = window.current_tab
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 11), "the demo's 11 tools")
        press(window, "Ctrl+Shift+G")
        await until(lambda: visible_window(PlaygroundWindow) is not None, "the Playground")
        pg = visible_window(PlaygroundWindow)
        assert isinstance(pg, PlaygroundWindow)
        pg.settings.policy.setCurrentIndex(pg.settings.policy.findData("all"))
        pg.settings.max_steps.setValue(3)

        said = await turn(pg, "loop please")
        assert said.startswith("The model was still calling tools after 3 step(s)")
        assert len(pg.transcript.turns[-1].cards) == 3

        said = await turn(pg, "explode please")
        card = pg.transcript.turns[-1].cards[0]
        assert card.state.text() == (
            "Failed: tools/call failed: -32603 The explode tool always fails with a JSON-RPC "
            "internal error (-32603)."
        )
        assert said.startswith("Answered: 2 steps")

        type_into(pg.prompt, "ask me something")
        click(pg.send_button)
        await until(lambda: visible_window(ElicitationDialog) is not None, "the tab's dialog")
        dialog = visible_window(ElicitationDialog)
        assert isinstance(dialog, ElicitationDialog)
        click(dialog.decline_button)
        await until(pg.send_button.isEnabled, "the turn to end")
        card = pg.transcript.turns[-1].cards[0]
        assert card.result.toPlainText() == "The user chose 'decline'; nothing was shared."

        said = await turn(pg, "are you busy")
        assert said.startswith("The model request failed: stand-in (openai) is rate-limiting")
        said = await turn(pg, "broken?")
        assert said == "The model request failed: stand-in (openai) failed (HTTP 500): oops"
        said = await turn(pg, "garbage")
        assert said.startswith("The model request failed: the stream from stand-in (openai) ")

        settings = ModelSettings.load()
        down = ProviderConfig("openai", "Down", "http://127.0.0.1:9/v1", [ModelEntry("m")])
        settings.providers.append(down)
        settings.save()
        pg.choices.reload_providers()
        pg.settings.provider.setCurrentIndex(pg.settings.provider.findText("Down"))
        said = await turn(pg, "hello")
        assert said.startswith("The model request failed: could not reach http://127.0.0.1:9/")
        assert pg.transcript.turns[-1].outcome.text() == said

        assert tab.bar.state_label.text() == "Connected"
        pg.settings.provider.setCurrentIndex(0)
        said = await turn(pg, "hello again")
        assert said.startswith("Answered: 1 step")
        assert "not kept" not in said

        menu_action(window, "File", "Record Sessions").trigger()  # recording off
        said = await turn(pg, "hello once more")
        assert said.endswith(
            "The conversation is not kept: no tab taking part is recording "
            "(File ▸ Record Sessions)."
        )
        pg.close()

    with model_standin(SCRIPT) as standin:
        settings = ModelSettings()
        settings.providers.append(provider_for(standin))
        settings.save()
        run(loop, scenario(), timeout=60)
