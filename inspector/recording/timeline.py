"""The numbers of a recorded session's timeline: how long it ran, what went each way,
per-method counts and latency percentiles (from `TrafficLog.stats`), an activity
histogram over time, and the multi-round-trip operations (MRTR: the rounds of one call,
with the server's time apart from the user's). A method's count and latencies count each
operation once, with its whole duration; `requests` is what went on the wire. Qt-free;
the timeline panel only shows them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Final

from inspector.recording.offline import OfflineSession
from inspector.traffic.bulk_rows import first_at_or_after, in_time_order, kind_count, span_counts
from inspector.traffic.log import TrafficLog
from inspector.traffic.operations import Operation
from inspector.traffic.stats import MethodStats

__all__ = ["MethodTimes", "Timeline", "format_duration", "local_time", "timeline_of"]

_BUCKETS: Final = 60


@dataclass(frozen=True)
class MethodTimes:
    method: str
    count: int
    errors: int
    answered: int
    p50: float | None
    p90: float | None
    p99: float | None
    max: float | None
    requests: int = 0  # requests on the wire (count + the rounds folded into operations)


@dataclass
class Timeline:
    started: str  # the header's creation time, local and readable ("" if unknown)
    duration: float  # seconds from the start of the recording to its last line
    sent: int = 0  # frames client -> server
    received: int = 0
    invalid: int = 0
    stderr_lines: int = 0
    http_exchanges: int = 0
    actions: int = 0
    methods: list[MethodTimes] = field(default_factory=list)
    bucket_seconds: float = 0.0
    sent_per_bucket: list[int] = field(default_factory=list)
    received_per_bucket: list[int] = field(default_factory=list)
    errors_per_bucket: list[int] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)  # of several rounds each

    @property
    def requests(self) -> int:
        """Requests on the wire (each round of a multi-round call counted)."""
        return sum(m.requests or m.count for m in self.methods)

    def method(self, name: str) -> MethodTimes | None:
        return next((m for m in self.methods if m.method == name), None)


def format_duration(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.2f} s"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min {secs:02d} s" if hours else f"{minutes} min {secs:02d} s"


def local_time(created: object) -> str:
    """The header's ISO creation time as local time, readable (as given if unparsable)."""
    if not isinstance(created, str):
        return ""
    try:
        when = dt.datetime.fromisoformat(created.replace("Z", "+00:00"))
    except ValueError:
        return created
    return when.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def timeline_of(offline: OfflineSession, buckets: int = _BUCKETS) -> Timeline:
    recorded = offline.recorded
    traffic = offline.traffic
    timeline = Timeline(local_time(recorded.header.get("created")), recorded.duration)
    timeline.actions = len(offline.actions)
    span = max(timeline.duration, 1e-6)
    timeline.bucket_seconds = span / buckets
    if in_time_order(traffic):
        _count_by_columns(timeline, traffic, span, buckets)
    else:
        _count_row_by_row(timeline, traffic, span, buckets)
    rounds = offline.rounds
    folded: list[MethodStats]
    if rounds is not None:
        timeline.operations = rounds.operations()
        folded = rounds.method_stats()
    else:
        folded = sorted(traffic.stats.values(), key=lambda s: s.method)
    for stats in folded:
        timeline.methods.append(
            MethodTimes(
                stats.method,
                stats.count,
                stats.errors,
                len(stats.latencies),
                stats.percentile(50),
                stats.percentile(90),
                stats.percentile(99),
                stats.max_latency,
                stats.requests,
            )
        )
    return timeline


def _count_by_columns(timeline: Timeline, traffic: TrafficLog, span: float, buckets: int) -> None:
    """The counts of rows in time order: a bucket is a range of rows (C-level counts)."""
    n = len(traffic)
    timeline.stderr_lines = kind_count(traffic, "stderr")
    timeline.http_exchanges = kind_count(traffic, "http")
    timeline.invalid = kind_count(traffic, "invalid")
    edges = [first_at_or_after(traffic, span * k / buckets) for k in range(1, buckets)]
    bounds = [0, *edges, n]
    for k in range(buckets):
        sent, received, problems = span_counts(traffic, bounds[k], bounds[k + 1])
        timeline.sent_per_bucket.append(sent)
        timeline.received_per_bucket.append(received)
        timeline.errors_per_bucket.append(problems)
    timeline.sent = sum(timeline.sent_per_bucket)
    timeline.received = sum(timeline.received_per_bucket)


def _count_row_by_row(timeline: Timeline, traffic: TrafficLog, span: float, buckets: int) -> None:
    sent = [0] * buckets
    received = [0] * buckets
    errors = [0] * buckets
    for i in range(len(traffic)):
        direction, kind, _method, _wall, _size, _latency = traffic.row(i)
        slot = min(buckets - 1, max(0, int(traffic.entries[i].mono / span * buckets)))
        if kind == "stderr":
            timeline.stderr_lines += 1
        elif kind == "http":
            timeline.http_exchanges += 1
        if direction == "out":
            timeline.sent += 1
            sent[slot] += 1
        elif direction == "in":
            timeline.received += 1
            received[slot] += 1
        if kind == "invalid":
            timeline.invalid += 1
        if kind in ("invalid", "error"):
            errors[slot] += 1
    timeline.sent_per_bucket = sent
    timeline.received_per_bucket = received
    timeline.errors_per_bucket = errors
