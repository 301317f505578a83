"""HTTP 404 for a session that existed (the server restarted): the app's session starts a
new one by itself, once (spec: a new initialize without a session id), says so in the
log, and does not loop when the server refuses the new session too."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest

from inspector.session import ConnectionClosed
from tests.transports.test_http_misbehaving import connect, server

__all__ = ["connect", "server"]  # fixtures

pytestmark = pytest.mark.timeout(30)


async def until(predicate: Any, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "condition not met"
        await asyncio.sleep(0.02)


async def test_a_restarted_server_gets_one_new_session(connect: Any) -> None:
    conn = await connect("restart", query=f"?run={uuid.uuid4().hex}")
    conn.session.auto_reinitialize = True
    with pytest.raises(ConnectionClosed, match="session expired"):
        await conn.session.client.list_tools()
    await until(lambda: conn.session.is_ready)
    assert any("re-initializing once" in n for n in conn.notes())
    tools = await conn.session.client.list_tools()
    assert [t["name"] for t in tools] == ["echo"]


async def test_a_server_that_forgets_every_session_is_not_reinitialized_in_a_loop(
    connect: Any,
) -> None:
    conn = await connect("gone")
    conn.session.auto_reinitialize = True

    def initializes() -> int:
        return sum(1 for r in conn.records if r.direction == "out" and '"initialize"' in str(r.raw))

    for attempt in (1, 2):
        with pytest.raises(ConnectionClosed):
            await conn.session.client.list_tools()
        await until(lambda: conn.session.is_ready)
        await asyncio.sleep(0.5)  # nothing more happens by itself
        assert initializes() == 1 + attempt  # one new session per failed request, no more
    notes = conn.notes()
    assert sum("re-initializing once" in n for n in notes) == 2, notes
