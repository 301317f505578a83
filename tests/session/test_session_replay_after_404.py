"""A real server restarts under a live session (the demo server over HTTP, stopped and
started again on the same port: it forgets its sessions and answers 404). The app's session
(auto re-initialize on) starts a new one once, sends a waiting list or read again so its
caller gets the answer, says so in the log, and fails a tool call with `NotSentAgain`
(it may have run) instead of sending it twice."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from inspector.protocol.machine.connection import ClientConfig
from inspector.session import NotSentAgain, Session
from inspector.traffic.record import TrafficRecord
from inspector.transports.http_common import HttpParams
from inspector.transports.streamable_http import StreamableHttpTransport
from tests.helpers.demo_http import RestartableDemo as Restartable
from tests.helpers.sessions import OpenSessions

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def restartable() -> Iterator[Restartable]:
    served = Restartable()
    try:
        yield served
    finally:
        served.close()


async def _open(
    sessions: OpenSessions, url: str
) -> tuple[Session, list[TrafficRecord], Callable[[], list[str]]]:
    records: list[TrafficRecord] = []
    transport = StreamableHttpTransport(HttpParams(url))
    session = await sessions.open(
        transport, ClientConfig(request_timeout=20.0), observers=(records.append,)
    )
    session.auto_reinitialize = True  # as the app does

    def notes() -> list[str]:
        return [str(r.raw) for r in records if r.kind == "note"]

    return session, records, notes


def _initializes(records: list[TrafficRecord]) -> int:
    return sum(1 for r in records if r.direction == "out" and '"method":"initialize"' in str(r.raw))


async def test_a_read_after_a_restart_is_answered_in_a_new_session(
    restartable: Restartable, sessions: OpenSessions
) -> None:
    session, records, notes = await _open(sessions, restartable.url)
    before = await session.client.read_resource("demo://readme")
    await asyncio.to_thread(restartable.restart)
    again = await session.client.read_resource("demo://readme")  # no error for the caller
    assert again["contents"] == before["contents"]
    assert _initializes(records) == 2
    log = notes()
    assert any("re-initializing once" in n for n in log), log
    assert any("sent resources/read again in the new session" in n for n in log), log
    assert session.is_ready
    tools = await session.client.list_tools()  # and the new session goes on
    assert any(t["name"] == "echo" for t in tools)


async def test_a_list_waiting_when_the_server_restarts_is_sent_again(
    restartable: Restartable, sessions: OpenSessions
) -> None:
    session, records, notes = await _open(sessions, restartable.url)
    await asyncio.to_thread(restartable.restart)
    tools = await session.client.list_tools()
    assert any(t["name"] == "echo" for t in tools)
    assert any("sent tools/list again" in n for n in notes())
    assert _initializes(records) == 2


async def test_a_tool_call_is_not_sent_twice_and_says_how_to_go_on(
    restartable: Restartable, sessions: OpenSessions
) -> None:
    session, records, notes = await _open(sessions, restartable.url)
    await asyncio.to_thread(restartable.restart)
    with pytest.raises(NotSentAgain, match=r"not sent again .*it may have run.*run it again"):
        await session.client.call_tool("echo", {"message": "once"})
    calls = [r for r in records if r.direction == "out" and '"tools/call"' in str(r.raw)]
    assert len(calls) == 1  # never re-sent by itself
    deadline = asyncio.get_running_loop().time() + 20
    while not session.is_ready:  # the new session starts anyway, for the next request
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.05)
    result: dict[str, Any] = await session.client.call_tool("echo", {"message": "twice"})
    assert result["content"][0]["text"] == "twice"  # the user's re-run works
    assert _initializes(records) == 2
    assert not any("sent tools/call again" in n for n in notes())
