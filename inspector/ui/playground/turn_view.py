"""One turn of a Playground conversation on screen: the person's message, then what the model
did in order (its text as it streams, a card per tool call), then the turn's figures.

Built live (`add_text`, `add_card`, `finish`) or at once from a saved `TurnRecord`
(`TurnView.from_record`: the offline view). The figures line reads "2 steps · 1,234 tokens
in, 56 out · 1.4 s · $0.0021" (the cost only when the provider reported one); a turn that
did not end with an answer says why in red (the step limit, Stop, the provider's error).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QVBoxLayout, QWidget

from inspector.host.records import ToolCallRecord, TurnRecord
from inspector.ui.playground.call_card import ToolCallCard, tint
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["TurnView", "turn_figures"]


def turn_figures(turn: TurnRecord) -> str:
    def n(value: int | None) -> str:
        return "?" if value is None else f"{value:,}"

    parts = [f"{turn.steps} step{'s' if turn.steps != 1 else ''}"]
    parts.append(f"{n(turn.input_tokens)} tokens in, {n(turn.output_tokens)} out")
    parts.append(f"{turn.latency:.1f} s")
    if turn.cost is not None:
        parts.append(f"${turn.cost:.4f}")
    return " · ".join(parts)


class TurnView(QFrame):
    reveal_requested = Signal(str, object)  # a card's traffic link: tab name, request id

    def __init__(self, user_text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playgroundTurn")
        self.cards: list[ToolCallCard] = []
        self.texts: list[PlainLabel] = []
        self._streaming: PlainLabel | None = None
        self.user = PlainLabel("You: " + user_text, wrap=True, selectable=True)
        self.user.setObjectName("turnUser")
        font = self.user.font()
        font.setBold(True)
        self.user.setFont(font)
        self.figures = PlainLabel(wrap=True)
        self.figures.setObjectName("turnFigures")
        tint(self.figures, colors().muted)
        self.figures.hide()
        self.status = PlainLabel()
        self.status.setObjectName("turnStatus")
        tint(self.status, colors().muted)
        self.status.hide()
        self.outcome = PlainLabel(wrap=True, selectable=True)
        self.outcome.setObjectName("turnOutcome")
        tint(self.outcome, colors().error)
        self.outcome.hide()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(4, 6, 4, 6)
        self._layout.addWidget(self.user)
        self._items = QVBoxLayout()  # texts and cards, in the order they came
        self._layout.addLayout(self._items)
        self._layout.addWidget(self.status)
        self._layout.addWidget(self.outcome)
        self._layout.addWidget(self.figures)

    @classmethod
    def from_record(cls, turn: TurnRecord, parent: QWidget | None = None) -> TurnView:
        """A saved turn: its calls, then the model's final text, then its figures."""
        view = cls(turn.user_text, parent)
        for call in turn.tool_calls:
            view.add_card(call)
        if turn.final_text:
            view.add_text(turn.final_text)
        view.finish(turn)
        return view

    def step_started(self, step: int) -> None:
        """The n-th model request of the turn went out (its text starts a new piece)."""
        self._streaming = None
        self.status.setText(f"Step {step}: waiting for the model…")
        self.status.show()

    def say_status(self, text: str) -> None:
        """What the turn is doing now (hidden when it ends)."""
        self.status.setText(text)
        self.status.show()

    def add_text(self, piece: str) -> None:
        """Text from the model, as it streams: appended to its last text (a card between
        two pieces starts a new one)."""
        label = self._streaming
        if label is None:
            label = PlainLabel(wrap=True, selectable=True)
            label.setObjectName("turnText")
            self._items.addWidget(label)
            self.texts.append(label)
            self._streaming = label
        label.setText(label.text() + piece)

    def add_card(self, record: ToolCallRecord) -> ToolCallCard:
        card = ToolCallCard(record)
        card.reveal_requested.connect(self.reveal_requested.emit)
        self._items.addWidget(card)
        self.cards.append(card)
        self._streaming = None
        return card

    def card_for(self, record: ToolCallRecord) -> ToolCallCard | None:
        return next((c for c in self.cards if c.record is record), None)

    def shown_text(self) -> str:
        """The model's text in this turn, as shown (every piece, in order)."""
        return "\n".join(label.text() for label in self.texts)

    def finish(self, turn: TurnRecord) -> None:
        """The turn is over: its final text (if the stream did not show it), its figures,
        and why it ended when it did not end with an answer."""
        final = turn.final_text.strip()
        if final and not self.shown_text().strip().endswith(final):
            self._streaming = None
            self.add_text(turn.final_text)
        self._streaming = None
        self.status.hide()
        self.figures.setText(turn_figures(turn))
        self.figures.show()
        if turn.outcome != "answered" or turn.error:
            self.outcome.setText(turn.error or f"The turn ended: {turn.outcome}.")
            self.outcome.show()
