"""The application model without Qt: built with its stores injected, several connections
side by side, and one connection driving the demo server into its own stores."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from inspector.core.connection import ConnectionModel
from inspector.core.connection_state import ConnState
from inspector.core.inspector_model import InspectorModel, build_app
from inspector.core.server_connection import ServerConnection
from inspector.features.asks.canned_replies import CannedReplies
from inspector.features.catalog.lists import CatalogKind, ListDiff
from inspector.features.catalog.pins import PinStore
from inspector.features.forms.argument_memory import ArgumentMemory
from inspector.protocol.machine.events import SessionReady
from inspector.recording.reader import read_session
from inspector.recording.retention import RecordingSettings, list_sessions
from inspector.session import Session
from inspector.settings.profiles import EnvVar, Profile, ProfileStore, RootEntry, StdioSettings
from inspector.storage.secrets import SecretStore
from tests.helpers.peers import demo_command, subprocess_env

pytestmark = pytest.mark.timeout(60)


def demo_profile(name: str = "Demo server") -> Profile:
    command, *args = demo_command()
    env = [EnvVar(name=k, value=v) for k, v in subprocess_env().items()]
    return Profile(name=name, stdio=StdioSettings(command=command, args=args, env=env))


def stores(tmp: Path) -> InspectorModel:
    return InspectorModel(
        profiles=ProfileStore(tmp / "profiles.json", SecretStore()),
        canned=CannedReplies(tmp / "canned.json"),
        arguments=ArgumentMemory(tmp / "arguments.json"),
        pins=PinStore(tmp / "pins.json"),
    )


async def until(predicate: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(0.01)


@pytest.fixture
async def app_model(tmp_path: Path) -> AsyncIterator[InspectorModel]:
    model = stores(tmp_path)
    yield model
    await model.shutdown()


# ---------------------------------------------------------------- building


def test_the_app_model_holds_the_stores_it_is_given(tmp_path: Path) -> None:
    profiles = ProfileStore(tmp_path / "profiles.json", SecretStore())
    canned = CannedReplies(tmp_path / "canned.json")
    arguments = ArgumentMemory(tmp_path / "arguments.json")
    pins = PinStore(tmp_path / "pins.json")
    recording = RecordingSettings(enabled=False)
    app = InspectorModel(
        profiles=profiles, canned=canned, arguments=arguments, pins=pins, recording=recording
    )
    assert app.store is profiles and app.profiles.store is profiles
    assert app.secrets is profiles.secrets
    assert app.canned is canned and app.arguments is arguments and app.pins is pins
    assert app.recording == recording
    assert app.connections == []


def test_build_app_keeps_its_stores_next_to_the_profiles(tmp_path: Path) -> None:
    app = build_app(ProfileStore(tmp_path / "profiles.json", SecretStore()))
    assert app.canned.path == tmp_path / "canned-replies.json"
    assert app.pins is not None and app.pins.path == tmp_path / "pins.json"
    assert app.recording is None  # nothing is recorded unless asked
    connection = app.open_connection()
    assert connection.recording is None and connection.pins is app.pins


def test_two_connections_share_the_app_stores_but_not_their_own(tmp_path: Path) -> None:
    app = stores(tmp_path)
    opened: list[ConnectionModel] = []
    app.connection_opened.add(opened.append)
    first, second = app.open_connection(), app.open_connection()
    assert app.connections == [first, second] == opened
    assert first.pins is second.pins is app.pins
    assert first.secrets is second.secrets is app.secrets
    for name in ("traffic", "messages", "errors", "catalog", "watches", "rounds", "task_store"):
        assert getattr(first, name) is not getattr(second, name), name
    assert first.auth is not second.auth
    first.errors.add("internal", "only the first connection has this")
    assert len(first.errors) == 1 and len(second.errors) == 0


async def test_closing_a_connection_forgets_it(tmp_path: Path) -> None:
    app = stores(tmp_path)
    closed: list[ConnectionModel] = []
    app.connection_closed.add(closed.append)
    first, second = app.open_connection(), app.open_connection()
    await app.close_connection(first)
    assert app.connections == [second] and closed == [first]


def test_command_line_profiles_are_known_but_not_saved(tmp_path: Path) -> None:
    app = stores(tmp_path)
    adhoc = demo_profile("from the command line")
    app.profiles.add_adhoc(adhoc)
    assert app.profiles.get(adhoc.id) is adhoc and adhoc in app.profiles.all()
    assert app.store.get(adhoc.id) is None
    assert app.profiles.pin_scope(adhoc) == f"target:{adhoc.target}"
    saved = app.store.put(demo_profile("saved"))
    assert app.profiles.pin_scope(saved) == saved.id


def test_roots_are_kept_in_the_profile_they_belong_to(tmp_path: Path) -> None:
    app = stores(tmp_path)
    connection = app.open_connection()
    saved = app.store.put(demo_profile("saved"))
    adhoc = demo_profile("adhoc")
    app.profiles.add_adhoc(adhoc)
    roots = [RootEntry(uri="file:///tmp/project", name="project")]
    assert app.apply_roots(connection, saved.id, roots) == (
        "Roots saved; they are sent when a server asks."
    )
    stored = app.store.get(saved.id)
    assert stored is not None and stored.roots == roots
    app.apply_roots(connection, adhoc.id, roots)
    assert app.profiles.adhoc[adhoc.id].roots == roots
    with pytest.raises(ValueError, match="no longer exists"):
        app.apply_roots(connection, "gone", roots)


# ---------------------------------------------------------------- one connection, live


async def test_a_connection_drives_the_demo_into_its_stores(app_model: InspectorModel) -> None:
    connection = app_model.open_connection()
    other = app_model.open_connection()
    states: list[tuple[ConnState, str]] = []
    ready: list[SessionReady] = []
    started: list[tuple[ServerConnection, Session | None]] = []
    console: list[str] = []
    connection.state_changed.add(lambda state, detail: states.append((state, detail)))
    connection.server_ready.add(ready.append)
    connection.session_started.add(lambda s: started.append((s, connection.session)))
    connection.console.add(console.append)

    await connection.connect_profile(demo_profile())
    assert connection.state is ConnState.CONNECTED and connection.connected
    assert [s for s, _ in states] == [ConnState.CONNECTING, ConnState.CONNECTED]
    assert " · " in states[-1][1]  # the server's name and protocol version
    assert len(ready) == 1 and ready[0] is connection.session.ready_info  # type: ignore[union-attr]
    # The session was announced before it connected (observers see the handshake).
    assert len(started) == 1 and started[0][0] is connection.server and started[0][1] is None
    assert any(line.startswith("── connecting to Demo server") for line in console)
    await until(lambda: connection.tools is not None, "tools/list")
    assert "log_burst" in {t["name"] for t in connection.tools or []}

    # A log notification lands in this connection's Notifications store, on its row.
    session = connection.session
    assert session is not None
    await session.request("tools/call", {"name": "log_burst", "arguments": {"count": 8}})
    await until(lambda: len(connection.messages) > 0, "a log message")
    row = connection.messages.rows[0]
    entry = connection.traffic.entries[row]
    assert entry.method == "notifications/message"
    assert len(other.traffic) == 0 and len(other.messages) == 0  # nothing leaks across

    # A list change re-lists, and the connection says what changed.
    relisted: list[tuple[CatalogKind, ListDiff]] = []
    notices: list[str] = []
    connection.relisted.add(lambda kind, diff: relisted.append((kind, diff)))
    connection.notice.add(notices.append)
    await session.request("tools/call", {"name": "toggle_bonus_tool", "arguments": {}})
    await until(lambda: relisted, "the tools to be listed again")
    assert relisted[0][0] == "tools"
    assert any(n.startswith("tools/list") for n in notices)

    states.clear()
    await connection.disconnect_server()
    assert [s for s, _ in states] == [ConnState.DISCONNECTING, ConnState.DISCONNECTED]
    assert connection.session is None and console[-1] == "── disconnected"


async def test_two_connections_are_connected_side_by_side(app_model: InspectorModel) -> None:
    first, second = app_model.open_connection(), app_model.open_connection()
    await asyncio.gather(
        first.connect_profile(demo_profile("first")), second.connect_profile(demo_profile())
    )
    assert first.connected and second.connected
    assert first.session is not second.session
    assert first.profile is not None and first.profile.name == "first"

    def settled(connection: ConnectionModel) -> bool:
        lists = connection.catalog.lists.values()
        return all(not c.loading and (c.loaded or c.error or c.absent) for c in lists)

    # Every listing of both ended: the second's traffic is quiet from here on.
    await until(lambda: settled(first) and settled(second), "both listings")
    before = len(second.traffic)
    session = first.session
    assert session is not None
    await session.request("tools/call", {"name": "echo", "arguments": {"message": "hi"}})
    assert any(e.method == "tools/call" for e in first.traffic.entries)
    assert not any(e.method == "tools/call" for e in second.traffic.entries)
    assert len(second.traffic) == before
    await first.disconnect_server()
    assert first.state is ConnState.DISCONNECTED and second.connected


async def test_a_failed_connect_is_reported_in_the_connection_stores(
    app_model: InspectorModel, tmp_path: Path
) -> None:
    connection = app_model.open_connection()
    states: list[ConnState] = []
    console: list[str] = []
    connection.state_changed.add(lambda state, _detail: states.append(state))
    connection.console.add(console.append)
    missing = Profile(name="Broken", stdio=StdioSettings(command=str(tmp_path / "nothing")))
    await connection.connect_profile(missing)
    assert states == [ConnState.CONNECTING, ConnState.FAILED]
    assert connection.state is ConnState.FAILED and connection.session is None
    assert [e.category for e in connection.errors.items] == ["connection"]
    assert console[-1].startswith("── could not connect:")


async def test_every_session_is_recorded_when_the_app_records(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    app = InspectorModel(
        profiles=ProfileStore(tmp_path / "profiles.json", SecretStore()),
        canned=CannedReplies(tmp_path / "canned.json"),
        arguments=ArgumentMemory(tmp_path / "arguments.json"),
        recording=RecordingSettings(),
        sessions_folder=lambda: folder,
    )
    connection = app.open_connection()
    try:
        await connection.connect_profile(demo_profile())
        assert connection.recording is not None and connection.recording.recorder.recording
    finally:
        await app.shutdown()
    (recorded,) = list_sessions(folder)
    assert recorded.path.name.startswith("demo-server_")
    assert read_session(recorded.path).ready is not None
    # Later sessions follow new settings.
    app.set_recording(RecordingSettings(enabled=False))
    assert connection.recording.recorder.settings.enabled is False


async def test_a_failing_task_is_reported_not_lost(app_model: InspectorModel) -> None:
    connection = app_model.open_connection()

    async def broken() -> None:
        raise RuntimeError("boom")

    task = connection.start(broken(), "broken job")
    with pytest.raises(RuntimeError):
        await task
    await asyncio.sleep(0)
    assert [(e.category, e.message) for e in connection.errors.items] == [
        ("internal", "broken job failed: RuntimeError('boom')")
    ]
