"""Rows added to a `TrafficLog` column by column, from an index of a session file.

An opened file's frames arrive already sorted into columns (times, directions, kinds,
methods, where each text is): `extend_rows` appends a run of them to the log's columns in
a few C-level calls, pairs the requests and answers among them as `observe` does, and
tells the log's listeners once. The log's raw column must already hold the run's texts
(the file-backed column is filled by its owner). `span_counts` answers the timeline's
questions over a range of rows without a view per row.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from typing import Final

from inspector.protocol.wire.jsonrpc import RequestId
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import DIRECTIONS, KINDS, Direction, EntryKind

__all__ = ["extend_rows", "first_at_or_after", "in_time_order", "kind_count", "span_counts"]

_REQUEST: Final = KINDS.index("request")
_RESPONSE: Final = KINDS.index("response")
_ERROR: Final = KINDS.index("error")
_INVALID: Final = KINDS.index("invalid")
_OUT: Final = DIRECTIONS.index("out")
_IN: Final = DIRECTIONS.index("in")
_NO_ID: Final = -(2**63)
_OTHER_ID: Final = -(2**63) + 1


def extend_rows(
    log: TrafficLog,
    *,
    mono: array[float],
    wall: array[float],
    size: array[int],
    methods: array[int],
    kinds: bytes,
    dirs: bytes,
    ids: Sequence[tuple[int, RequestId]],
) -> None:
    """Append len(mono) rows. `methods`: codes from `log.method_code`; `ids`: (row in the
    run, id) of the rows that have one, in order."""
    n = len(mono)
    first = len(log._mono)
    assert len(log._raw) == first + n, "the raw column takes the run's texts first"
    log._mono.extend(mono)
    log._wall.extend(wall)
    log._size.extend(size)
    log._latency.extend(array("d", [math.nan]) * n)
    log._pairs.extend(array("q", [-1]) * n)
    log._method.extend(methods)
    log._kind.extend(kinds)
    log._dir.extend(dirs)
    log._flags.extend(bytes(n))
    log._id.extend(array("q", [_NO_ID]) * n)
    for i, msg_id in ids:
        index = first + i
        if type(msg_id) is int and _OTHER_ID < msg_id < 2**63:
            log._id[index] = msg_id
        else:
            log._id[index] = _OTHER_ID
            log._other_ids[index] = msg_id
        _pair(log, index, kinds[i], DIRECTIONS[dirs[i]], msg_id)
    log._grown.emit()


def _pair(log: TrafficLog, index: int, kind: int, direction: Direction, msg_id: RequestId) -> None:
    """`TrafficLog._pair_up` for a row known by its columns (a request or a response)."""
    if kind == _REQUEST:
        method = log._method_names[log._method[index]]
        if method is not None:
            log.open_request(index, direction, msg_id, method)
        else:
            log._open[(direction, msg_id)] = index
    elif kind == _RESPONSE:
        log.answer_request(index, direction, msg_id)


def span_counts(log: TrafficLog, start: int, stop: int) -> tuple[int, int, int]:
    """(sent, received, problems) among rows [start, stop): C-level counts of columns."""
    sent = log._dir.count(_OUT, start, stop)
    received = log._dir.count(_IN, start, stop)
    problems = log._kind.count(_ERROR, start, stop) + log._kind.count(_INVALID, start, stop)
    return sent, received, problems


def in_time_order(log: TrafficLog) -> bool:
    """Are the rows' monotonic times non-decreasing? (sorting sorted data is O(n))"""
    return array("d", sorted(log._mono)) == log._mono


def first_at_or_after(log: TrafficLog, mono: float) -> int:
    """The first row at or after time `mono` (rows in time order)."""
    return bisect_left(log._mono, mono)


def kind_count(log: TrafficLog, kind: EntryKind) -> int:
    return log._kind.count(KINDS.index(kind))
