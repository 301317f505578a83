"""The inspector model: every app-wide store, and the connections, built in one place.

A front end (the Qt window, a script, a test) builds one `InspectorModel` (usually with
`build_app`) and opens connections from it. App-wide are the profiles, the secret store,
the tool pins, the remembered arguments, the canned sampling replies and the recording
settings; each connection gets what it needs of them when it is opened, and keeps the
rest of its state to itself, so several connections can live side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from inspector.common.listeners import Listeners
from inspector.core.connection import ConnectionModel
from inspector.core.front_end import OpenerFactory, ResponderFactory, policy_responders
from inspector.core.profiles import KnownProfiles
from inspector.features.asks.canned_replies import CannedReplies
from inspector.features.catalog.pins import PinStore
from inspector.features.forms.argument_memory import ArgumentMemory
from inspector.recording.live import AutoRecorder
from inspector.recording.retention import RecordingSettings
from inspector.settings.profiles import ProfileStore, RootEntry
from inspector.storage.paths import sessions_dir
from inspector.storage.secrets import SecretStore

__all__ = ["InspectorModel", "build_app"]


class InspectorModel:
    def __init__(
        self,
        *,
        profiles: ProfileStore,
        canned: CannedReplies,
        arguments: ArgumentMemory,
        pins: PinStore | None = None,
        recording: RecordingSettings | None = None,
        sessions_folder: Callable[[], Path] = sessions_dir,
        responders: ResponderFactory = policy_responders,
        opener: OpenerFactory | None = None,
    ) -> None:
        """`pins` None: tool definitions are not pinned. `recording` None: connections are
        not recorded. `responders` and `opener` are the default answers to server asks and
        the browser of the connections opened (see `front_end`)."""
        self.profiles = KnownProfiles(profiles)
        self.canned = canned
        self.arguments = arguments
        self.pins = pins
        self.sessions_folder = sessions_folder
        self._recording = recording
        self._responders = responders
        self._opener = opener
        self.connections: list[ConnectionModel] = []
        self.connection_opened: Listeners[[ConnectionModel]] = Listeners("connection listener")
        self.connection_closed: Listeners[[ConnectionModel]] = Listeners("connection listener")

    @property
    def store(self) -> ProfileStore:
        return self.profiles.store

    @property
    def secrets(self) -> SecretStore | None:
        return self.profiles.store.secrets

    # ---------------------------------------------------------------- connections
    def open_connection(
        self, responders: ResponderFactory | None = None, *, ui_apps: bool = False
    ) -> ConnectionModel:
        """A new connection (not connected yet). `responders`: how its sessions' asks are
        answered, when not the app's default (a window answers with its own dialogs);
        `ui_apps`: the front end renders MCP Apps and its sessions say so."""
        recording = self._recording
        connection = ConnectionModel(
            secrets=self.secrets,
            responders=responders or self._responders,
            opener=self._opener,
            pins=self.pins,
            pin_scope=self.profiles.pin_scope,
            ui_apps=ui_apps,
            recorder=(
                AutoRecorder(self.sessions_folder, recording, self.secrets)
                if recording is not None
                else None
            ),
        )
        self.connections.append(connection)
        self.connection_opened.emit(connection)
        return connection

    async def close_connection(self, connection: ConnectionModel) -> None:
        """Disconnect `connection` and forget it."""
        await connection.shutdown()
        if connection in self.connections:
            self.connections.remove(connection)
            self.connection_closed.emit(connection)

    async def shutdown(self) -> None:
        """Disconnect every connection (the app is closing)."""
        for connection in list(self.connections):
            await connection.shutdown()

    # ---------------------------------------------------------------- recording
    @property
    def recording(self) -> RecordingSettings | None:
        return self._recording

    def set_recording(self, value: RecordingSettings) -> None:
        """New recording settings, for every connection (the next session uses them)."""
        self._recording = value
        for connection in self.connections:
            if connection.recording is not None:
                connection.recording.recorder.settings = value

    # ---------------------------------------------------------------- roots
    def apply_roots(
        self, connection: ConnectionModel, profile_id: str, roots: list[RootEntry]
    ) -> str:
        """Keep the roots in the profile (saved unless built in or from the command line),
        then answer roots/list with them and tell the server, if `connection` uses that
        profile. Returns what happened, as a sentence. Raises ValueError when the profile
        no longer exists or cannot be saved."""
        live = connection.profile
        base = self.profiles.get(profile_id) or (
            live if live is not None and live.id == profile_id else None
        )
        if base is None:
            raise ValueError("The profile no longer exists.")
        self.profiles.keep_roots(base, roots)
        live = connection.profile
        if live is not None and live.id == profile_id:
            return connection.use_roots(roots)
        return "Roots saved; they are sent when a server asks."


def build_app(
    profiles: ProfileStore,
    *,
    recording: RecordingSettings | None = None,
    responders: ResponderFactory = policy_responders,
    opener: OpenerFactory | None = None,
) -> InspectorModel:
    """The app model with its stores next to the profiles file (pins, canned replies) and
    the remembered arguments of the config directory."""
    folder = profiles.path.parent
    return InspectorModel(
        profiles=profiles,
        canned=CannedReplies(folder / "canned-replies.json"),
        arguments=ArgumentMemory.shared(),
        pins=PinStore(folder / "pins.json"),
        recording=recording,
        responders=responders,
        opener=opener,
    )
