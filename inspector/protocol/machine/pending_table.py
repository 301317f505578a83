"""`PendingTable`: our requests in flight, and the keys and wire ids they are known by.

A request keeps one key for its whole life while its wire id changes with every round
(MRTR retries, -32022 retries, re-sends). The table finds a request by any of the three
names the server or the caller may use for it (key, current wire id, progress token),
hands out keys and wire ids nobody else uses, and takes a request out when it ends.
"""

from __future__ import annotations

from typing import Any

from inspector.protocol.machine.events import RequestCompleted, RequestFailed
from inspector.protocol.machine.pending import Pending
from inspector.protocol.wire.jsonrpc import ErrorResponse, RequestId

__all__ = ["PendingTable"]


class PendingTable:
    """Requests in flight by key, by current wire id and by progress token."""

    __slots__ = ("_by_key", "_by_token", "_by_wire", "_next_id", "_next_key")

    def __init__(self) -> None:
        self._by_key: dict[int, Pending] = {}
        self._by_wire: dict[RequestId, int] = {}
        self._by_token: dict[str, int] = {}
        self._next_key = 1
        self._next_id = 1

    # ------------------------------------------------------------- names
    def new_key(self) -> int:
        key = self._next_key
        self._next_key += 1
        return key

    def fresh_id(self) -> int:
        """A wire id no in-flight request uses (the raw composer takes them too)."""
        while self._next_id in self._by_wire:
            self._next_id += 1
        value = self._next_id
        self._next_id += 1
        return value

    # ------------------------------------------------------------- lookups
    def __len__(self) -> int:
        return len(self._by_key)

    def get(self, key: int) -> Pending | None:
        return self._by_key.get(key)

    def all(self) -> list[Pending]:
        """A snapshot, safe to iterate while requests end."""
        return list(self._by_key.values())

    def key_of_wire_id(self, wire_id: RequestId) -> int | None:
        return self._by_wire.get(wire_id)

    def on_wire(self, wire_id: RequestId) -> Pending | None:
        """The request that `wire_id` currently names, if it is still awaited."""
        key = self._by_wire.get(wire_id)
        return None if key is None else self._by_key[key]

    def by_token(self, token: str) -> Pending | None:
        key = self._by_token.get(token)
        return None if key is None else self._by_key[key]

    def next_deadline(self) -> float | None:
        deadlines = [d for p in self._by_key.values() if (d := p.deadline()) is not None]
        return min(deadlines) if deadlines else None

    # ------------------------------------------------------------- changes
    def add(self, p: Pending) -> None:
        """Track `p` by key and progress token (its wire id is bound by `bind_wire`)."""
        self._by_key[p.key] = p
        if p.progress_token is not None:
            self._by_token[p.progress_token] = p.key

    def bind_wire(self, p: Pending) -> None:
        """`p.wire_id` now names `p`: the server's answer to it will find `p`."""
        self._by_wire[p.wire_id] = p.key

    def unbind_wire(self, wire_id: RequestId) -> Pending | None:
        """`wire_id` names nothing any more (answered, or re-sent under a new id); the
        request stays in the table. Returns the request it named."""
        key = self._by_wire.pop(wire_id, None)
        return None if key is None else self._by_key[key]

    def forget(self, p: Pending) -> None:
        """Take `p` out of the table: it ended."""
        self._by_key.pop(p.key, None)
        if self._by_wire.get(p.wire_id) == p.key:
            del self._by_wire[p.wire_id]
        if p.progress_token is not None:
            self._by_token.pop(p.progress_token, None)

    # ------------------------------------------------------------- endings
    def complete(self, p: Pending, result: dict[str, Any]) -> RequestCompleted:
        """`p` ended with a result."""
        self.forget(p)
        return RequestCompleted(p.key, p.method, result, p.wire_id, p.wire_rounds)

    def fail_with_error(
        self, p: Pending, err: ErrorResponse, message: str | None = None
    ) -> RequestFailed:
        """`p` ended with the server's JSON-RPC error."""
        self.forget(p)
        return RequestFailed(
            p.key,
            p.method,
            "error",
            message or f"{p.method} failed: {err.code} {err.message}",
            error=err,
            wire_id=p.wire_id,
        )
