"""`Outbox`: the messages the connection has queued for the caller to send.

The connection never writes to a transport (it is sans-IO); every part of it that has
something to say appends here, and the caller drains the queue with `data_to_send()`.
"""

from __future__ import annotations

from inspector.protocol.wire.jsonrpc import Message

__all__ = ["Outbox"]


class Outbox:
    """Outgoing messages, in the order they were queued."""

    __slots__ = ("_messages",)

    def __init__(self) -> None:
        self._messages: list[Message] = []

    def put(self, message: Message) -> None:
        self._messages.append(message)

    def drain(self) -> list[Message]:
        """Everything queued so far; the outbox is empty afterwards."""
        out, self._messages = self._messages, []
        return out
