"""Journey (issue 28): a person asks a model in the Playground to use the servers' tools.

The demo server in one tab, a server with a destructive tool in another (Ctrl+T ▸ a saved
profile); Host ▸ Playground (Ctrl+Shift+G), both tabs ticked; the model provider is the
loopback model stand-in, set up as the Model providers dialog saves it. Ask; the model calls
`echo`; the card asks; Edit arguments, Send; the card shows the result and "Show in traffic
log" shows the demo tab's log with the call's request selected; the model's answer streams
in, with the turn's figures under it; save the turn as an eval case. Then approve every
call: a call whose arguments its schema refuses still asks (Send anyway), and so does the
destructive tool; Refuse both; the model is told. Then a slow model: Stop ends the turn,
and the tab stays connected. Finally the demo tab's recording, opened read-only, shows the
conversation, and its card's link selects the recorded request."""

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
from tests.helpers.gui import python_profile, run, until
from tests.helpers.journeys import (
    DEMO_TITLE,
    click,
    click_tab,
    open_tab_with,
    press,
    shows_connected,
    tab_titles,
    type_into,
    visible_window,
)
from tests.helpers.model_standin import model_standin, provider_for
from tests.helpers.peers import REPO

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
            "reply": {
                "toolCalls": [
                    {"name": "create_ticket", "arguments": {"title": "x"}},
                    {"name": "delete_all", "arguments": {}},
                ]
            },
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
    window.store.put(python_profile("Files", str(REPO / "tests/servers/gui/files_server.py")))
    evals = tmp_path / "evals.json"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *_a, **_k: (str(evals), ""))
    )

    async def scenario() -> None:
        tab = window.current_tab
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 11), "the demo's 11 tools")

        files = await open_tab_with(window, "Files")  # a server with a destructive tool
        await until(lambda: shows_connected(files, 2), "the files server's 2 tools")

        press(window, "Ctrl+Shift+G")
        await until(lambda: visible_window(PlaygroundWindow) is not None, "the Playground")
        pg = visible_window(PlaygroundWindow)
        assert isinstance(pg, PlaygroundWindow)
        assert pg.settings.ticked_tabs() == [DEMO_TITLE, "files"]  # the connected tabs
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

        # Auto-approve read-only tools: the note says annotations are hints. Then approve
        # every call: still, arguments its schema refuses ask (Send anyway), and so does a
        # tool annotated destructive; Refuse both.
        pg.settings.policy.setCurrentIndex(pg.settings.policy.findData("read-only"))
        assert "Annotations are hints from the server" in pg.settings.policy_note.text()
        pg.settings.policy.setCurrentIndex(pg.settings.policy.findData("all"))
        type_into(pg.prompt, "File a ticket, then clean up")
        click(pg.send_button)
        await until(lambda: len(pg.transcript.turns) == 2 and pg.transcript.turns[1].cards, "card")
        card = pg.transcript.turns[1].cards[0]
        await until(card.refuse_button.isVisible, "the card to ask")
        assert card.title.text() == TICKET
        assert card.send_button.text() == "Send anyway"
        assert card.problems.text().startswith("Schema check: ")
        click(card.refuse_button)
        await until(lambda: len(pg.transcript.turns[1].cards) == 2, "the second card")
        card = pg.transcript.turns[1].cards[1]
        await until(card.refuse_button.isVisible, "the destructive call to ask")
        assert card.title.text() == "files__delete_all"
        assert "annotates this tool as destructive" in card.note.text()
        click(card.refuse_button)
        await until(pg.transcript.turns[1].figures.isVisible, "the second turn to end")
        first, second = pg.transcript.turns[1].cards
        assert first.state.text().startswith("Invalid arguments: The call was not made")
        assert second.state.text() == "Refused: The user refused this tool call."
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
        await until(lambda: len(tab_titles(window.tabs)) == 3, "the recording's tab")
        view = window.current_tab.session_files.view
        assert view is not None
        await until(lambda: "Playground (1)" in tab_titles(view.bottom), "its Playground tab")
        click_tab(view.bottom, "Playground")
        shown = view.bottom.currentWidget()
        assert isinstance(shown, LazyPanel)
        saved = shown.panel()  # made when the tab was shown
        assert isinstance(saved, SavedConversations)
        await until(saved.isVisible, "the saved conversation")
        assert saved.settings.text() == (
            f"Read-only. stand-in (openai) · standin · tools of {DEMO_TITLE}, files · "
            "approval: all · at most 10 steps · with the servers' instructions"
        )
        turns = saved.transcript.turns
        assert [t.user.text() for t in turns] == [
            "You: Please echo hi there",
            "You: File a ticket, then clean up",
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
