"""One logical operation made of several rounds on the wire (an MRTR exchange), and its times.

Qt-free. In the modern era (protocol 2026-07-28) a tool call that needs the user is
answered `input_required`; the client asks the user, then retries the call under a new id
with `inputResponses` (and the server's `requestState`). Measured by id alone that is two
short calls; as one operation it is the whole time from the first request to the final
answer, of which the server's time is the sum of the rounds' request -> answer times and
the user's time the waits between an answer and the next round.

`operation_of` builds an `Operation` from the log rows of its rounds; `fold_stats` gives
per-method statistics that count each operation once, with its whole duration.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from inspector.traffic.log import TrafficLog
from inspector.traffic.stats import MethodStats

__all__ = [
    "Operation",
    "RetryMatcher",
    "Segment",
    "fold_stats",
    "operation_of",
    "params_of",
    "seconds_text",
]

K = TypeVar("K")

# The part of an operation a stretch of time belongs to.
SegmentKind = Literal["server", "user"]


@dataclass(frozen=True, slots=True)
class Segment:
    kind: SegmentKind
    start: float  # the log's monotonic seconds
    end: float


@dataclass(frozen=True, slots=True)
class Operation:
    """The rounds of one logical request, in order."""

    requests: tuple[int, ...]  # log indices of the rounds' requests
    answers: tuple[int, ...]  # log index of each round's answer, -1 when none (yet)
    method: str
    target: str  # the tool or prompt name, "" when the method names none
    start: float  # monotonic seconds of the first request
    end: float  # of the last answer (of the last request when it has none yet)
    server: float  # the sum of the answered rounds' request -> answer times
    user: float  # the sum of the waits between an answer and the next round
    segments: tuple[Segment, ...]
    complete: bool  # the last round is answered with a final answer
    latencies: tuple[float | None, ...] = ()  # each round's latency as the log has it

    @property
    def rounds(self) -> int:
        return len(self.requests)

    @property
    def total(self) -> float:
        return max(0.0, self.end - self.start)

    @property
    def first(self) -> int:
        return self.requests[0]

    @property
    def label(self) -> str:
        return f"{self.method} {self.target}" if self.target else self.method

    def times_text(self) -> str:
        """ "6.02 s in all: server 2.01 s, user 4.01 s" (plain text)."""
        head = f"{seconds_text(self.total)} in all" if self.complete else "not finished"
        return f"{head}: server {seconds_text(self.server)}, user {seconds_text(self.user)}"


def seconds_text(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


def params_of(value: Any) -> dict[str, Any]:
    params = value.get("params") if isinstance(value, dict) else None
    return params if isinstance(params, dict) else {}


def _parsed(log: TrafficLog, index: int) -> Any:
    try:
        return json.loads(log.entries[index].text())
    except ValueError:
        return None


def input_required(log: TrafficLog, answer: int) -> bool:
    """Is the answer at `answer` an `input_required` result?"""
    return input_required_result(log, answer) is not None


def input_required_result(log: TrafficLog, answer: int) -> dict[str, Any] | None:
    """The result of the answer at `answer` when it is `input_required` (else None); the
    text is parsed only when it mentions input_required."""
    if not mentions(log, answer, "input_required"):
        return None
    value = _parsed(log, answer)
    result = value.get("result") if isinstance(value, dict) else None
    if isinstance(result, dict) and result.get("resultType") == "input_required":
        return result
    return None


def mentions(log: TrafficLog, index: int, word: str) -> bool:
    """Does the raw text of row `index` contain `word` (cheap: no parse)?"""
    raw = log.raw_at(index)
    if isinstance(raw, bytes):
        return word.encode() in raw
    return word in raw


def operation_of(log: TrafficLog, requests: Sequence[int]) -> Operation:
    """The operation made of these rounds (request indices in log order)."""
    entries = log.entries
    answers = tuple(entries[i].pair for i in requests)
    first = requests[0]
    method = entries[first].method or "request"
    name = params_of(_parsed(log, first)).get("name")
    target = name if isinstance(name, str) and method in ("tools/call", "prompts/get") else ""
    segments: list[Segment] = []
    latencies = tuple(entries[a].latency if a >= 0 else None for a in answers)
    server = user = 0.0
    previous_end: float | None = None
    for request, answer in zip(requests, answers, strict=True):
        sent = entries[request].mono
        if previous_end is not None and sent > previous_end:
            segments.append(Segment("user", previous_end, sent))
            user += sent - previous_end
        if answer >= 0:
            got = max(sent, entries[answer].mono)
            segments.append(Segment("server", sent, got))
            server += got - sent
            previous_end = got
        else:
            previous_end = sent
    last_answer = answers[-1]
    complete = last_answer >= 0 and not input_required(log, last_answer)
    return Operation(
        requests=tuple(requests),
        answers=answers,
        method=method,
        target=target,
        start=entries[first].mono,
        end=previous_end if previous_end is not None else entries[first].mono,
        server=server,
        user=user,
        segments=tuple(segments),
        complete=complete,
        latencies=latencies,
    )


def fold_stats(stats: dict[str, MethodStats], operations: Iterable[Operation]) -> list[MethodStats]:
    """Per-method statistics, sorted by method, in which each multi-round operation counts
    once: its rounds' latencies are replaced by the operation's whole duration (when it is
    finished), and `folded` says how many wire requests were folded into operations."""
    by_method: dict[str, list[Operation]] = {}
    for operation in operations:
        by_method.setdefault(operation.method, []).append(operation)
    out: list[MethodStats] = []
    for method in sorted(stats):
        base = stats[method]
        ops = by_method.get(method)
        if not ops:
            out.append(base)
            continue
        folded = MethodStats(method)
        folded.errors = base.errors
        remove: list[float] = []
        add: list[float] = []
        extra = 0
        for op in ops:
            extra += op.rounds - 1
            remove.extend(x for x in op.latencies if x is not None)
            if op.complete:
                add.append(op.total)
        folded.count = max(0, base.count - extra)
        folded.folded = extra
        kept = _without(list(base.latencies), remove)
        folded.latencies = array("d", kept + add)
        out.append(folded)
    return out


def _without(pool: list[float], remove: list[float]) -> list[float]:
    """`pool` less one occurrence of each value of `remove` (values not found are ignored)."""
    counts: dict[float, int] = {}
    for value in remove:
        counts[value] = counts.get(value, 0) + 1
    kept: list[float] = []
    for value in pool:
        left = counts.get(value, 0)
        if left:
            counts[value] = left - 1
        else:
            kept.append(value)
    return kept


def base_params(params: dict[str, Any]) -> str:
    """A request's params less what a retry adds (`inputResponses`, `requestState`,
    `_meta`), as canonical JSON."""
    kept = {k: v for k, v in params.items() if k not in _RETRY_FIELDS}
    return json.dumps(kept, sort_keys=True, default=str)


_RETRY_FIELDS = frozenset({"inputResponses", "requestState", "_meta"})
# the rounds kept waiting for a retry: the oldest go first (a hostile or odd file full of
# input_required answers never retried costs no more than this per retry)
_MAX_WAITING = 1024


class _Waiting:
    """A round answered input_required: its method, the answer's requestState, and its
    params less the retry fields (made on first need)."""

    __slots__ = ("_base", "_params", "method", "state")

    def __init__(
        self, method: str, state: str | None, params: Callable[[], dict[str, Any]]
    ) -> None:
        self.method = method
        self.state = state
        self._params = params
        self._base: str | None = None

    def base(self) -> str:
        if self._base is None:
            self._base = base_params(self._params())
        return self._base


class RetryMatcher(Generic[K]):
    """Which earlier round a retry continues, from the frames alone (a recording has no
    core to ask). A request carrying `inputResponses` or `requestState` is a retry of an
    earlier request of the same method answered `input_required`: the one whose answer's
    `requestState` it echoes, else the one with the same params apart from the retry
    fields, else the newest such request of the same method. Keys are the caller's (a log
    index, a span index)."""

    def __init__(self) -> None:
        # key -> _Waiting of a request answered input_required and not retried yet, in the
        # order of the answers
        self._waiting: dict[K, _Waiting] = {}

    def clear(self) -> None:
        self._waiting.clear()

    def asked(
        self,
        key: K,
        method: str,
        params: Callable[[], dict[str, Any]],
        result: dict[str, Any],
    ) -> None:
        """The request `key` (of `method`; `params()` its params, read only if needed) was
        answered `result`; kept when that is `input_required`."""
        if result.get("resultType") != "input_required":
            return
        state = result.get("requestState")
        if len(self._waiting) >= _MAX_WAITING:
            del self._waiting[next(iter(self._waiting))]
        self._waiting[key] = _Waiting(method, state if isinstance(state, str) else None, params)

    def match(self, method: str, params: dict[str, Any]) -> K | None:
        """The round a request continues (and no longer waits), None for an original
        request or a retry of nothing known."""
        if "inputResponses" not in params and "requestState" not in params:
            return None
        state = params.get("requestState")
        candidates = [key for key, w in self._waiting.items() if w.method == method]
        if not candidates:
            return None
        chosen = None
        if isinstance(state, str):
            chosen = next((k for k in candidates if self._waiting[k].state == state), None)
        if chosen is None and len(candidates) > 1:
            key = base_params(params)
            chosen = next((k for k in reversed(candidates) if self._waiting[k].base() == key), None)
        if chosen is None:
            chosen = candidates[-1]
        del self._waiting[chosen]
        return chosen
