"""The traffic log: a Qt-free store of every frame in and out, paired by id.

It must hold a million messages, so an entry keeps the raw text and a few small
fields only; the parsed message is thrown away and re-parsed when a row is
viewed. Pairing and per-method statistics are updated as entries arrive.
"""

from __future__ import annotations

import json
import sys
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

from inspector.jsonrpc import (
    ErrorResponse,
    Invalid,
    Notification,
    ParsedFrame,
    Request,
    RequestId,
    Response,
    parse_frame,
)
from inspector.transports.base import HttpExchange

__all__ = [
    "Direction",
    "EntryKind",
    "MethodStats",
    "TrafficEntry",
    "TrafficFilter",
    "TrafficLog",
    "TrafficObserver",
    "TrafficRecord",
    "kind_of",
]

Direction: TypeAlias = Literal["out", "in", ""]
EntryKind: TypeAlias = Literal[
    "request", "response", "error", "notification", "invalid", "stderr", "http", "note"
]

KINDS: Final[tuple[EntryKind, ...]] = (
    "request",
    "response",
    "error",
    "notification",
    "invalid",
    "stderr",
    "http",
    "note",
)


def kind_of(frame: ParsedFrame) -> EntryKind:
    if isinstance(frame, Request):
        return "request"
    if isinstance(frame, Notification):
        return "notification"
    if isinstance(frame, Response):
        return "response"
    if isinstance(frame, ErrorResponse):
        return "error"
    return "invalid"


@dataclass(slots=True)
class TrafficRecord:
    """What the session reports to traffic observers for every frame, valid or not."""

    direction: Direction
    kind: EntryKind
    raw: str | bytes
    mono: float
    wall: float
    transport: str
    frame: ParsedFrame | None = None
    size: int = 0
    truncated: bool = False
    note: str | None = None  # e.g. "stdout pollution", the invalid reason
    http: HttpExchange | None = None
    sse_event_id: str | None = None


# Observers may return something (TrafficLog.observe returns the new entry); it is ignored.
TrafficObserver: TypeAlias = Callable[[TrafficRecord], object]


class TrafficEntry:
    """One row of the log. Slots keep it to a little over 100 bytes beyond the raw text."""

    __slots__ = (
        "direction",
        "extra",
        "index",
        "kind",
        "latency",
        "method",
        "mono",
        "msg_id",
        "note",
        "pair",
        "raw",
        "size",
        "truncated",
        "wall",
    )

    def __init__(
        self,
        index: int,
        direction: Direction,
        kind: EntryKind,
        raw: str | bytes,
        mono: float,
        wall: float,
        method: str | None,
        msg_id: RequestId | None,
        size: int,
    ) -> None:
        self.index = index
        self.direction = direction
        self.kind = kind
        self.raw = raw
        self.mono = mono
        self.wall = wall
        self.method = method
        self.msg_id = msg_id
        self.size = size
        self.pair = -1
        self.latency: float | None = None
        self.note: str | None = None
        self.truncated = False
        # Rare per-entry facts (http exchange, error code, sse id) live here.
        self.extra: dict[str, Any] | None = None

    def parse(self) -> ParsedFrame:
        """Re-parse the raw text (done lazily, when the row is viewed)."""
        return parse_frame(self.raw)

    def pretty(self) -> str:
        if isinstance(self.raw, bytes):
            return self.raw.decode("utf-8", errors="replace")
        try:
            return json.dumps(json.loads(self.raw), indent=2, ensure_ascii=False)
        except ValueError:
            return self.raw

    def text(self) -> str:
        return self.raw if isinstance(self.raw, str) else self.raw.decode("utf-8", "replace")

    @property
    def error_code(self) -> int | None:
        return self.extra.get("error_code") if self.extra else None

    @property
    def http(self) -> HttpExchange | None:
        return self.extra.get("http") if self.extra else None


class MethodStats:
    __slots__ = ("count", "errors", "latencies", "method")

    def __init__(self, method: str) -> None:
        self.method = method
        self.count = 0
        self.errors = 0
        self.latencies = array("d")

    def percentile(self, q: float) -> float | None:
        if not self.latencies:
            return None
        ordered = sorted(self.latencies)
        idx = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
        return ordered[idx]

    @property
    def max_latency(self) -> float | None:
        return max(self.latencies) if self.latencies else None

    def summary(self) -> tuple[float | None, float | None, float | None]:
        """(p50, p95, max) with one sort, for panels that refresh often."""
        if not self.latencies:
            return None, None, None
        ordered = sorted(self.latencies)
        last = len(ordered) - 1

        def pick(q: float) -> float:
            return ordered[min(last, max(0, round(q / 100 * last)))]

        return pick(50), pick(95), ordered[-1]


# Noise a user usually hides: keep-alives and progress (and the answers to pings).
NOISE_METHODS: Final = frozenset({"ping", "notifications/progress"})


@dataclass(frozen=True, slots=True)
class TrafficFilter:
    """What the log view shows. Empty fields match everything.

    `method` is a case-insensitive substring of the method; `text` a substring of the raw
    text, case-insensitive when it is all lower case ("smart case", as in ripgrep).
    """

    directions: frozenset[str] | None = None
    kinds: frozenset[str] | None = None
    method: str = ""
    text: str = ""
    hide_noise: bool = False
    exclude_methods: frozenset[str] = field(default_factory=frozenset)

    @property
    def active(self) -> bool:
        return bool(
            self.directions is not None
            or self.kinds is not None
            or self.method
            or self.text
            or self.hide_noise
            or self.exclude_methods
        )

    def matches(self, entry: TrafficEntry) -> bool:
        return bool(self._narrow([entry], None, 0))

    def _narrow(
        self, entries: list[TrafficEntry], candidates: list[int] | None, start: int
    ) -> list[int]:
        """Indices (into `entries`, offset by `start`) that pass, one cheap pass per field.

        Each stage is a plain comprehension over the survivors of the previous one: a
        million rows take tens of milliseconds per stage.
        """
        es = entries
        cand = candidates

        def stage(test: Callable[[TrafficEntry], bool]) -> list[int]:
            if cand is None:
                return [i for i, e in enumerate(es, start) if test(e)]
            return [i for i in cand if test(es[i - start])]

        if self.directions is not None:
            dirs = self.directions
            cand = (
                [i for i, e in enumerate(es, start) if e.direction in dirs]
                if cand is None
                else [i for i in cand if es[i - start].direction in dirs]
            )
        if self.kinds is not None:
            kinds = self.kinds
            cand = (
                [i for i, e in enumerate(es, start) if e.kind in kinds]
                if cand is None
                else [i for i in cand if es[i - start].kind in kinds]
            )
        excluded = set(self.exclude_methods)
        if self.hide_noise:
            excluded |= NOISE_METHODS
        if excluded:
            cand = (
                [i for i, e in enumerate(es, start) if e.method not in excluded]
                if cand is None
                else [i for i in cand if es[i - start].method not in excluded]
            )
        if self.method:
            needle = self.method.lower()
            cand = stage(lambda e: e.method is not None and needle in e.method.lower())
        if self.text:
            cand = self._text_stage(es, cand, start)
        return list(range(start, start + len(es))) if cand is None else cand

    def _text_stage(self, es: list[TrafficEntry], cand: list[int] | None, start: int) -> list[int]:
        needle = self.text
        fold = needle == needle.lower()
        needle_b = needle.encode("utf-8", "replace")

        def hit(e: TrafficEntry) -> bool:
            raw = e.raw
            if isinstance(raw, str):
                return needle in (raw.lower() if fold else raw)
            return needle_b in (raw.lower() if fold else raw)

        if cand is None:
            if fold:
                return [
                    i
                    for i, e in enumerate(es, start)
                    if (needle in e.raw.lower() if e.raw.__class__ is str else hit(e))
                ]
            return [
                i
                for i, e in enumerate(es, start)
                if (needle in e.raw if e.raw.__class__ is str else hit(e))
            ]
        return [i for i in cand if hit(es[i - start])]


class TrafficLog:
    """Append-only store; listeners hear about new entries and pairing updates."""

    def __init__(self) -> None:
        self.entries: list[TrafficEntry] = []
        self.stats: dict[str, MethodStats] = {}
        # (direction of the request, id) -> index of the still-open request entry
        self._open: dict[tuple[Direction, RequestId], int] = {}
        self._append_listeners: list[Callable[[TrafficEntry], None]] = []
        self._pair_listeners: list[Callable[[TrafficEntry, TrafficEntry], None]] = []
        self._clear_listeners: list[Callable[[], None]] = []
        # Every method seen, interned: entries share one string per method.
        self._methods: dict[str, str] = {}
        self.started_mono = time.monotonic()

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[TrafficEntry]:
        return iter(self.entries)

    def __getitem__(self, index: int) -> TrafficEntry:
        return self.entries[index]

    def on_append(self, listener: Callable[[TrafficEntry], None]) -> None:
        self._append_listeners.append(listener)

    def on_pair(self, listener: Callable[[TrafficEntry, TrafficEntry], None]) -> None:
        self._pair_listeners.append(listener)

    def on_clear(self, listener: Callable[[], None]) -> None:
        self._clear_listeners.append(listener)

    @property
    def methods(self) -> list[str]:
        """Every method seen so far, sorted (for method pickers)."""
        return sorted(self._methods)

    def filter_indices(
        self, flt: TrafficFilter, start: int = 0, stop: int | None = None
    ) -> list[int]:
        """Indices of the entries in [start, stop) that pass `flt`."""
        entries = self.entries if start == 0 and stop is None else self.entries[start:stop]
        return flt._narrow(entries, None, start)

    def _intern(self, method: str) -> str:
        known = self._methods.get(method)
        if known is None:
            known = self._methods[method] = sys.intern(method)
        return known

    def clear(self) -> None:
        self.entries.clear()
        self.stats.clear()
        self._open.clear()
        for listener in self._clear_listeners:
            listener()

    # The session calls this for every frame (it is a TrafficObserver).
    def observe(self, record: TrafficRecord) -> TrafficEntry:
        frame = record.frame
        method: str | None = None
        msg_id: RequestId | None = None
        if isinstance(frame, Request):
            method, msg_id = self._intern(frame.method), frame.id
        elif isinstance(frame, Notification):
            method = self._intern(frame.method)
        elif isinstance(frame, Response | ErrorResponse | Invalid):
            msg_id = frame.id
        entry = TrafficEntry(
            len(self.entries),
            record.direction,
            record.kind,
            record.raw,
            record.mono,
            record.wall,
            method,
            msg_id,
            record.size or len(record.raw),
        )
        if record.note:
            entry.note = record.note
        if record.truncated:
            entry.truncated = True
        if record.http is not None or record.sse_event_id is not None:
            entry.extra = {"http": record.http, "sse_event_id": record.sse_event_id}
        if isinstance(frame, ErrorResponse):
            entry.extra = entry.extra or {}
            entry.extra["error_code"] = frame.code
        self.entries.append(entry)
        partner = self._pair(entry, frame)
        for listener in self._append_listeners:
            listener(entry)
        if partner is not None:
            for pair_listener in self._pair_listeners:
                pair_listener(partner, entry)
        return entry

    def _pair(self, entry: TrafficEntry, frame: ParsedFrame | None) -> TrafficEntry | None:
        if isinstance(frame, Request):
            self._open[(entry.direction, frame.id)] = entry.index
            stats = self._stats_for(frame.method)
            stats.count += 1
            return None
        # A malformed frame with an id answers a request only if it looks like a response
        # (no "method"): a malformed *request* from the peer may reuse one of our ids.
        is_answer = isinstance(frame, Response | ErrorResponse) or (
            isinstance(frame, Invalid)
            and frame.id is not None
            and isinstance(frame.value, dict)
            and "method" not in frame.value
        )
        if not is_answer or entry.msg_id is None:
            return None
        request_dir: Direction = "out" if entry.direction == "in" else "in"
        idx = self._open.pop((request_dir, entry.msg_id), None)
        if idx is None:
            return None
        request = self.entries[idx]
        request.pair = entry.index
        entry.pair = idx
        entry.method = request.method
        latency = entry.mono - request.mono
        entry.latency = latency
        if request.method is not None:
            stats = self._stats_for(request.method)
            stats.latencies.append(latency)
            if entry.kind != "response":
                stats.errors += 1
        return request

    def _stats_for(self, method: str) -> MethodStats:
        stats = self.stats.get(method)
        if stats is None:
            stats = self.stats[method] = MethodStats(method)
        return stats

    def pair_of(self, entry: TrafficEntry) -> TrafficEntry | None:
        return self.entries[entry.pair] if entry.pair >= 0 else None
