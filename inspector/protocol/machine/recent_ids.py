"""`RecentIds`: a bounded memory of wire ids the connection is done with.

A response can arrive after we gave up on its request (a timeout, a cancel, a re-send),
or arrive twice. To say so instead of calling it "unknown", the connection remembers the
last `MEMORY` ids of each kind with a note; older ones are dropped so a long session does
not grow without bound.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

from inspector.protocol.machine.config import MEMORY
from inspector.protocol.wire.jsonrpc import RequestId

__all__ = ["RecentIds"]

V = TypeVar("V")


class RecentIds(Generic[V]):
    """The most recent ids, each with a note; the oldest is forgotten past `limit`."""

    __slots__ = ("_limit", "_notes")

    def __init__(self, limit: int = MEMORY) -> None:
        self._notes: OrderedDict[RequestId, V] = OrderedDict()
        self._limit = limit

    def remember(self, wire_id: RequestId, note: V) -> None:
        self._notes[wire_id] = note
        self._notes.move_to_end(wire_id)
        while len(self._notes) > self._limit:
            self._notes.popitem(last=False)

    def get(self, wire_id: RequestId) -> V | None:
        return self._notes.get(wire_id)

    def __contains__(self, wire_id: object) -> bool:
        return wire_id in self._notes
