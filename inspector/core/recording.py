"""The recording of one connection: every session to its own file, and the live session
written out on demand when nothing was recorded.

The `AutoRecorder` (recording floor) does the files; this adds what the connection knows:
when a session starts (before it connects, so the handshake is in the file), that a
connect failed (the file says why) or ended, and where the latest live session began in
the traffic log, with its profile and handshake, for Save As without a recording.
"""

from __future__ import annotations

from pathlib import Path

from inspector.core.connection_state import ConnState
from inspector.lint.finding import Finding, LintStore
from inspector.protocol.machine.config import ClientConfig
from inspector.protocol.machine.events import SessionReady
from inspector.recording.format import ready_line
from inspector.recording.live import AutoRecorder
from inspector.recording.otlp.live import live_session
from inspector.recording.reader import RecordedSession
from inspector.recording.redaction import spec_for_profile
from inspector.recording.snapshot import traffic_header, write_traffic_log
from inspector.session import Session
from inspector.settings.connect import client_config_for
from inspector.settings.profiles import Profile
from inspector.storage.secrets import SecretStore
from inspector.traffic.error_store import ErrorStore
from inspector.traffic.log import TrafficLog

__all__ = ["ConnectionRecording"]


class ConnectionRecording:
    def __init__(
        self,
        recorder: AutoRecorder,
        traffic: TrafficLog,
        errors: ErrorStore,
        secrets: SecretStore | None,
        lint: LintStore | None = None,
    ) -> None:
        self.recorder = recorder
        self.lint = lint
        if lint is not None:
            lint.on_add(self._linted)
        self.traffic = traffic
        self.errors = errors
        self.secrets = secrets
        self.live_start = 0  # the traffic row where the latest live session began
        self.live_profile: Profile | None = None
        self.live_config: ClientConfig | None = None  # what the live session declared
        self.live_ready: SessionReady | None = None

    def session_started(self, session: Session, profile: Profile) -> None:
        """A new session, before it connects: record it (if recording is on)."""
        self.live_start = len(self.traffic)
        self.live_ready = None
        self.live_profile = profile
        self.live_config = session.conn.config
        if self.recorder.attach(session, profile) is None and self.recorder.error:
            self.errors.add("recording", self.recorder.error)

    def _linted(self, findings: list[Finding]) -> None:
        """Findings go into the live session's file, by their row in it."""
        current = self.recorder.recorder
        if current is None:
            return
        for finding in findings:
            if finding.index >= self.live_start:
                current.lint(finding.index - self.live_start, finding)

    def ready(self, ready: SessionReady) -> None:
        self.live_ready = ready

    def state_changed(self, state: ConnState, detail: str, session: Session | None) -> None:
        if state is ConnState.FAILED:
            self.recorder.fail(detail)  # the file says why (a start failure has no close)
        elif state is ConnState.DISCONNECTED and session is None:
            self.recorder.finish()

    def live_session(self) -> RecordedSession:
        """The latest live session so far, from the traffic log, as a session in memory
        (for export-otlp of a live tab). Raises ValueError when there is none."""
        profile = self.live_profile
        traffic = self.traffic
        start = self.live_start if self.live_start <= len(traffic) else 0
        if profile is None or start >= len(traffic):
            raise ValueError("There is no traffic to export yet: connect to a server first.")
        spec = spec_for_profile(profile, self.secrets)
        header = traffic_header(spec, self.live_config or client_config_for(profile))
        ready = ready_line(self.live_ready) if self.live_ready is not None else None
        return live_session(
            traffic,
            header,
            ready,
            start=start,
            name=f"{profile.name} (live)",
            redactor=spec.redactor(),
        )

    def write_live(self, target: Path) -> int:
        """Write the latest live session from the traffic log as a session file; returns
        the lines written. Raises ValueError when there is none, OSError."""
        profile = self.live_profile
        traffic = self.traffic
        start = self.live_start if self.live_start <= len(traffic) else 0
        if profile is None or start >= len(traffic):
            raise ValueError("There is no session to save yet: connect to a server first.")
        return write_traffic_log(
            target,
            traffic,
            spec_for_profile(profile, self.secrets),
            self.live_config or client_config_for(profile),
            transport=profile.transport,
            ready=self.live_ready,
            start=start,
            lint=self.lint,
        )
