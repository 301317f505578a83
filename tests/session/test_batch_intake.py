"""Frames that arrive together (one read of a pipe: `FramesReceived`) are taken in one
wake-up, and mean exactly what they mean one by one: the same log rows with the same notes,
the same events in the same order, answers to the server's own requests sent once."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.machine.events import (
    NotificationReceived,
    ProtocolViolation,
    UnmatchedResponse,
)
from inspector.session import Session, SessionItem
from inspector.traffic.log import TrafficLog
from inspector.traffic.log_messages import LogMessageStore
from tests.helpers.fake_server import initialize_result
from tests.helpers.scripted_peer import ScriptedPeer

pytestmark = pytest.mark.timeout(20)


def log_line(i: int, level: str = "info") -> str:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": {"level": level, "data": f"line {i}"},
        }
    )


def frames_with(answer_id: int) -> list[str]:
    return [
        log_line(1),
        log_line(2, "error"),
        '{"jsonrpc":"2.0","method":"notifications/progress","params":'
        '{"progressToken":"nobody","progress":1}}',  # a violation: a note on its row
        "hello, not json",  # stdout pollution
        '{"jsonrpc":"2.0","id":77,"method":"ping"}',  # answered once
        '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}',
        '{"jsonrpc":"2.0","id":999,"result":{}}',  # never sent
        json.dumps({"jsonrpc": "2.0", "id": answer_id, "result": {"tools": []}}),
        log_line(3, "debug"),
    ]


async def run(batched: bool) -> tuple[list[Any], list[str], list[Any], list[Any], Any]:
    peer = ScriptedPeer()
    peer.on("initialize", initialize_result(), always=True)
    traffic = TrafficLog()
    messages = LogMessageStore(traffic)
    heard: list[SessionItem] = []
    quiet: list[SessionItem] = []
    changes: list[SessionItem] = []
    async with Session(peer.transport(), ClientConfig()) as session:
        session.add_traffic_observer(traffic.observe, traffic.observe_many)
        session.add_traffic_observer(messages.observe, messages.observe_many)
        session.add_listener(heard.append)
        session.add_listener(quiet.append, notifications=())
        session.add_listener(changes.append, notifications={"notifications/tools/list_changed"})
        await session.connect(timeout=5)
        call = session.start_request("tools/list", timeout=5)  # not scripted: answered below
        wire_id = session.conn.wire_id_of(call.key)
        assert isinstance(wire_id, int) and peer.link is not None
        start = len(traffic)
        if batched:
            peer.link.push_batch(list(frames_with(wire_id)))
        else:
            for raw in frames_with(wire_id):
                peer.link.push(raw)
        assert await asyncio.wait_for(call.result(), 5) == {"tools": []}
        while not peer.answers():
            await asyncio.sleep(0.01)
        rows = [
            (e.direction, e.kind, e.method, e.msg_id, e.note)
            for e in traffic.entries[start:]
            if e.direction == "in"
        ]
        levels = [traffic.entries[i].method for i in messages.rows]
        assert list(messages.levels) == [1, 4, 0] and all(
            m == "notifications/message" for m in levels
        )
        return rows, [type(h).__name__ for h in heard], quiet, changes, peer.answers()


async def test_a_batch_means_what_its_frames_mean_one_by_one() -> None:
    batched = await run(batched=True)
    single = await run(batched=False)
    assert batched[0] == single[0]  # the log's rows, notes included
    assert batched[1] == single[1]  # every listener item, in order
    rows = batched[0]
    assert rows[2][4] is not None and "nobody" in rows[2][4]  # the violation's note
    assert rows[3][1] == "invalid" and rows[3][4].startswith("stdout pollution")
    assert rows[6][4] is not None  # the unmatched response is flagged on its row
    assert [type(a).__name__ for a in batched[4]] == ["Response"]  # ping answered once
    assert batched[4][0].id == 77


async def test_listeners_hear_only_the_notifications_they_name() -> None:
    _rows, heard, quiet, changes, _answers = await run(batched=True)
    assert heard.count("NotificationReceived") == 5
    assert not any(isinstance(q, NotificationReceived) for q in quiet)
    assert any(isinstance(q, ProtocolViolation) for q in quiet)
    assert any(isinstance(q, UnmatchedResponse) for q in quiet)
    notes = [c.notification.method for c in changes if isinstance(c, NotificationReceived)]
    assert notes == ["notifications/tools/list_changed"]  # other items: all of them
    assert any(isinstance(c, UnmatchedResponse) for c in changes)
