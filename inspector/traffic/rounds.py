"""Rounds of one logical request in the traffic log (MRTR retries, version retries, re-sends).

Qt-free. The protocol core keeps one key per request across the wire ids it uses
(spec 2026-07-28 MRTR: the client retries the original request under a new id with
`inputResponses` and `requestState`). When the session records an outgoing request,
the core already maps its wire id to that key, so a lookup at append time links every
round of one conversation: the original request, its input_required answer, the
retries and the final answer.

The log view marks the rows ("round 2/3") and shows the whole conversation on demand.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from typing import Any

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.protocol.wire.jsonrpc import RequestId
from inspector.traffic.log import TrafficEntry, TrafficLog

__all__ = ["RequestRounds", "conversation_text"]

KeyLookup = Callable[[RequestId], Hashable | None]


class RequestRounds:
    """Which outgoing requests are rounds of the same logical request."""

    def __init__(self, log: TrafficLog) -> None:
        self.log = log
        self._lookup: KeyLookup | None = None
        self._group_of: dict[int, Hashable] = {}  # request entry index -> group
        self._members: dict[Hashable, list[int]] = {}  # group -> request indices, in order
        self._listeners: Listeners[[list[int]]] = Listeners("rounds listener")
        log.on_grow(self._on_grow)
        log.on_clear(self.clear)

    def set_key_lookup(self, lookup: KeyLookup | None) -> None:
        """`lookup(wire_id)` -> a hashable group key (the core's request key, made unique per
        connection), or None for a request the core does not track."""
        self._lookup = lookup

    def on_change(self, listener: Callable[[list[int]], None]) -> Unsubscribe:
        """`listener(indices)`: the marks of these entries changed (a round was added)."""
        return self._listeners.add(listener)

    def clear(self) -> None:
        self._group_of.clear()
        self._members.clear()

    def _on_grow(self) -> None:
        lookup = self._lookup
        if lookup is None:
            return
        index = len(self.log) - 1
        if not self.log.is_outgoing_request(index):
            return
        wire_id = self.log.entries[index].msg_id
        if wire_id is None:
            return
        group = lookup(wire_id)
        if group is None:
            return
        members = self._members.setdefault(group, [])
        members.append(index)
        self._group_of[index] = group
        if len(members) > 1 and self._listeners:
            self._listeners.emit(self._with_answers(members))

    def _with_answers(self, requests: list[int]) -> list[int]:
        out: list[int] = []
        for index in requests:
            out.append(index)
            pair = self.log.entries[index].pair
            if pair >= 0:
                out.append(pair)
        return sorted(out)

    def _request_index(self, index: int) -> int | None:
        if index in self._group_of:
            return index
        if not 0 <= index < len(self.log):
            return None
        pair = self.log.entries[index].pair
        return pair if pair in self._group_of else None

    def round_of(self, index: int) -> tuple[int, int] | None:
        """(round, rounds so far) of a request or its answer, when its request had several."""
        request = self._request_index(index)
        if request is None:
            return None
        members = self._members[self._group_of[request]]
        if len(members) < 2:
            return None
        return members.index(request) + 1, len(members)

    def conversation(self, index: int) -> list[int]:
        """Every entry of the conversation `index` belongs to (requests and their answers),
        in log order; empty when it is a single round."""
        request = self._request_index(index)
        if request is None:
            return []
        members = self._members[self._group_of[request]]
        return self._with_answers(members) if len(members) > 1 else []

    def mark(self, index: int) -> str:
        """The short marker the log shows in the summary column ("" for single rounds)."""
        found = self.round_of(index)
        return f"round {found[0]}/{found[1]}" if found else ""


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _describe(entry: TrafficEntry, value: Any) -> str:
    if entry.kind == "request" and isinstance(value, dict):
        params = _obj(value.get("params"))
        responses = params.get("inputResponses")
        state = "requestState" in params
        if isinstance(responses, dict) and responses:
            return f"retry with inputResponses for {', '.join(map(str, responses))}" + (
                " and requestState" if state else ""
            )
        if state:
            return "retry with requestState only"
        return "original request"
    if entry.kind == "response" and isinstance(value, dict):
        result = _obj(value.get("result"))
        if result.get("resultType") == "input_required":
            asks = result.get("inputRequests")
            keys = ", ".join(map(str, asks)) if isinstance(asks, dict) and asks else "none"
            return f"input required (inputRequests: {keys})"
        return "final answer"
    if entry.kind == "error":
        return "error answer"
    return entry.kind


def conversation_text(log: TrafficLog, indices: list[int], rounds: RequestRounds) -> str:
    """The conversation as plain text: one header line per message, then its JSON."""
    parts: list[str] = []
    for index in indices:
        entry = log.entries[index]
        try:
            value: Any = json.loads(entry.text())
        except ValueError:
            value = None
        arrow = "→" if entry.direction == "out" else "←"
        mark = rounds.mark(index)
        head = f"#{index} {arrow} {mark} · id {entry.msg_id!r} · {_describe(entry, value)}"
        if entry.latency is not None:
            head += f" · {entry.latency * 1000:.1f} ms"
        parts.append(head + "\n" + entry.pretty())
    return "\n\n".join(parts)
