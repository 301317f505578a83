"""Rounds of one logical request in the traffic log (MRTR retries, version retries, re-sends).

Qt-free. The protocol core keeps one key per request across the wire ids it uses
(spec 2026-07-28 MRTR: the client retries the original request under a new id with
`inputResponses` and `requestState`). When the session records an outgoing request,
the core already maps its wire id to that key, so a lookup at append time links every
round of one conversation: the original request, its input_required answer, the
retries and the final answer.

A recorded session has no core to ask: `group_by_content()` groups the rounds from the
frames themselves. A request carrying `inputResponses` or `requestState` is a retry of an
earlier request of the same method whose answer was `input_required`: the one whose answer's
`requestState` it echoes, else the one with the same params apart from `inputResponses`,
`requestState` and `_meta`, else the newest such request of the same method.

The log view marks the rows ("round 2/3"), shows the whole conversation on demand, and the
operation's times (`operations.Operation`): its whole duration, the server's time and the
user's time between the rounds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from typing import Any, Final

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.protocol.wire.jsonrpc import RequestId
from inspector.traffic.log import TrafficEntry, TrafficLog
from inspector.traffic.operations import (
    Operation,
    RetryMatcher,
    fold_stats,
    input_required_result,
    mentions,
    operation_of,
    params_of,
)
from inspector.traffic.record import KINDS
from inspector.traffic.stats import MethodStats

__all__ = ["RequestRounds", "conversation_text"]

KeyLookup = Callable[[RequestId], Hashable | None]


class RequestRounds:
    """Which outgoing requests are rounds of the same logical request."""

    def __init__(self, log: TrafficLog) -> None:
        self.log = log
        self._lookup: KeyLookup | None = None
        self._group_of: dict[int, Hashable] = {}  # request entry index -> group
        self._members: dict[Hashable, list[int]] = {}  # group -> request indices, in order
        self._by_content = False
        self._matcher: RetryMatcher[int] = RetryMatcher()  # content grouping, by index
        self._operations: dict[Hashable, Operation] = {}  # cache, by group
        self._listeners: Listeners[[list[int]]] = Listeners("rounds listener")
        self._seen = len(log)  # rows looked at
        log.on_grow(self._on_grow)
        log.on_clear(self.clear)

    def set_key_lookup(self, lookup: KeyLookup | None) -> None:
        """`lookup(wire_id)` -> a hashable group key (the core's request key, made unique per
        connection), or None for a request the core does not track."""
        self._lookup = lookup

    def group_by_content(self) -> None:
        """Group the rounds from the frames (a recorded session: no core to ask)."""
        self._by_content = True

    @property
    def by_content(self) -> bool:
        """Are the rounds grouped from the frames (a recording), not by the core's key?"""
        return self._by_content

    def on_change(self, listener: Callable[[list[int]], None]) -> Unsubscribe:
        """`listener(indices)`: the marks of these entries changed (a round was added)."""
        return self._listeners.add(listener)

    def clear(self) -> None:
        self._seen = 0
        self._group_of.clear()
        self._members.clear()
        self._matcher.clear()
        self._operations.clear()

    def _on_grow(self) -> None:
        """Rows were added: one (live), or a run at once (a file's index: bulk_rows); the
        requests and answers among them are noted in order."""
        log = self.log
        start, self._seen = self._seen, len(log)
        if self._lookup is None and not self._by_content:
            return
        if self._seen - start == 1:
            self._note(start)
            return
        for index in _rows_with_ids(log, start, self._seen):
            self._note(index)

    def _note(self, index: int) -> None:
        lookup = self._lookup
        log = self.log
        if not log.is_outgoing_request(index):
            # An answer (a notification, the common row, has no pair). A request of ours may
            # be paired already: its answer came in the same run (a file's index).
            request = log.pair_index(index)
            if request >= 0:
                self._answered(index, request)
            return
        group: Hashable | None
        if lookup is not None:
            wire_id = self.log.entries[index].msg_id
            if wire_id is None:
                return
            group = lookup(wire_id)
        else:
            group = self._content_group(index)
        if group is None:
            return
        self._operations.pop(group, None)
        members = self._members.setdefault(group, [])
        members.append(index)
        self._group_of[index] = group
        if len(members) > 1 and self._listeners:
            self._listeners.emit(self._with_answers(members))

    def _answered(self, index: int, request: int) -> None:
        """The answer at `index` to the request at `request`: when that is one of ours, its
        operation's times changed; in content mode an `input_required` answer makes its
        request one a retry can continue."""
        if not self.log.is_outgoing_request(request):
            return  # the answer to a server's request
        group = self._group_of.get(request)
        if group is not None:
            self._operations.pop(group, None)
            members = self._members[group]
            if len(members) > 1 and self._listeners:
                self._listeners.emit(self._with_answers(members))
        result = input_required_result(self.log, index) if self._by_content else None
        if result is not None:
            method = self.log.entries[request].method or ""
            log = self.log
            self._matcher.asked(request, method, lambda: params_of(_parsed(log, request)), result)

    def _content_group(self, index: int) -> Hashable | None:
        """The group of a request, by what it carries (see the module's docstring)."""
        log = self.log
        if not mentions(log, index, "inputResponses") and not mentions(log, index, "requestState"):
            return None  # not a retry: no parse
        params = params_of(_parsed(self.log, index))
        chosen = self._matcher.match(self.log.entries[index].method or "", params)
        if chosen is None:
            return None  # an original request: grouped when a retry continues it
        group = self._group_of.get(chosen)
        if group is None:
            group = ("op", chosen)
            self._members[group] = [chosen]
            self._group_of[chosen] = group
        return group

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

    def operation(self, index: int) -> Operation | None:
        """The operation of a request or answer of several rounds, with its times."""
        request = self._request_index(index)
        if request is None:
            return None
        group = self._group_of[request]
        members = self._members[group]
        if len(members) < 2:
            return None
        found = self._operations.get(group)
        if found is None:
            found = self._operations[group] = operation_of(self.log, members)
        return found

    def operations(self) -> list[Operation]:
        """Every operation of several rounds, in the order they started."""
        out = [self.operation(members[0]) for members in self._members.values()]
        return sorted((op for op in out if op is not None), key=lambda op: op.start)

    def method_stats(self) -> list[MethodStats]:
        """The log's per-method statistics with each operation counted once (`fold_stats`)."""
        return fold_stats(self.log.stats, self.operations())

    def describe(self, index: int) -> str:
        """A line on the operation of `index` (the detail pane's), "" for a single round."""
        op = self.operation(index)
        if op is None:
            return ""
        found = self.round_of(index)
        at = f"round {found[0]} of {op.rounds}" if found else f"{op.rounds} rounds"
        return f"operation {op.label}, {at}: {op.times_text()}"

    def mark(self, index: int) -> str:
        """The short marker the log shows in the summary column ("" for single rounds); the
        final answer of an operation adds its times."""
        found = self.round_of(index)
        if not found:
            return ""
        text = f"round {found[0]}/{found[1]}"
        op = self.operation(index)
        if op is not None and op.complete and index == op.answers[-1]:
            text += f" · {op.times_text()}"
        return text


_ID_KINDS: Final = tuple(
    bytes([KINDS.index(kind)]) for kind in ("request", "response", "error", "invalid")
)


def _rows_with_ids(log: TrafficLog, start: int, stop: int) -> list[int]:
    """The rows in [start, stop) that may be a request or an answer, in order: found in the
    log's kind column at C speed (a run of a million notifications holds none)."""
    kinds = log._kind
    found: list[int] = []
    for code in _ID_KINDS:
        at = kinds.find(code, start, stop)
        while at >= 0:
            found.append(at)
            at = kinds.find(code, at + 1, stop)
    found.sort()
    return found


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _parsed(log: TrafficLog, index: int) -> Any:
    try:
        return json.loads(log.entries[index].text())
    except ValueError:
        return None


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
