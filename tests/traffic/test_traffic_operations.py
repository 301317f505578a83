"""The rounds of one multi-round-trip operation (MRTR) grouped as one operation, with its
whole duration, the server's time and the user's time: live (by the core's request key)
and offline (from the recorded frames alone)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.recording.offline import load_offline
from inspector.recording.reader import read_session
from inspector.recording.timeline import timeline_of
from inspector.traffic.log import TrafficLog
from inspector.traffic.operations import Operation
from inspector.traffic.record import TrafficRecord, kind_of
from inspector.traffic.rounds import RequestRounds
from tests.helpers.mrtr_session import MRTR_FRAMES, WALL0, write_mrtr_session


def _check(ops: list[Operation]) -> None:
    assert [(op.label, op.rounds) for op in ops] == [
        ("tools/call ask_user", 3),
        ("tools/call ask_llm", 2),
    ]
    user, llm = ops
    assert user.complete and llm.complete
    assert user.total == pytest.approx(6.5)
    assert user.server == pytest.approx(1.5)
    assert user.user == pytest.approx(5.0)
    assert [s.kind for s in user.segments] == ["server", "user", "server", "user", "server"]
    assert llm.total == pytest.approx(1.5)
    assert (llm.server, llm.user) == (pytest.approx(0.5), pytest.approx(1.0))
    assert user.times_text() == "6.50 s in all: server 1.50 s, user 5.00 s"


def _live_log(key_of: dict[int, str]) -> tuple[TrafficLog, RequestRounds]:
    log = TrafficLog()
    rounds = RequestRounds(log)
    rounds.set_key_lookup(lambda wire_id: key_of.get(wire_id))  # type: ignore[arg-type]
    for t, direction, message in MRTR_FRAMES:
        raw = json.dumps(message)
        frame = parse_frame(raw)
        log.observe(
            TrafficRecord(direction, kind_of(frame), raw, t, WALL0 + t, "stdio", frame=frame)  # type: ignore[arg-type]
        )
    return log, rounds


def test_live_rounds_by_the_core_key_make_one_operation_with_its_times() -> None:
    # the core's key: the same for every round of one request, none for the echo
    log, rounds = _live_log({1: "a", 3: "a", 4: "a", 5: "b", 6: "b"})
    _check(rounds.operations())
    # the marks: rounds, and the final answer says the operation's times
    final = log.entries[7]
    assert rounds.mark(0) == "round 1/3"
    assert rounds.mark(final.index) == "round 3/3 · 6.50 s in all: server 1.50 s, user 5.00 s"
    assert rounds.mark(2) == ""  # the unrelated echo
    # statistics: one call per operation, its whole duration; the wire requests kept apart
    (calls,) = rounds.method_stats()
    assert (calls.count, calls.requests) == (3, 6)
    assert sorted(calls.latencies) == pytest.approx([0.25, 1.5, 6.5])
    # measured by id alone: six calls of at most half a second
    raw = log.stats["tools/call"]
    assert raw.count == 6 and max(raw.latencies) == pytest.approx(0.5)


def test_offline_rounds_are_grouped_from_the_frames_alone(tmp_path: Path) -> None:
    offline = load_offline(read_session(write_mrtr_session(tmp_path / "mrtr.jsonl")))
    rounds = offline.rounds
    assert rounds is not None
    _check(rounds.operations())
    assert [rounds.mark(i) for i in (0, 4, 6)] == ["round 1/3", "round 2/3", "round 3/3"]
    assert rounds.conversation(4) == [0, 1, 4, 5, 6, 7]
    # the timeline: operations, and statistics that count each one once
    timeline = timeline_of(offline)
    assert [op.label for op in timeline.operations] == ["tools/call ask_user", "tools/call ask_llm"]
    calls = timeline.method("tools/call")
    assert calls is not None and (calls.count, calls.requests) == (3, 6)
    assert calls.max == pytest.approx(6.5)


def test_a_retry_of_no_known_round_and_a_garbled_answer_stay_apart(tmp_path: Path) -> None:
    """A retry nothing was asked for starts its own (single-round) operation; an answer
    that is not JSON is no input_required; nothing raises."""
    frames = [
        (1.0, "out", {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "x", "requestState": "forged"}}),
        (1.5, "in", {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete"}}),
    ]  # fmt: skip
    log = TrafficLog()
    rounds = RequestRounds(log)
    rounds.group_by_content()
    for t, direction, message in frames:
        raw = json.dumps(message)
        frame = parse_frame(raw)
        log.observe(TrafficRecord(direction, kind_of(frame), raw, t, t, "stdio", frame=frame))  # type: ignore[arg-type]
    bad = '{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required"'
    log.observe(TrafficRecord("in", "invalid", bad, 2.0, 2.0, "stdio", frame=parse_frame(bad)))
    assert rounds.operations() == [] and rounds.mark(0) == ""


def test_hostile_retries_are_grouped_or_left_alone_without_failing() -> None:
    """Params that are not objects, inputResponses that are not maps, a requestState that
    is not a string, an input_required result that is not an object: no exception, and a
    retry still finds its round by its method when nothing else matches."""
    frames = [
        (1.0, "out", {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": "x"}),
        (1.1, "in", {"jsonrpc": "2.0", "id": 1, "result": "input_required"}),
        (1.2, "out", {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "a"}}),
        (1.3, "in", {"jsonrpc": "2.0", "id": 2,
                     "result": {"resultType": "input_required", "requestState": {"a": 1}}}),
        (2.0, "out", {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                      "params": {"name": "b", "inputResponses": 5, "requestState": [1]}}),
        (2.5, "in", {"jsonrpc": "2.0", "id": 3, "result": {"content": []}}),
    ]  # fmt: skip
    log = TrafficLog()
    rounds = RequestRounds(log)
    rounds.group_by_content()
    for t, direction, message in frames:
        raw = json.dumps(message)
        frame = parse_frame(raw)
        log.observe(TrafficRecord(direction, kind_of(frame), raw, t, t, "stdio", frame=frame))  # type: ignore[arg-type]
    (op,) = rounds.operations()
    assert op.requests == (2, 4) and op.complete
    assert op.user == pytest.approx(0.7) and op.server == pytest.approx(0.6)
