"""A session file's conversations shown read-only: one this app cannot read (damaged, or of a
newer version) is said in a sentence, and the others show, turn by turn."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from inspector.host.records import Conversation, ToolCallRecord, TurnRecord
from inspector.ui.playground.transcript import SavedConversations


def test_a_newer_or_damaged_conversation_is_said_and_the_others_show(qtbot: QtBot) -> None:
    call = ToolCallRecord("demo__echo", "demo", "echo", {"message": "<b>hi</b>"}, "{}")
    call.result = {"content": [{"type": "text", "text": "<b>hi</b>"}]}
    good = Conversation(provider="P", model="m", tabs=["demo"])
    good.turns.append(TurnRecord("say <i>hi</i>", "done", [call], steps=2))
    panel = SavedConversations([{"version": 99}, "not an object", good.to_json()])
    qtbot.addWidget(panel)
    assert panel.note.text() == (
        "A saved conversation cannot be shown: conversation version 99 is not one this app "
        "reads.\nA saved conversation is damaged (it is not a JSON object); it is not shown."
    )
    assert len(panel.conversations) == 1
    turn = panel.transcript.turns[0]
    assert turn.user.text() == "You: say <i>hi</i>"  # plain text, as written
    assert turn.cards[0].result.toPlainText() == "<b>hi</b>"
    assert turn.figures.text() == "2 steps · ? tokens in, ? out · 0.0 s"
    assert panel.settings.text().startswith("Read-only. P · m · tools of demo · approval: ask")
