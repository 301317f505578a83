"""`AskTable`: the server's asks that wait for the user's answer.

The UI answers every ask by a local ask id, whichever era it came from. A legacy ask is
also known by the server's JSON-RPC id (the server may cancel it by that id); a modern
one belongs to one of our paused requests (`Pending.asks`), and ends when that request
ends.
"""

from __future__ import annotations

from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.machine.events import AskCancelled, Event
from inspector.protocol.machine.pending import Pending
from inspector.protocol.wire.jsonrpc import RequestId

__all__ = ["AskTable"]


class AskTable:
    """Open asks by ask id, legacy ones also by the server's request id."""

    __slots__ = ("_asks", "_legacy_by_wire", "_next_ask")

    def __init__(self) -> None:
        self._asks: dict[int, ServerAsk] = {}
        self._legacy_by_wire: dict[RequestId, int] = {}
        self._next_ask = 1

    def new_id(self) -> int:
        ask_id = self._next_ask
        self._next_ask += 1
        return ask_id

    def open(self, ask: ServerAsk) -> None:
        """`ask` waits for the user from now on."""
        self._asks[ask.ask_id] = ask
        if ask.wire_id is not None:
            self._legacy_by_wire[ask.wire_id] = ask.ask_id

    def all(self) -> list[ServerAsk]:
        return list(self._asks.values())

    def take(self, ask_id: int) -> ServerAsk | None:
        """Close the ask `ask_id` (the user answered it); None if it is no longer open."""
        ask = self._asks.pop(ask_id, None)
        if ask is not None and ask.wire_id is not None:
            self._legacy_by_wire.pop(ask.wire_id, None)
        return ask

    def cancel_by_server(self, wire_id: RequestId, reason: str) -> list[Event]:
        """The server withdrew its request `wire_id`: the ask it opened is cancelled."""
        ask_id = self._legacy_by_wire.pop(wire_id, None)
        if ask_id is None or self._asks.pop(ask_id, None) is None:
            return []
        return [AskCancelled(ask_id, reason)]

    def is_open_by_server(self, wire_id: RequestId) -> bool:
        """Does an open legacy ask answer the server's request `wire_id`?"""
        return wire_id in self._legacy_by_wire

    def withdraw_for(self, p: Pending, reason: str) -> list[Event]:
        """`p` ended or restarts its round: the asks it was waiting on are cancelled."""
        events: list[Event] = []
        for ask_id in p.asks.values():
            if self._asks.pop(ask_id, None) is not None:
                events.append(AskCancelled(ask_id, reason))
        p.asks.clear()
        return events

    def cancel_all(self, reason: str) -> list[Event]:
        """The connection ended: every open ask is cancelled."""
        events: list[Event] = [AskCancelled(ask_id, reason) for ask_id in self._asks]
        self._asks.clear()
        self._legacy_by_wire.clear()
        return events
