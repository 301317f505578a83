"""The batch forms of the traffic observers (`observe_many`) store and write exactly what
`observe` does one record at a time: the same columns, the same pairs, the same lines."""

from __future__ import annotations

import time
from pathlib import Path

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.recording.format import header_line
from inspector.recording.writer import SessionRecorder
from inspector.traffic.log import TrafficLog
from inspector.traffic.log_messages import LogMessageStore
from inspector.traffic.record import TrafficRecord, kind_of
from inspector.transports.base import HttpExchange

RAWS = [
    '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","data":"a"}}',
    '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"LOUD","data":"é"}}',
    '{"jsonrpc":"2.0","id":1,"result":{}}',  # answers the request sent below
    '{"jsonrpc":"2.0","id":"s","error":{"code":-32601,"message":"no"}}',
    "not json",
    '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}',
    '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":1}}',
]


def records() -> list[TrafficRecord]:
    now, wall = time.monotonic(), time.time()
    out = []
    for i, raw in enumerate(RAWS):
        frame = parse_frame(raw)
        record = TrafficRecord("in", kind_of(frame), raw, now, wall, "stdio", frame, len(raw))
        if i == 4:
            record.note = "stdout pollution: not JSON"
        if i == 5:
            record.http = HttpExchange("POST", "http://x/mcp", 200)
        out.append(record)
    return out


def sent(log: TrafficLog) -> None:
    raw = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
    for rid in (1, "s"):
        text = raw.replace("1", f'"{rid}"' if isinstance(rid, str) else "1", 1)
        frame = parse_frame(text)
        log.observe(TrafficRecord("out", "request", text, 0.0, 0.0, "stdio", frame, len(text)))


def columns(log: TrafficLog) -> list[object]:
    return [
        (e.direction, e.kind, e.method, e.msg_id, e.note, e.size, e.pair, e.error_code, e.http)
        for e in log.entries
    ]


def test_the_log_and_the_notifications_store_agree_one_by_one_and_in_a_batch() -> None:
    one, many = TrafficLog(), TrafficLog()
    one_msgs, many_msgs = LogMessageStore(one), LogMessageStore(many)
    grew: list[int] = []
    many.on_grow(lambda: grew.append(len(many)))
    sent(one)
    sent(many)
    for record in records():
        one.observe(record)
        one_msgs.observe(record)
    batch = records()
    many.observe_many(batch)
    many_msgs.observe_many(batch)
    assert columns(one) == columns(many)
    assert one.stats.keys() == many.stats.keys()
    assert list(one_msgs.rows) == list(many_msgs.rows) == [2, 3, 8]
    assert list(one_msgs.levels) == list(many_msgs.levels)
    assert grew[-1] == len(many)  # listeners heard the growth, ending at the last row


def test_the_recorder_writes_the_same_lines_for_a_batch(tmp_path: Path) -> None:
    header = header_line(
        {"transport": "stdio"}, era="legacy", client_info={}, client_capabilities={}
    )
    paths = []
    batch = records()
    for name, feed in (("one", "single"), ("many", "batch")):
        path = tmp_path / f"{name}.jsonl"
        recorder = SessionRecorder(path, header, t0=0.0)
        recorder.start()
        if feed == "single":
            for record in batch:
                recorder.observe(record)
        else:
            recorder.observe_many(batch[:2])  # plain frames: formatted at once
            recorder.observe_many(batch[2:])  # with a note and an HTTP exchange
        recorder.close()
        paths.append(path)
    one, many = (p.read_text().splitlines()[1:] for p in paths)
    assert one == many and len(one) == len(RAWS)


def test_a_log_notification_the_user_sent_is_not_a_server_log_line() -> None:
    log = TrafficLog()
    messages = LogMessageStore(log)
    raw = RAWS[0]
    record = TrafficRecord("out", "notification", raw, 0.0, 0.0, "stdio", parse_frame(raw), 9)
    log.observe(record)
    messages.observe(record)
    assert len(messages) == 0
