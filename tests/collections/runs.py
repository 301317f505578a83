"""Helpers for the collection tests: run a collection on a fresh session to a server."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from inspector.collections.collection import Collection
from inspector.collections.results import RunReport
from inspector.collections.runner import CollectionRunner
from inspector.core.server_connection import ServerConnection
from inspector.protocol.machine.config import ClientConfig
from inspector.protocol.wire.versions import EraSetting
from inspector.transports.base import Transport
from inspector.transports.stdio import StdioParams, StdioTransport
from tests.helpers.peers import subprocess_env

ASK_CAPS = {"sampling": {}, "elicitation": {"form": {}}, "roots": {}}


def stdio(argv: Sequence[str], env: Mapping[str, str] | None = None) -> StdioTransport:
    return StdioTransport(
        StdioParams(argv[0], list(argv[1:]), env={**subprocess_env(), **(env or {})})
    )


async def run_on(
    transport: Transport,
    collection: Collection,
    *,
    era: str = "legacy",
    env: Mapping[str, str] | None = None,
    timeout: float = 15.0,
) -> RunReport:
    config = ClientConfig(era=EraSetting(era), capabilities=dict(ASK_CAPS))
    session = ServerConnection(transport, config)
    try:
        await session.connect(timeout=30)
        runner = CollectionRunner(session, env=env or {}, timeout=timeout)
        return await runner.run(collection)
    finally:
        await asyncio.wait_for(session.close(), 15)


def run(
    transport: Transport, collection: Collection, *, era: str = "legacy", **kw: object
) -> RunReport:
    return asyncio.run(asyncio.wait_for(run_on(transport, collection, era=era, **kw), 90))  # type: ignore[arg-type]
