"""Open real sessions in a test and be sure every one is closed at teardown (a server
process or stream must never outlive its test)."""

from __future__ import annotations

import asyncio

from inspector.core.server_connection import ServerConnection
from inspector.protocol.machine.connection import ClientConfig
from inspector.session import Responder, Session, SessionListener
from inspector.traffic.record import TrafficObserver
from inspector.transports.base import Transport

__all__ = ["OpenSessions"]


class OpenSessions:
    def __init__(self) -> None:
        self.opened: list[Session | ServerConnection] = []

    async def open(
        self,
        transport: Transport,
        config: ClientConfig | None = None,
        responder: Responder | None = None,
        *,
        observers: tuple[TrafficObserver, ...] = (),
        listeners: tuple[SessionListener, ...] = (),
        timeout: float = 20,
    ) -> Session:
        """Connect a Session (observers and listeners attached before the first frame)."""
        session = Session(transport, config or ClientConfig(), responder)
        for observer in observers:
            session.add_traffic_observer(observer)
        for listener in listeners:
            session.add_listener(listener)
        self.opened.append(session)
        await session.connect(timeout=timeout)
        return session

    async def connection(
        self,
        transport: Transport,
        config: ClientConfig | None = None,
        responder: Responder | None = None,
        *,
        timeout: float = 20,
    ) -> ServerConnection:
        """Connect a `ServerConnection` (the floors above the session floor take one)."""
        conn = ServerConnection(transport, config or ClientConfig(), responder)
        self.opened.append(conn)
        await conn.connect(timeout=timeout)
        return conn

    async def close_all(self, timeout: float = 10) -> None:
        for session in self.opened:
            await asyncio.wait_for(session.close(), timeout)
        self.opened.clear()
