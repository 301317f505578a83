"""A running turn on screen: the engine's events drawn into its `TurnView`, and the person's
answers on the call cards given back to the engine as its `Approver`.

The engine emits `CallPending` before it awaits the approver, so the card is there (and
asking) when `approve` looks for it. A Stop while a card asks cancels `approve`: the card
withdraws its question.
"""

from __future__ import annotations

import asyncio

from inspector.host.interface import (
    Approval,
    CallPending,
    CallUpdated,
    HostEvent,
    PendingCall,
    StepStarted,
    TextDelta,
    TurnEnded,
)
from inspector.host.records import ToolCallRecord
from inspector.ui.playground.call_card import ToolCallCard
from inspector.ui.playground.turn_view import TurnView

__all__ = ["LiveTurn"]


class LiveTurn:
    def __init__(self, view: TurnView) -> None:
        self.view = view
        self.ended = False
        self.step = 0

    def card(self, record: ToolCallRecord) -> ToolCallCard:
        return self.view.card_for(record) or self.view.add_card(record)

    def on_event(self, event: HostEvent) -> None:
        if isinstance(event, TextDelta):
            self.view.add_text(event.text)
        elif isinstance(event, StepStarted):
            self.step = event.step
            self.view.step_started(event.step)
        elif isinstance(event, CallPending):
            self.card(event.pending.record)
            self.view.say_status(f"Step {self.step}: a tool call waits for you.")
        elif isinstance(event, CallUpdated):
            record = event.record
            running = (
                record.request_id is not None
                and record.result is None
                and not record.is_error
                and record.decision in ("sent", "edited")
            )
            self.card(record).show_record(record, running=running)
            name = record.qualified
            self.view.say_status(
                f"Step {self.step}: calling {name}…"
                if running
                else f"Step {self.step}: {name} is done; the model will be told."
            )
        elif isinstance(event, TurnEnded):
            self.ended = True
            self.view.finish(event.turn)

    async def approve(self, pending: PendingCall) -> Approval:
        card = self.card(pending.record)
        future = card.ask(pending.why)
        try:
            answer = await asyncio.shield(future)
        except asyncio.CancelledError:
            card.withdraw()
            raise
        if not answer.send:
            return Approval.refuse()
        if answer.edited:
            return Approval.edit(answer.arguments)
        return Approval.send()
