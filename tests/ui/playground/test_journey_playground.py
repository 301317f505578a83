"""Journey (issue 28): a person asks a model in the Playground to use the demo server's tools.

Host ▸ Playground (Ctrl+Shift+G) over the connected demo tab; the model provider is the
loopback model stand-in, set up as the Model providers dialog saves it. Ask; the model calls
`echo`; the card asks; Edit arguments, Send; the card shows the result and "Show in traffic
log" selects the call's request in the demo tab's log; the model's answer streams in, with
the turn's figures under it; save the turn as an eval case. Then auto-approve read-only
tools: a call of `create_ticket` (not read-only) with arguments its schema refuses asks with
"Send anyway"; Refuse; the model is told. Then a slow model: Stop ends the turn, and the tab
stays connected. Finally the tab's recording, opened read-only, shows the conversation, and
its card's link selects the recorded request."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from inspector.evals.cases import load_evals
from inspector.features.providers.providers import ModelSettings
from inspector.ui.playground.playground_window import PlaygroundWindow
from inspector.ui.playground.transcript import SavedConversations
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.widgets.lazy_panel import LazyPanel
from tests.helpers.gui import run, until
from tests.helpers.journeys import (
    DEMO_TITLE,
    click,
    click_tab,
    press,
    shows_connected,
    tab_titles,
    type_into,
    visible_window,
)
from tests.helpers.model_standin import model_standin, provider_for

pytestmark = pytest.mark.timeout(90)

ECHO = "mcp-inspector-qt_demo__echo"
TICKET = "mcp-inspector-qt_demo__create_ticket"

SCRIPT = {
    "rules": [
        {
            "when": {"lastUserContains": "echo", "lastIsToolResult": False},
            "reply": {"toolCalls": [{"name": "echo", "arguments": {"message": "hi there"}}]},
        },
        {
            "when": {"lastUserContains": "echo"},
            "reply": {"text": "The server said {toolResult}.", "cost": 0.0012},
        },
        {
            "when": {"lastUserContains": "ticket", "lastIsToolResult": False},
            "reply": {"toolCalls": [{"name": "create_ticket", "arguments": {"title": "x"}}]},
        },
        {"when": {"lastUserContains": "ticket"}, "reply": {"text": "Understood, no ticket."}},
        {
            "when": {"lastUserContains": "forever"},
            "reply": {"text": "late"},
            "fault": {"delay": 30},
        },
    ]
}


def test_ask_approve_refuse_stop_and_read_it_again_offline(
    recording_window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    config_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = recording_window
    evals = tmp_path / "evals.json"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *_a, **_k: (str(evals), ""))
    )

    async def scenario() -> None:
        tab = window.current_tab
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 11), "the demo's 11 tools")

        press(window, "Ctrl+Shift+G")
        await until(lambda: visible_window(PlaygroundWindow) is not None, "the Playground")
        pg = visible_window(PlaygroundWindow)
        assert isinstance(pg, PlaygroundWindow)
        assert pg.settings.ticked_tabs() == [DEMO_TITLE]
        assert pg.settings.provider.currentText() == "stand-in (openai)"
        assert pg.settings.model.currentText() == "standin"

        # Ask; the model calls echo; the card asks (policy: ask every call); Send.
        type_into(pg.prompt, "Please echo hi there")
        click(pg.send_button)
        await until(lambda: pg.transcript.turns and pg.transcript.turns[0].cards, "a card")
        card = pg.transcript.turns[0].cards[0]
        await until(card.send_button.isVisible, "the card to ask")
        assert card.title.text() == ECHO
        assert "asks before every call" in card.note.text()
        assert json.loads(card.arguments.toPlainText()) == {"message": "hi there"}
        click(card.edit_button)  # change the arguments before they go
        type_into(card.arguments, '{"message": "hi, edited"}')
        click(card.send_button)
        turn = pg.transcript.turns[0]
        await until(turn.figures.isVisible, "the turn to end")
        assert card.result.toPlainText() == "hi, edited"
        assert card.state.text().startswith("Sent with edited arguments, answered in")
        assert turn.shown_text() == "The server said hi, edited."
        assert turn.figures.text().startswith("2 steps · ")
        assert turn.figures.text().endswith(" · $0.0012")
        assert pg.message.text().startswith("Answered: 2 steps")

        # Save the turn as an eval case, in a new evals file picked in the file dialog.
        click(pg.save_case_button)
        assert pg.message.text() == f"Saved the turn as case “Please echo hi there” in {evals}."
        case = load_evals(evals).cases[0]
        assert [(c.tool, c.arguments) for c in case.expected_calls] == [
            ("echo", {"message": "hi, edited"})
        ]

        # The card's link: the demo tab's log selects the tools/call request.
        click(card.reveal_button)
        assert tab.log_panel.isVisible()  # the tab's Traffic view is the one shown
        entry = tab.log_panel.selected_entry()
        assert entry is not None and entry.method == "tools/call"

        # Auto-approve read-only; create_ticket is not read-only and its title too short.
        pg.settings.policy.setCurrentIndex(pg.settings.policy.findData("read-only"))
        assert "Annotations are hints from the server" in pg.settings.policy_note.text()
        type_into(pg.prompt, "File a ticket")
        click(pg.send_button)
        await until(lambda: len(pg.transcript.turns) == 2 and pg.transcript.turns[1].cards, "card")
        card = pg.transcript.turns[1].cards[0]
        await until(card.refuse_button.isVisible, "the card to ask")
        assert card.send_button.text() == "Send anyway"
        assert card.problems.text().startswith("Schema check: ")
        click(card.refuse_button)
        await until(pg.transcript.turns[1].figures.isVisible, "the second turn to end")
        assert card.state.text().startswith("Invalid arguments: The call was not made")
        assert pg.transcript.turns[1].shown_text() == "Understood, no ticket."

        # A model that does not answer: Stop.
        type_into(pg.prompt, "Think forever")
        click(pg.send_button)
        await until(lambda: len(pg.transcript.turns) == 3, "the third turn")
        status = pg.transcript.turns[2].status
        await until(lambda: status.text() == "Step 1: waiting for the model…", "the model")
        click(pg.stop_button)
        await until(lambda: pg.send_button.isEnabled(), "the turn to stop")
        assert pg.transcript.turns[2].outcome.text() == "Stopped by the user."
        assert pg.message.text() == "Stopped by the user."
        assert tab.bar.state_label.text() == "Connected"

        # The recording keeps the conversation: open it read-only in a tab of its own.
        path = tab.session_files.recorder.last_path
        assert path is not None
        pg.close()
        await until(lambda: "Think forever" in path.read_text(), "the last turn in the file")
        window.open_session_files([path])
        await until(lambda: len(tab_titles(window.tabs)) == 2, "the recording's tab")
        view = window.current_tab.session_files.view
        assert view is not None
        await until(lambda: "Playground (1)" in tab_titles(view.bottom), "its Playground tab")
        click_tab(view.bottom, "Playground")
        shown = view.bottom.currentWidget()
        assert isinstance(shown, LazyPanel)
        saved = shown.panel()  # made when the tab was shown
        assert isinstance(saved, SavedConversations)
        await until(saved.isVisible, "the saved conversation")
        assert saved.settings.text().startswith(
            f"Read-only. stand-in (openai) · standin · tools of {DEMO_TITLE} · "
        )
        turns = saved.transcript.turns
        assert [t.user.text() for t in turns] == [
            "You: Please echo hi there",
            "You: File a ticket",
            "You: Think forever",
        ]
        assert turns[0].cards[0].result.toPlainText() == "hi, edited"
        assert turns[2].outcome.text() == "Stopped by the user."
        click(turns[0].cards[0].reveal_button)  # the recorded request, in the recorded log
        entry = view.log_panel.selected_entry()
        assert entry is not None and entry.method == "tools/call"

    with model_standin(SCRIPT) as standin:
        settings = ModelSettings()
        settings.providers.append(provider_for(standin))
        settings.save()
        run(loop, scenario(), timeout=60)
