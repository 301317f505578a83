"""HTTP 404 for a session that existed (the server restarted): the app's session starts a
new one by itself, once (spec: a new initialize without a session id), sends the waiting
list again, says so in the log, and does not loop when the server refuses the new session
too. (With a real restarting server: tests/session/test_session_replay_after_404.py.)"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest

from inspector.session import ConnectionClosed, SessionError

pytestmark = pytest.mark.timeout(30)


async def until(predicate: Any, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "condition not met"
        await asyncio.sleep(0.02)


async def test_a_restarted_server_gets_one_new_session(connect_scenario: Any) -> None:
    """The list that met the 404 is sent again in the new session: its caller gets it."""
    conn = await connect_scenario("restart", query=f"?run={uuid.uuid4().hex}")
    conn.session.auto_reinitialize = True
    tools = await conn.session.client.list_tools()
    assert [t["name"] for t in tools] == ["echo"]
    notes = conn.notes()
    assert any("re-initializing once" in n for n in notes), notes
    assert any("sent tools/list again in the new session" in n for n in notes), notes


async def test_a_server_that_forgets_every_session_is_not_reinitialized_in_a_loop(
    connect_scenario: Any,
) -> None:
    conn = await connect_scenario("gone")
    conn.session.auto_reinitialize = True

    def initializes() -> int:
        return sum(1 for r in conn.records if r.direction == "out" and '"initialize"' in str(r.raw))

    with pytest.raises(ConnectionClosed, match="session expired"):
        await conn.session.client.list_tools()  # 404, new session, sent again, 404 again
    await asyncio.sleep(0.2)  # not a wait: a loop of re-initializing would show by now
    assert initializes() == 2
    notes = conn.notes()
    assert sum("re-initializing once" in n for n in notes) == 1, notes
    assert any("not re-initializing again" in n for n in notes), notes
    with pytest.raises(SessionError, match="closed: session expired"):  # reconnect
        await conn.session.client.list_tools()
    assert initializes() == 2
