"""The catalog after a (re)start: wait for the connection's own listing (the explorer's),
load the remaining pages, and take a snapshot of it for the diff (no second listing is
sent, so the traffic log shows each list request once)."""

from __future__ import annotations

import asyncio
import time

from inspector.compare import CatalogSnapshot, snapshot_from_catalog
from inspector.core.connection import ConnectionModel
from inspector.core.server_connection import ServerConnection
from inspector.features.catalog.lists import KINDS

__all__ = ["settled_snapshot"]

_POLL = 0.02


async def _idle(model: ConnectionModel, deadline: float) -> None:
    loader = model.catalog_loader
    while any(loader.busy(kind) for kind in KINDS):
        if time.monotonic() > deadline:
            raise TimeoutError
        await asyncio.sleep(_POLL)


async def settled_snapshot(
    model: ConnectionModel, session: ServerConnection, timeout: float
) -> CatalogSnapshot:
    """The catalog once every listing ended (all pages, up to the loader's limit).
    Raises asyncio.TimeoutError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    await _idle(model, deadline)
    for kind in KINDS:
        if model.catalog[kind].has_more and model.server is session:
            model.catalog_loader.load_all(kind)
    await _idle(model, deadline)
    return snapshot_from_catalog(model.catalog, session)
