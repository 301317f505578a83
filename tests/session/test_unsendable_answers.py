"""An answer to a server ask that JSON cannot carry (a NaN from a form or an answers file)
is refused to the server with an error, instead of stopping the session's writer."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.wire.jsonrpc import ErrorResponse
from inspector.session import Session
from inspector.session.responder import Responder
from tests.helpers.fake_server import initialize_result
from tests.helpers.scripted_peer import ScriptedPeer

pytestmark = pytest.mark.timeout(20)


class NanResponder(Responder):
    async def respond(self, ask: Any) -> dict[str, Any]:
        return {"roots": [{"uri": "file:///x", "weight": math.nan}]}


async def test_a_nan_answer_is_refused_and_the_session_goes_on() -> None:
    peer = ScriptedPeer()
    peer.on("initialize", initialize_result())
    peer.on("ping", {}, always=True)
    config = ClientConfig()
    config.capabilities["roots"] = {}
    async with Session(peer.transport(), config, NanResponder()) as session:
        await session.connect(timeout=5)
        asked = peer.ask("roots/list")
        for _ in range(200):
            if peer.answers():
                break
            await asyncio.sleep(0.01)
        (reply,) = peer.answers()
        assert isinstance(reply, ErrorResponse) and reply.id == asked
        assert "NaN" in reply.message
        assert await session.client.ping() == {}
