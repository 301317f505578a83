"""A Playground conversation's turns, one under the other in a scrolling column.

The live Playground adds turns as they are asked; `SavedConversations` shows the ones kept in
a session file, read-only (the offline view's Playground tab): the settings they ran with,
then each turn. A saved entry this app cannot read (damaged, or written by a newer app) is
said in a sentence, and the others show.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QComboBox, QScrollArea, QTabWidget, QVBoxLayout, QWidget

from inspector.host.records import Conversation, TurnRecord
from inspector.recording.offline import RecordedConversation
from inspector.ui.playground.turn_view import TurnView
from inspector.ui.widgets.lazy_panel import LazyPanel
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = [
    "SavedConversations",
    "Transcript",
    "read_conversation",
    "settings_text",
    "show_saved_conversations",
]


class Transcript(QScrollArea):
    reveal_requested = Signal(str, object)  # a card's traffic link: tab name, request id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playgroundTranscript")
        self.setWidgetResizable(True)
        self.turns: list[TurnView] = []
        body = QWidget()
        self._column = QVBoxLayout(body)
        self._column.setContentsMargins(6, 6, 6, 6)
        self.empty = PlainLabel("No turns yet.", wrap=True)
        self.empty.setObjectName("transcriptEmpty")
        self.empty.setStyleSheet(f"color: {colors().muted.name()};")
        self._column.addWidget(self.empty)
        self._column.addStretch(1)
        self.setWidget(body)

    def add_turn(self, view: TurnView) -> TurnView:
        self.empty.hide()
        view.reveal_requested.connect(self.reveal_requested.emit)
        self._column.insertWidget(self._column.count() - 1, view)
        self.turns.append(view)
        self.follow()
        return view

    def show_turns(self, turns: list[TurnRecord]) -> None:
        for turn in turns:
            self.add_turn(TurnView.from_record(turn))

    def clear_turns(self) -> None:
        for view in self.turns:
            self._column.removeWidget(view)
            view.deleteLater()
        self.turns = []
        self.empty.show()

    def follow(self) -> None:
        """Keep the newest at the bottom in view (after the layout has grown)."""
        QTimer.singleShot(0, self, self._to_bottom)  # (not after the view is gone)

    def _to_bottom(self) -> None:
        bar = self.verticalScrollBar()
        if bar is not None:
            bar.setValue(bar.maximum())


def settings_text(conversation: Conversation) -> str:
    """What a conversation ran with, in one line a person reads."""
    tabs = ", ".join(conversation.tabs) or "no tab"
    instructions = "with" if conversation.include_instructions else "without"
    return (
        f"{conversation.provider or '?'} · {conversation.model or '?'} · tools of {tabs} · "
        f"approval: {conversation.policy} · at most {conversation.max_steps} steps · "
        f"{instructions} the servers' instructions"
    )


def read_conversation(data: Any) -> Conversation | str:
    """A saved conversation, or the sentence saying why it cannot be shown."""
    if not isinstance(data, dict):
        return "A saved conversation is damaged (it is not a JSON object); it is not shown."
    try:
        return Conversation.from_json(data)
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        return f"A saved conversation cannot be shown: {exc}."


class SavedConversations(QWidget):
    """The conversations kept in a session file, read-only: pick one, read its turns."""

    def __init__(self, saved: list[Any], parent: QWidget | None = None) -> None:
        """`saved`: each conversation's JSON as the file holds it, in the file's order."""
        super().__init__(parent)
        self.setObjectName("savedConversations")
        self.conversations: list[Conversation] = []
        self.problems: list[str] = []
        for data in saved:
            read = read_conversation(data)
            if isinstance(read, str):
                self.problems.append(read)
            else:
                self.conversations.append(read)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.note = PlainLabel("\n".join(self.problems), wrap=True, selectable=True)
        self.note.setObjectName("savedConversationsNote")
        self.note.setStyleSheet(f"color: {colors().warn.name()};")
        self.note.setVisible(bool(self.problems))
        layout.addWidget(self.note)
        self.picker = QComboBox()
        self.picker.setObjectName("savedConversationPicker")
        for number, conversation in enumerate(self.conversations, 1):
            count = len(conversation.turns)
            self.picker.addItem(
                f"Conversation {number}: {count} turn{'s' if count != 1 else ''}, "
                f"{conversation.model or '?'}"
            )
        self.picker.setVisible(len(self.conversations) > 1)
        layout.addWidget(self.picker)
        self.settings = PlainLabel(wrap=True, selectable=True)
        self.settings.setObjectName("savedConversationSettings")
        self.settings.setStyleSheet(f"color: {colors().muted.name()};")
        layout.addWidget(self.settings)
        self.system = PlainLabel(wrap=True, selectable=True)
        self.system.setObjectName("savedConversationSystem")
        layout.addWidget(self.system)
        self.transcript = Transcript()
        layout.addWidget(self.transcript, 1)
        self.picker.currentIndexChanged.connect(self.show_conversation)
        if self.conversations:
            self.show_conversation(len(self.conversations) - 1)
            self.picker.setCurrentIndex(len(self.conversations) - 1)

    def show_conversation(self, index: int) -> None:
        if not 0 <= index < len(self.conversations):
            return
        conversation = self.conversations[index]
        self.settings.setText("Read-only. " + settings_text(conversation))
        prompt = conversation.system_prompt
        self.system.setText(f"System prompt: {prompt}" if prompt else "No system prompt.")
        self.transcript.clear_turns()
        self.transcript.show_turns(conversation.turns)


def show_saved_conversations(
    tabs: QTabWidget,
    saved: dict[str, RecordedConversation],
    reveal: Callable[[str | int], object] | None = None,
) -> LazyPanel | None:
    """The offline view's "Playground" tab, when the file keeps conversations; its cards
    are made when the tab is first shown (a long conversation costs nothing until then).
    `reveal`: what a card's "Show in traffic log" does with the request id."""
    if not saved:
        return None
    datas = [entry.data for entry in saved.values()]
    readable = sum(not isinstance(read_conversation(d), str) for d in datas)

    def build() -> SavedConversations:
        panel = SavedConversations(datas)
        if reveal is not None:
            panel.transcript.reveal_requested.connect(lambda _tab, rid: reveal(rid))
        return panel

    lazy = LazyPanel(build)
    lazy.setObjectName("savedConversationsTab")
    tabs.addTab(lazy, f"Playground ({readable})")
    return lazy
