"""The traffic log: a Qt-free store of every frame in and out, paired by id.

It must hold a million messages, so a row keeps the raw text and a few small
fields only, stored column by column; the parsed message is thrown away and
re-parsed when a row is viewed. Pairing and per-method statistics are updated
as entries arrive.
"""

from __future__ import annotations

import json
import math
import sys
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, cast, overload

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.protocol.wire.jsonrpc import (
    ErrorResponse,
    Invalid,
    Notification,
    ParsedFrame,
    Request,
    RequestId,
    Response,
    parse_frame,
)
from inspector.traffic.filter import TrafficFilter, caseless_key, text_hit
from inspector.traffic.raw_column import RawColumn
from inspector.traffic.record import (
    DIRECTIONS,
    KINDS,
    OPPOSITE,
    Direction,
    EntryKind,
    TrafficRecord,
)
from inspector.traffic.stats import MethodStats
from inspector.transports.base import HttpExchange

__all__ = ["RawColumn", "TrafficEntry", "TrafficLog"]

_NO_ID: Final = -(2**63)  # msg_id column: no id
_OTHER_ID: Final = -(2**63) + 1  # msg_id column: see the sparse map (strings, huge ints)
_NAN: Final = math.nan
_DIRECTIONS: Final[tuple[Direction, ...]] = DIRECTIONS
_DIRECTION_CODE: Final[dict[str, int]] = {d: i for i, d in enumerate(_DIRECTIONS)}
_KIND_CODE: Final[dict[str, int]] = {k: i for i, k in enumerate(KINDS)}
_OUT: Final = _DIRECTION_CODE["out"]
_NOTIFICATION_KIND: Final = bytes([_KIND_CODE["notification"]])
# Prefilled column values for a run of notifications (no latency, no pair, no id).
_NAN_RUN: Final = array("d", [_NAN]) * 4096
_NO_PAIR_RUN: Final = array("q", [-1]) * 4096
_NO_ID_RUN: Final = array("q", [_NO_ID]) * 4096
_REQUEST: Final = _KIND_CODE["request"]


class TrafficEntry:
    """One row of the log: a light view onto the log's columns (made on access).

    The log stores its rows column by column (arrays of numbers, one list of raw texts),
    so a million messages cost about 70 bytes each beyond their text and hold no objects
    the cyclic garbage collector must walk: full collections stay short, the GUI never
    stalls on them. Views compare equal when they show the same row of the same log.
    """

    __slots__ = ("_log", "index")

    def __init__(self, log: TrafficLog, index: int) -> None:
        self._log = log
        self.index = index

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TrafficEntry)
            and other._log is self._log
            and other.index == self.index
        )

    def __hash__(self) -> int:
        return hash((id(self._log), self.index))

    def __repr__(self) -> str:
        return f"<TrafficEntry #{self.index} {self.direction} {self.kind} {self.method}>"

    # -- columns
    @property
    def direction(self) -> Direction:
        return _DIRECTIONS[self._log._dir[self.index]]

    @property
    def kind(self) -> EntryKind:
        return KINDS[self._log._kind[self.index]]

    @property
    def raw(self) -> str | bytes:
        return self._log._raw[self.index]

    @property
    def mono(self) -> float:
        return self._log._mono[self.index]

    @property
    def wall(self) -> float:
        return self._log._wall[self.index]

    @property
    def size(self) -> int:
        return self._log._size[self.index]

    @property
    def method(self) -> str | None:
        code = self._log._method[self.index]
        return self._log._method_names[code] if code else None

    @method.setter
    def method(self, value: str | None) -> None:
        self._log._method[self.index] = self._log._method_code(value) if value else 0

    @property
    def msg_id(self) -> RequestId | None:
        return self._log._id_at(self.index)

    @property
    def pair(self) -> int:
        return self._log._pairs[self.index]

    @pair.setter
    def pair(self, value: int) -> None:
        self._log._pairs[self.index] = value

    @property
    def latency(self) -> float | None:
        value = self._log._latency[self.index]
        return None if value != value else value  # NaN: no latency

    @latency.setter
    def latency(self, value: float | None) -> None:
        self._log._latency[self.index] = _NAN if value is None else value

    @property
    def note(self) -> str | None:
        return self._log._notes.get(self.index)

    @note.setter
    def note(self, value: str | None) -> None:
        if value is None:
            self._log._notes.pop(self.index, None)
        else:
            self._log._notes[self.index] = value

    @property
    def truncated(self) -> bool:
        return bool(self._log._flags[self.index] & 1)

    @truncated.setter
    def truncated(self, value: bool) -> None:
        flags = self._log._flags
        flags[self.index] = (flags[self.index] | 1) if value else (flags[self.index] & ~1)

    @property
    def extra(self) -> dict[str, Any] | None:
        """Rare per-entry facts (http exchange, error code, sse id)."""
        return self._log._extras.get(self.index)

    @extra.setter
    def extra(self, value: dict[str, Any] | None) -> None:
        if value is None:
            self._log._extras.pop(self.index, None)
        else:
            self._log._extras[self.index] = value

    # -- views of the raw text
    def parse(self) -> ParsedFrame:
        """Re-parse the raw text (done lazily, when the row is viewed)."""
        return parse_frame(self.raw)

    def pretty(self) -> str:
        raw = self.raw
        if isinstance(raw, bytes):
            return raw.decode("utf-8", errors="replace")
        try:
            return json.dumps(json.loads(raw), indent=2, ensure_ascii=False)
        except ValueError:
            return raw

    def text(self) -> str:
        raw = self.raw
        return raw if isinstance(raw, str) else raw.decode("utf-8", "replace")

    @property
    def error_code(self) -> int | None:
        extra = self.extra
        return extra.get("error_code") if extra else None

    @property
    def http(self) -> HttpExchange | None:
        extra = self.extra
        return extra.get("http") if extra else None


class _Entries(Sequence[TrafficEntry]):
    """`TrafficLog.entries`: a read-only sequence of row views."""

    __slots__ = ("_log",)

    def __init__(self, log: TrafficLog) -> None:
        self._log = log

    def __len__(self) -> int:
        return len(self._log._raw)

    @overload
    def __getitem__(self, index: int) -> TrafficEntry: ...
    @overload
    def __getitem__(self, index: slice) -> list[TrafficEntry]: ...
    def __getitem__(self, index: int | slice) -> TrafficEntry | list[TrafficEntry]:
        n = len(self._log._raw)
        if isinstance(index, slice):
            return [TrafficEntry(self._log, i) for i in range(*index.indices(n))]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("traffic entry index out of range")
        return TrafficEntry(self._log, index)

    def __iter__(self) -> Iterator[TrafficEntry]:
        log = self._log
        return (TrafficEntry(log, i) for i in range(len(log._raw)))


# A text filter over more candidates than this asks the raw column to find the needle
# itself (a file-backed column searches the file) rather than reading each candidate.
_FIND_ALL_FROM: Final = 20_000


class TrafficLog:
    """Append-only store; listeners hear about new entries and pairing updates.

    Rows are kept in columns (see `TrafficEntry`); `entries` is a sequence of views. The
    raw texts are in a list, or in the `raw` column given (composed, e.g. file-backed).
    """

    def __init__(self, raw: RawColumn | None = None) -> None:
        self.entries: Sequence[TrafficEntry] = _Entries(self)
        self.stats: dict[str, MethodStats] = {}
        # Typed as the list it usually is; a RawColumn answers the same calls.
        self._raw: list[str | bytes] = [] if raw is None else cast("list[str | bytes]", raw)
        self._column: RawColumn | None = raw
        self._mono = array("d")
        self._wall = array("d")
        self._size = array("q")
        self._latency = array("d")
        self._pairs = array("q")
        self._method = array("I")  # 0: no method; else an index into _method_names
        self._kind = bytearray()
        self._dir = bytearray()
        self._flags = bytearray()  # bit 0: truncated
        self._id = array("q")
        self._other_ids: dict[int, RequestId] = {}  # string ids (and ints beyond 64 bits)
        self._notes: dict[int, str] = {}
        self._extras: dict[int, dict[str, Any]] = {}
        # Every method seen, interned, and its code in the _method column.
        self._method_names: list[str | None] = [None]
        self._method_codes: dict[str, int] = {}
        # (direction of the request, id) -> index of the still-open request entry
        self._open: dict[tuple[Direction, RequestId], int] = {}
        self._grown: Listeners[[]] = Listeners("traffic log listener")
        self._appended: Listeners[[TrafficEntry]] = Listeners("traffic log listener")
        self._paired: Listeners[[TrafficEntry, TrafficEntry]] = Listeners("traffic log listener")
        self._cleared: Listeners[[]] = Listeners("traffic log listener")
        self.started_mono = time.monotonic()

    def __len__(self) -> int:
        return len(self._raw)

    def __iter__(self) -> Iterator[TrafficEntry]:
        return iter(self.entries)

    def __getitem__(self, index: int) -> TrafficEntry:
        return self.entries[index]

    def on_append(self, listener: Callable[[TrafficEntry], None]) -> Unsubscribe:
        return self._appended.add(listener)

    def on_grow(self, listener: Callable[[], None]) -> Unsubscribe:
        """Like `on_append`, without making a view per entry (for batching adapters)."""
        return self._grown.add(listener)

    def on_pair(self, listener: Callable[[TrafficEntry, TrafficEntry], None]) -> Unsubscribe:
        return self._paired.add(listener)

    def on_clear(self, listener: Callable[[], None]) -> Unsubscribe:
        return self._cleared.add(listener)

    @property
    def methods(self) -> list[str]:
        """Every method seen so far, sorted (for method pickers)."""
        return sorted(self._method_codes)

    def method_code(self, method: str) -> int:
        """The code of `method` in the method column (for rows added column by column)."""
        return self._method_code(method)

    def _method_code(self, method: str) -> int:
        code = self._method_codes.get(method)
        if code is None:
            code = self._method_codes[method] = len(self._method_names)
            self._method_names.append(sys.intern(method))
        return code

    def _id_at(self, index: int) -> RequestId | None:
        value = self._id[index]
        if value == _NO_ID:
            return None
        if value == _OTHER_ID:
            return self._other_ids[index]
        return value

    def clear(self) -> None:
        for column in (
            self._raw,
            self._mono,
            self._wall,
            self._size,
            self._latency,
            self._pairs,
            self._method,
            self._kind,
            self._dir,
            self._flags,
            self._id,
        ):
            del column[:]
        for sparse in (self._other_ids, self._notes, self._extras):
            sparse.clear()
        self.stats.clear()
        self._open.clear()
        self._cleared.emit()

    # The session calls this for every frame (it is a TrafficObserver).
    def observe(self, record: TrafficRecord) -> TrafficEntry:
        frame = record.frame
        method: str | None = None
        msg_id: RequestId | None = None
        if type(frame) is Notification:  # the common frame first
            method = frame.method
        elif type(frame) is Request:
            method, msg_id = frame.method, frame.id
        elif isinstance(frame, Response | ErrorResponse | Invalid):
            msg_id = frame.id
        index = len(self._raw)
        raw = record.raw
        self._raw.append(raw)
        self._mono.append(record.mono)
        self._wall.append(record.wall)
        self._size.append(record.size or len(raw))
        self._latency.append(_NAN)
        self._pairs.append(-1)
        if method is None:
            self._method.append(0)
        else:
            code = self._method_codes.get(method)
            self._method.append(self._method_code(method) if code is None else code)
        self._kind.append(_KIND_CODE[record.kind])
        self._dir.append(_DIRECTION_CODE[record.direction])
        self._flags.append(1 if record.truncated else 0)
        if msg_id is None:
            self._id.append(_NO_ID)
        elif type(msg_id) is int and _OTHER_ID < msg_id < 2**63:
            self._id.append(msg_id)
        else:
            self._id.append(_OTHER_ID)
            self._other_ids[index] = msg_id
        if record.note:
            self._notes[index] = record.note
        if record.http is not None or record.sse_event_id is not None:
            self._extras[index] = {"http": record.http, "sse_event_id": record.sse_event_id}
        partner = -1
        if frame is not None and type(frame) is not Notification:
            if isinstance(frame, ErrorResponse):
                self._extras.setdefault(index, {})["error_code"] = frame.code
            partner = self._pair_up(index, frame, msg_id, record.direction)
        self._grown.emit()
        entry = TrafficEntry(self, index)
        if self._appended:
            self._appended.emit(entry)
        if partner >= 0 and self._paired:
            self._paired.emit(TrafficEntry(self, partner), entry)
        return entry

    def observe_many(self, records: Sequence[TrafficRecord]) -> None:
        """`observe` for records that arrived together, in order (the session's batch
        form). Runs of plain received notifications are stored column by column in a few
        C-level calls; `on_grow` listeners hear once per run. Other records (answers to
        pair, notes, HTTP) go through `observe` one by one."""
        if self._appended or self._paired:  # per-entry listeners: one by one
            for record in records:
                self.observe(record)
            return
        run: list[TrafficRecord] = []
        for record in records:
            frame = record.frame
            if (
                type(frame) is Notification
                and not record.note
                and not record.truncated
                and record.http is None
                and record.sse_event_id is None
            ):
                run.append(record)
                continue
            if run:
                self._append_notifications(run)
                run = []
            self.observe(record)
        if run:
            self._append_notifications(run)

    def _append_notifications(self, run: list[TrafficRecord]) -> None:
        n = len(run)
        codes = self._method_codes
        methods = [r.frame.method for r in run]  # type: ignore[union-attr]  # Notifications
        self._raw.extend([r.raw for r in run])
        self._mono.extend([r.mono for r in run])
        self._wall.extend([r.wall for r in run])
        self._size.extend([r.size or len(r.raw) for r in run])
        if n > len(_NAN_RUN):
            self._latency.extend(array("d", [_NAN]) * n)
            self._pairs.extend(array("q", [-1]) * n)
            self._id.extend(array("q", [_NO_ID]) * n)
        else:
            self._latency.extend(_NAN_RUN[:n])
            self._pairs.extend(_NO_PAIR_RUN[:n])
            self._id.extend(_NO_ID_RUN[:n])
        self._method.extend(
            [code if (code := codes.get(m)) is not None else self._method_code(m) for m in methods]
        )
        self._kind.extend(_NOTIFICATION_KIND * n)
        self._dir.extend([_DIRECTION_CODE[r.direction] for r in run])
        self._flags.extend(bytes(n))
        self._grown.emit()

    def _pair_up(
        self, index: int, frame: ParsedFrame, msg_id: RequestId | None, direction: Direction
    ) -> int:
        """Pair a response with its request; returns the request's index, or -1."""
        if isinstance(frame, Request):
            self.open_request(index, direction, frame.id, frame.method)
            return -1
        # A malformed frame with an id answers a request only if it looks like a response
        # (no "method"): a malformed *request* from the peer may reuse one of our ids.
        is_answer = isinstance(frame, Response | ErrorResponse) or (
            isinstance(frame, Invalid)
            and frame.id is not None
            and isinstance(frame.value, dict)
            and "method" not in frame.value
        )
        if not is_answer or msg_id is None:
            return -1
        return self.answer_request(index, direction, msg_id)

    def open_request(self, index: int, direction: Direction, key: RequestId, method: str) -> None:
        """Row `index` is request `key`, its answer to pair with (counted in the statistics)."""
        self._open[(direction, key)] = index
        self._stats_for(method).count += 1

    def answer_request(self, index: int, direction: Direction, msg_id: RequestId) -> int:
        """Row `index` answers the open request `msg_id` sent the other way: pair them, give
        the answer its method and latency, count it; the request's index, or -1."""
        idx = self._open.pop((OPPOSITE[direction], msg_id), None)
        if idx is None:
            return -1
        self._pairs[idx] = index
        self._pairs[index] = idx
        code = self._method[idx]
        self._method[index] = code
        latency = self._mono[index] - self._mono[idx]
        self._latency[index] = latency
        method = self._method_names[code]
        if method is not None:
            stats = self._stats_for(method)
            stats.latencies.append(latency)
            if self._kind[index] != _KIND_CODE["response"]:
                stats.errors += 1
        return idx

    def _stats_for(self, method: str) -> MethodStats:
        stats = self.stats.get(method)
        if stats is None:
            stats = self.stats[method] = MethodStats(method)
        return stats

    def is_outgoing_request(self, index: int) -> bool:
        """Is row `index` a request we sent? (cheap: for listeners called per row)"""
        return self._dir[index] == _OUT and self._kind[index] == _REQUEST

    def raw_at(self, index: int) -> str | bytes:
        """Row `index`'s frame as received or sent, without making a view (cheap)."""
        return self._raw[index]

    def pair_index(self, index: int) -> int:
        """The index of row `index`'s partner (request <-> answer), -1 when none (cheap)."""
        return self._pairs[index]

    def pair_of(self, entry: TrafficEntry) -> TrafficEntry | None:
        pair = self._pairs[entry.index]
        return TrafficEntry(self, pair) if pair >= 0 else None

    # ---------------------------------------------------------------- fast reads
    def row(self, index: int) -> tuple[Direction, EntryKind, str | None, float, int, float | None]:
        """(direction, kind, method, wall, size, latency) of a row, without making a view."""
        code = self._method[index]
        latency = self._latency[index]
        return (
            _DIRECTIONS[self._dir[index]],
            KINDS[self._kind[index]],
            self._method_names[code] if code else None,
            self._wall[index],
            self._size[index],
            None if latency != latency else latency,
        )

    # ---------------------------------------------------------------- filters
    def filter_indices(
        self, flt: TrafficFilter, start: int = 0, stop: int | None = None
    ) -> list[int]:
        """Indices of the entries in [start, stop) that pass `flt`.

        One cheap pass per active field over the columns, each over the survivors of the
        previous one: a million rows take tens of milliseconds per field.
        """
        n = len(self._raw)
        stop = n if stop is None else min(stop, n)
        cand: list[int] | None = None

        def narrow(column: array[int] | bytearray, wanted: set[int]) -> list[int]:
            if cand is None:
                span = column if start == 0 and stop == len(column) else column[start:stop]
                return [i for i, c in enumerate(span, start) if c in wanted]
            return [i for i in cand if column[i] in wanted]

        if flt.directions is not None:
            cand = narrow(self._dir, {_DIRECTION_CODE[d] for d in flt.directions})
        if flt.kinds is not None:
            cand = narrow(self._kind, {_KIND_CODE[k] for k in flt.kinds if k in _KIND_CODE})
        excluded = flt.excluded()
        if excluded:
            codes = {c for m, c in self._method_codes.items() if m in excluded}
            if codes:
                keep = set(range(len(self._method_names))) - codes
                cand = narrow(self._method, keep)
        if flt.method:
            needle = flt.method.lower()
            cand = narrow(
                self._method, {c for m, c in self._method_codes.items() if needle in m.lower()}
            )
        if flt.text:
            cand = self._text_stage(flt.text, cand, start, stop)
        return list(range(start, stop)) if cand is None else cand

    def _text_stage(self, needle: str, cand: list[int] | None, start: int, stop: int) -> list[int]:
        raws = self._raw
        hit = text_hit(needle)
        column = self._column
        if column is not None:
            if cand is not None and len(cand) < _FIND_ALL_FROM:
                return [i for i in cand if hit(raws[i])]
            found = column.find_rows(needle, start, stop)
            if cand is None:
                return found
            wanted = set(found)
            return [i for i in cand if i in wanted]
        if cand is not None:
            return [i for i in cand if hit(raws[i])]
        span = raws if start == 0 and stop == len(raws) else raws[start:stop]
        if needle != needle.lower():  # exact case: a plain substring test per row
            return [
                i
                for i, r in enumerate(span, start)
                if (needle in r if r.__class__ is str else hit(r))
            ]
        # Ignoring case needs a lower-cased copy of each row, which is slow over a million
        # rows. A row can only match if it holds the needle's caseless part (digits,
        # punctuation, spaces) as is: test that first, then lower-case the few survivors.
        key = caseless_key(needle)
        if key:
            return [
                i
                for i, r in enumerate(span, start)
                if (key in r if r.__class__ is str else True) and hit(r)
            ]
        return [
            i
            for i, r in enumerate(span, start)
            if (needle in r.lower() if r.__class__ is str else hit(r))
        ]
