"""Live lint in a headless run: the server's messages are linted behind a traffic log of
the run, and the session's protocol violations join their findings (one list, one count);
with `-v` each finding is printed on stderr (a violation's warning is printed already), and
`--record` keeps them in the session file."""

from __future__ import annotations

from inspector.cli.errors import diag
from inspector.core.server_connection import ServerConnection
from inspector.lint import Finding, LintStore, LiveLinter
from inspector.lint.live import loop_scheduler
from inspector.lint.violations import is_violation
from inspector.protocol.machine.events import ProtocolViolation
from inspector.recording.writer import SessionRecorder
from inspector.traffic.log import TrafficLog

__all__ = ["RunLint"]


class RunLint:
    def __init__(
        self, session: ServerConnection, *, verbose: bool, recorder: SessionRecorder | None
    ) -> None:
        self.traffic = TrafficLog()
        self.store = LintStore()
        # A listing over 1 MiB is left unlinted, as any huge row (nobody views it here), and
        # said so: linting 10,000 tools would hold the run's end for seconds.
        self.linter = LiveLinter(self.traffic, self.store, loop_scheduler, huge_listings=False)
        self.verbose = verbose
        self.recorder = recorder
        self.linter.begin_session()
        session.add_traffic_observer(self.traffic.observe)
        session.add_listener(self._heard, notifications=())
        self.store.on_add(self._found)

    def ready(self, version: str | None) -> None:
        self.linter.session_ready(version)

    def _heard(self, item: object) -> None:
        if isinstance(item, ProtocolViolation):  # about the frame logged last
            self.linter.violation(item.rule, item.message)

    def _found(self, findings: list[Finding]) -> None:
        for finding in findings:
            if self.verbose and not is_violation(finding):
                row = self.traffic.row(finding.index)
                what = row[2] or row[1]
                diag(f"lint: {what}: {finding.line()}")
            if self.recorder is not None:
                self.recorder.lint(finding.index, finding)

    def finish(self) -> None:
        """Lint what is left (the run is over), and say how it went with `-v`."""
        self.linter.release()
        self.linter.flush()
        self.linter.close()
        if self.verbose:
            counts = ", ".join(f"{rule} ×{n}" for rule, n in sorted(self.store.counts.items()))
            skipped = sorted(self.store.deferred)
            diag(
                f"lint: {self.store.checked - len(skipped)} server message(s) checked, "
                f"{len(self.store)} finding(s)"
                + (f": {counts}" if counts else "")
                + (
                    f"; {len(skipped)} over 1 MiB not linted ("
                    + ", ".join(f"#{i} {self.traffic.row(i)[2] or 'message'}" for i in skipped)
                    + ": the window lints them)"
                    if skipped
                    else ""
                )
            )
