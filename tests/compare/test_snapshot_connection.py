"""A connection's already-loaded catalog gives the same snapshot as listing everything
afresh over its session (the demo server, both eras); a listing with more pages to load is
marked incomplete, so it is never called the same."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.compare import (
    CatalogSnapshot,
    diff_catalogs,
    snapshot_from_catalog,
    snapshot_from_connection,
    snapshot_from_session,
)
from inspector.core.connection import ConnectionModel
from inspector.core.inspector_model import InspectorModel
from inspector.features.asks.canned_replies import CannedReplies
from inspector.features.forms.argument_memory import ArgumentMemory
from inspector.settings.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from tests.helpers.peers import PY, REPO, SERVERS


def profile(*args: str, era: str = "legacy") -> Profile:
    return Profile(
        name="p",
        stdio=StdioSettings(
            command=PY, args=list(args), env=[EnvVar(name="PYTHONPATH", value=str(REPO))]
        ),
        era=era,  # type: ignore[arg-type]
    )


async def connected(tmp: Path, prof: Profile) -> ConnectionModel:
    app = InspectorModel(
        profiles=ProfileStore(tmp / "profiles.json", SecretStore()),
        canned=CannedReplies(tmp / "canned.json"),
        arguments=ArgumentMemory.shared(),
    )
    conn = app.open_connection()
    conn.connect_profile(prof)
    for _ in range(2000):
        lists = conn.catalog.lists.values()
        if conn.connected and all(
            (lst.loaded or lst.absent or lst.error) and not lst.loading for lst in lists
        ):
            return conn
        await asyncio.sleep(0.01)
    raise AssertionError(f"not connected and listed: {conn.state} {conn.detail}")


@pytest.mark.parametrize("era", ["legacy", "modern"])
async def test_loaded_catalog_equals_a_fresh_listing(tmp_path: Path, era: str) -> None:
    conn = await connected(tmp_path, profile("-m", "inspector.demo", era=era))
    try:
        loaded = snapshot_from_connection(conn)
        assert conn.session is not None
        fresh = await snapshot_from_session(conn.session)
        assert loaded.tools and loaded.complete and loaded.era == era
        assert diff_catalogs(loaded, fresh).same
    finally:
        await conn.shutdown()
    offline = snapshot_from_connection(conn)  # disconnected: what was listed stays
    assert offline.tools == loaded.tools and offline.server_info == {}


async def test_a_catalog_with_more_pages_is_incomplete(tmp_path: Path) -> None:
    paging = str(SERVERS / "misbehaving" / "paging_server.py")
    conn = await connected(tmp_path, profile(paging))
    try:
        loaded = snapshot_from_connection(conn)
        assert conn.session is not None
        fresh = await snapshot_from_session(conn.session)
    finally:
        await conn.shutdown()
    assert len(fresh.tools) == 250 and len(loaded.tools) < 250
    assert "more pages" in loaded.incomplete["tools"]
    diff = diff_catalogs(loaded, fresh)
    assert not diff.same and diff.differences == []
    assert diff.counts()["tools"]["unlisted"] == 250 - len(loaded.tools)


def header(snap: CatalogSnapshot) -> tuple[object, ...]:
    return (
        snap.server_info,
        snap.capabilities,
        snap.instructions,
        snap.protocol_version,
        snap.era,
        snap.transport,
    )


async def test_every_snapshot_takes_the_same_header_from_the_session(tmp_path: Path) -> None:
    """Server info, capabilities, instructions, version, era and transport come from the
    session by one path, whether listed afresh or taken from what is loaded."""
    conn = await connected(tmp_path, profile("-m", "inspector.demo", era="modern"))
    try:
        session = conn.session
        assert session is not None
        fresh = await snapshot_from_session(session)
        loaded = snapshot_from_catalog(conn.catalog, session)
        expected = (
            session.server_info,
            session.server_capabilities,
            session.instructions,
            session.protocol_version,
            "modern",
            "stdio",
        )
        assert header(fresh) == header(loaded) == header(snapshot_from_connection(conn))
        assert header(loaded) == expected and session.server_info
        # copies: a snapshot kept for a diff does not change with the session
        assert loaded.server_info is not session.server_info
        assert loaded.capabilities is not session.server_capabilities
    finally:
        await conn.shutdown()
    bare = snapshot_from_catalog(conn.catalog)  # no session: no header, the lists stay
    assert header(bare) == ({}, {}, None, None, None, None) and bare.tools == loaded.tools
