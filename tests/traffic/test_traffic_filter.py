"""TrafficLog filters and the per-method summary (Qt-free)."""

from __future__ import annotations

import json
import time

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord, kind_of


def feed(log: TrafficLog, direction: str, message: object, mono: float = 0.0) -> None:
    raw = message if isinstance(message, str | bytes) else json.dumps(message)
    frame = parse_frame(raw)
    log.observe(
        TrafficRecord(direction, kind_of(frame), raw, mono, time.time(), "stdio", frame)  # type: ignore[arg-type]
    )


def sample_log() -> TrafficLog:
    log = TrafficLog()
    feed(log, "out", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, 0.0)
    feed(log, "in", {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}, 0.010)
    feed(log, "out", {"jsonrpc": "2.0", "id": 2, "method": "ping"}, 0.02)
    feed(log, "in", {"jsonrpc": "2.0", "id": 2, "result": {}}, 0.03)
    feed(
        log,
        "in",
        {"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "Hello World"}},
    )
    feed(log, "in", {"jsonrpc": "2.0", "method": "notifications/progress", "params": {}})
    feed(log, "in", b"\xff\xfe not utf-8 Hello")
    feed(log, "out", {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "x"}})
    feed(log, "in", {"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "nope"}}, 1)
    return log


def test_filters_by_each_field() -> None:
    log = sample_log()
    assert len(log) == 9
    assert log.filter_indices(TrafficFilter()) == list(range(9))
    assert log.filter_indices(TrafficFilter(directions=frozenset({"out"}))) == [0, 2, 7]
    assert log.filter_indices(TrafficFilter(kinds=frozenset({"invalid", "error"}))) == [6, 8]
    # Responses take their request's method, so a method filter shows both halves.
    assert log.filter_indices(TrafficFilter(method="TOOLS/")) == [0, 1, 7, 8]
    assert log.filter_indices(TrafficFilter(hide_noise=True)) == [0, 1, 4, 6, 7, 8]
    # Smart case: lower case ignores case; mixed case is exact. Bytes are searched too.
    assert log.filter_indices(TrafficFilter(text="hello")) == [4, 6]
    assert log.filter_indices(TrafficFilter(text="Hello World")) == [4]
    assert log.filter_indices(TrafficFilter(text="HELLO")) == []
    combined = TrafficFilter(directions=frozenset({"in"}), method="tools", text="nope")
    assert log.filter_indices(combined) == [8]
    assert combined.matches(log[8]) and not combined.matches(log[1])
    assert log.filter_indices(TrafficFilter(text="hello"), start=5) == [6]
    assert not TrafficFilter().active and TrafficFilter(hide_noise=True).active


def test_methods_are_interned_and_listed() -> None:
    log = sample_log()
    assert log.methods == [
        "notifications/message",
        "notifications/progress",
        "ping",
        "tools/call",
        "tools/list",
    ]
    feed(log, "out", {"jsonrpc": "2.0", "id": 9, "method": "tools/list"})
    assert log[9].method is log[0].method


def test_stats_summary() -> None:
    log = sample_log()
    stats = log.stats["tools/list"]
    assert stats.count == 1 and stats.errors == 0
    p50, p95, worst = stats.summary()
    assert p50 == p95 == worst == 0.010
    call = log.stats["tools/call"]
    assert call.errors == 1 and call.summary()[2] == 1.0


def test_smart_case_prefilter_keeps_every_case_insensitive_hit() -> None:
    log = TrafficLog()
    for text in ("Line 42 of", "LINE 42 OF", "line 42 of", "line 43 of", "line42 of"):
        feed(
            log,
            "in",
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": text}},
        )
    assert log.filter_indices(TrafficFilter(text="line 42 of")) == [0, 1, 2]
    assert log.filter_indices(TrafficFilter(text="line")) == [0, 1, 2, 3, 4]
    assert log.filter_indices(TrafficFilter(text="Line 42")) == [0]
