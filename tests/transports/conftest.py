"""Fixtures shared by the transport tests of several modules: the misbehaving HTTP server
and sessions on it, the fake HTTP sessions to close, and the stdio sessions on misbehaving
servers. Each fixture is defined once under tests/ (tests/architecture/test_fixtures_once.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from inspector.protocol.machine.connection import ClientConfig
from inspector.session import Session
from inspector.traffic.record import TrafficRecord
from inspector.transports.base import HttpExchange
from inspector.transports.http_common import HttpParams
from inspector.transports.streamable_http import StreamableHttpTransport
from tests.helpers.http_servers import Served, free_port, serving
from tests.helpers.peers import PY, SERVERS
from tests.helpers.sessions import OpenSessions

if TYPE_CHECKING:
    from tests.helpers.http_fakes import Opened
    from tests.transports.test_stdio_misbehaving import Harness


@pytest.fixture(scope="module")
def misbehaving_http_48mb() -> Iterator[Served]:
    """tests/servers/misbehaving/http_server.py, its endless event 48 MB long."""
    port = free_port()
    argv = [PY, str(SERVERS / "misbehaving" / "http_server.py"), "--port", str(port)]
    with serving([([*argv, "--endless-mb", "48"], {}, port)]) as (served,):
        yield served


@dataclass
class Conn:
    """A session on one scenario of the misbehaving HTTP server, with what it saw."""

    session: Session
    records: list[TrafficRecord]
    events: list[Any]

    def exchanges(self) -> list[HttpExchange]:
        return [e for e in self.events if isinstance(e, HttpExchange)]

    def notes(self) -> list[str]:
        return [e.note for e in self.exchanges() if e.note] + [
            str(r.raw) for r in self.records if r.kind == "note"
        ]

    async def still_works(self) -> None:
        out = await self.session.client.call_tool("echo", {"text": "still here"})
        assert "still here" in out["content"][0]["text"]
        assert self.session.is_ready


@pytest.fixture
def connect_scenario(misbehaving_http_48mb: Served, sessions: OpenSessions) -> Any:
    """Open a session on a scenario of `misbehaving_http_48mb`, closed at teardown."""

    async def open_(scenario: str, *, query: str = "", **params: Any) -> Conn:
        url = f"{misbehaving_http_48mb.base}/{scenario}/mcp{query}"
        config = ClientConfig(request_timeout=params.pop("request_timeout", 10.0))
        transport = StreamableHttpTransport(HttpParams(url, **params))
        records: list[TrafficRecord] = []
        events: list[Any] = []
        session = await sessions.open(
            transport,
            config,
            observers=(records.append,),
            listeners=(events.append,),
            timeout=10,
        )
        return Conn(session, records, events)

    return open_


@pytest.fixture
async def opened() -> AsyncIterator[list[Opened]]:
    """Close whatever a test opened on a fake HTTP server, even when it fails."""
    items: list[Opened] = []
    yield items
    for item in items:
        await item.session.close()
        await item.client.aclose()


@pytest.fixture
async def make() -> AsyncIterator[Callable[..., Harness]]:
    """Build a session on a misbehaving stdio server; every session is closed at teardown."""
    # The harness is the stdio tests' own (tests/transports/test_stdio_misbehaving.py).
    from inspector.protocol.wire.versions import EraSetting
    from inspector.traffic.log import TrafficLog
    from inspector.transports.stdio import StdioParams, StdioTransport
    from tests.transports.test_stdio_misbehaving import (
        CLOSE_GRACE,
        TERM_GRACE,
        Harness,
        ScriptedResponder,
    )

    made: list[Harness] = []

    def build(params: StdioParams) -> Harness:
        transport = StdioTransport(params)
        responder = ScriptedResponder()
        config = ClientConfig(era=EraSetting.LEGACY, request_timeout=10.0)
        session = Session(transport, config, responder)
        harness = Harness(session, transport, TrafficLog(), responder)
        session.add_traffic_observer(harness.log.observe)
        session.add_listener(harness.seen.append)
        made.append(harness)
        return harness

    yield build
    for harness in made:
        await asyncio.wait_for(harness.session.close(), CLOSE_GRACE + TERM_GRACE + 5)
