"""Recording a live Session: `start_recorder` (the CLI's `--record` and the GUI), and
`AutoRecorder`, the GUI's always-on recording into the sessions folder.

The recorder observes every frame; the handshake outcome, the user's cancels and the
way each server ask was answered become `ready` and `action` lines. Nothing here blocks
the caller: the recorder writes from its own thread.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.machine.events import NotificationReceived, RequestFailed, SessionReady
from inspector.protocol.wire.versions import EraSetting
from inspector.recording.format import header_line
from inspector.recording.redaction import RecordingSpec, spec_for_profile
from inspector.recording.retention import RecordingSettings, cleanup, new_session_path
from inspector.recording.writer import RecordingResponder, Rotation, SessionRecorder
from inspector.session import AskRejected, Responder, Session
from inspector.traffic.record import note_record
from inspector.transports.base import TransportClosed

if TYPE_CHECKING:
    from inspector.settings.profiles import Profile
    from inspector.storage.secrets import SecretStore

__all__ = ["AskActionResponder", "AutoRecorder", "header_for", "start_recorder"]

log = logging.getLogger(__name__)


def header_for(spec: RecordingSpec, session: Session) -> dict[str, Any]:
    config = session.conn.config
    return header_line(
        spec.connection,
        era=str(config.era),
        client_info=config.client_info,
        client_capabilities=config.capabilities,
        protocol_version=config.legacy_version if config.era is EraSetting.LEGACY else None,
    )


def start_recorder(
    path: str | Path, spec: RecordingSpec, session: Session, rotation: Rotation | None = None
) -> SessionRecorder:
    """Start recording `session` (before it connects) to `path` (compressed when it ends
    in .gz or .zst; in parts by `rotation`). Raises OSError when the file cannot be
    created, ValueError when a rotated recording's name cannot have parts."""
    recorder = SessionRecorder(
        path, header_for(spec, session), redactor=spec.redactor(), rotation=rotation
    )
    recorder.start()
    session.add_traffic_observer(recorder.observe, recorder.observe_many)
    return recorder


class AskActionResponder(RecordingResponder):
    """Records how each server ask was answered. `how(ask)` says by whom: "by hand"
    for a dialog the user answered, "with the profile's roots" for roots..."""

    def __init__(
        self, inner: Responder, recorder: SessionRecorder, how: Callable[[ServerAsk], str]
    ) -> None:
        super().__init__(inner, recorder)
        self.how_for = how

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        how = self.how_for(ask)
        try:
            result = await self.inner.respond(ask)
        except AskRejected as exc:
            self.recorder.action(
                f"rejected {ask.kind} ({ask.origin}) {how}: {exc}", kind=ask.kind, how=how
            )
            raise
        self.recorder.action(f"answered {ask.kind} ({ask.origin}) {how}", kind=ask.kind, how=how)
        return result


def recorder_transport(recorder: SessionRecorder) -> str:
    connection = recorder.header.get("connection")
    value = connection.get("transport") if isinstance(connection, dict) else None
    return value if isinstance(value, str) else ""


def default_how(inner: Responder) -> Callable[[ServerAsk], str]:
    """The responder may say how it answers (`how_answered(ask)`); else sampling and
    elicitation are answered by hand and roots from the profile."""
    own = getattr(inner, "how_answered", None)
    if callable(own):
        return lambda ask: str(own(ask))
    return lambda ask: "with the profile's roots" if ask.kind == "roots" else "by hand"


class AutoRecorder:
    """Records each GUI connection to its own file in the sessions folder.

    `attach(session, profile)` is called with every new Session before it connects;
    the previous recording is closed then. A recording ends when its transport closes;
    cleanup of old files runs after each one ends (and once at the first attach).
    """

    def __init__(
        self,
        folder: Callable[[], Path],
        settings: RecordingSettings | None = None,
        secrets: SecretStore | None = None,
    ) -> None:
        self.folder = folder
        self.settings = settings or RecordingSettings()
        self.secrets = secrets
        self.recorder: SessionRecorder | None = None
        self.last_path: Path | None = None  # the latest recording (open or finished)
        self.last_spec: RecordingSpec | None = None
        self.error: str | None = None  # why the latest recording could not start
        self.removed: list[Path] = []  # what the last cleanup deleted
        self._cleaned_once = False

    @property
    def recording(self) -> bool:
        return self.recorder is not None

    def attach(self, session: Session, profile: Profile) -> SessionRecorder | None:
        self.finish()
        self.error = None
        if not self.settings.enabled:
            return None
        spec = spec_for_profile(profile, self.secrets)
        folder = self.folder()
        if not self._cleaned_once:
            self._cleaned_once = True
            self.clean_up()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            settings = self.settings
            rotation = Rotation(
                size=settings.rotate_mb * 1024 * 1024 or None,
                every=settings.rotate_hours * 3600.0 or None,
            )
            path = new_session_path(folder, profile.name, suffix=settings.suffix)
            recorder = start_recorder(path, spec, session, rotation or None)
        except OSError as exc:
            self.error = f"could not record the session in {folder}: {exc.strerror or exc}"
            log.warning("%s", self.error)
            return None
        self.recorder = recorder
        self.last_path = recorder.path
        self.last_spec = spec
        session.responder = AskActionResponder(
            session.responder, recorder, default_how(session.responder)
        )
        session.add_listener(functools.partial(self._on_item, recorder), notifications=())
        return recorder

    def _on_item(self, recorder: SessionRecorder, item: object) -> None:
        if type(item) is NotificationReceived:
            return  # the common item (in the recording already, as its frame)
        if isinstance(item, SessionReady):
            recorder.ready(item)
        elif isinstance(item, RequestFailed) and item.kind == "cancelled":
            what = f"request {item.wire_id!r}" if item.wire_id is not None else "a request"
            recorder.action(
                f"cancelled {what} ({item.method})",
                request_id=item.wire_id,
                method=item.method,
                reason=item.message,
            )
        elif isinstance(item, TransportClosed) and recorder is self.recorder:
            self.finish()

    def action(self, text: str, **data: Any) -> None:
        """A user action worth knowing, into the current recording (if any)."""
        if self.recorder is not None:
            self.recorder.action(text, **data)

    def conversation(self, conversation_id: str, conversation: dict[str, Any]) -> bool:
        """A Playground conversation into the current recording; False when none is open."""
        if self.recorder is None:
            return False
        self.recorder.conversation(conversation_id, conversation)
        return True

    def fail(self, reason: str) -> None:
        """The connection failed (possibly before its transport ever ran, so no
        `transport closed` line will come): say why in the file, and close it."""
        recorder = self.recorder
        if recorder is None:
            return
        transport = str(recorder_transport(recorder))
        recorder.observe(
            note_record(f"could not connect: {reason}", transport, "connection failed")
        )
        self.finish()

    def finish(self) -> None:
        """Close the current recording (its file stays) and clean up old ones."""
        recorder, self.recorder = self.recorder, None
        if recorder is None:
            return
        recorder.close()
        if recorder.error:
            self.error = recorder.error
        self.clean_up()

    def clean_up(self) -> list[Path]:
        # The part being written is kept; a long recording's older parts age out as files do.
        keep = [self.recorder.current_path] if self.recorder is not None else []
        self.removed = cleanup(self.folder(), self.settings, keep=keep)
        return self.removed
