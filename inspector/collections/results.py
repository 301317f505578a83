"""What a run gives back: per call the outcome, the latency and each assertion's verdict
(with the structural changes of a failed snapshot); per run the summary, the exit code,
JSON and JUnit XML."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

from inspector.collections.collection import Assertion, OutcomeAssertion, SavedCall
from inspector.common.junit import JUnitCase, junit_xml
from inspector.common.terminal_text import terminal_text
from inspector.recording.diff import Change

__all__ = [
    "EXIT_ASSERTION",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_TIMEOUT",
    "EXIT_UNREACHABLE",
    "AssertionResult",
    "CallResult",
    "Outcome",
    "OutcomeKind",
    "RunReport",
]

EXIT_OK: Final = 0
EXIT_ASSERTION: Final = 1
EXIT_UNREACHABLE: Final = 3
EXIT_TIMEOUT: Final = 5
EXIT_INTERRUPTED: Final = 130  # 128 + SIGINT, as a shell reports Ctrl+C

# ok / isError / error (JSON-RPC, with code) / timeout: what a server did.
# failed: the request ended without an answer (connection closed, transport, refused).
# not-run: the call could not be sent (an unset ${env:NAME}, a catalog that failed).
# cancelled: the run was stopped (Stop, Ctrl+C) while the call was in flight; the
# request was cancelled. Neither passed nor failed.
OutcomeKind = Literal["ok", "isError", "error", "timeout", "failed", "not-run", "cancelled"]


@dataclass(frozen=True)
class Outcome:
    kind: OutcomeKind
    code: int | None = None
    message: str = ""

    def describe(self) -> str:
        if self.kind == "error":
            return f"error {self.code}: {self.message}" if self.code is not None else "error"
        if self.kind in ("failed", "not-run", "cancelled") and self.message:
            return f"{self.kind}: {self.message}"
        return self.kind

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.code is not None:
            out["code"] = self.code
        if self.message:
            out["message"] = self.message
        return out


@dataclass(frozen=True)
class AssertionResult:
    assertion: Assertion
    passed: bool
    message: str  # passed: what held; failed: what was expected and what came instead
    changes: tuple[Change, ...] = ()  # a snapshot or inputSchema: what differs

    @property
    def label(self) -> str:
        return self.assertion.describe()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "assertion": self.assertion.to_json() if not _big(self.assertion) else self.label,
            "passed": self.passed,
            "message": self.message,
        }
        if self.changes:
            out["changes"] = [c.to_dict() for c in self.changes]
        return out


def _big(assertion: Assertion) -> bool:
    return type(assertion).__name__ in ("SnapshotAssertion", "InputSchemaAssertion")


@dataclass
class CallResult:
    call: SavedCall
    outcome: Outcome
    ms: float | None = None  # the request's round trip (None: not sent)
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    tool: dict[str, Any] | None = None  # the tool's definition, where one was looked up
    assertions: list[AssertionResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.call.name

    @property
    def passed(self) -> bool:
        return self.outcome.kind not in ("not-run", "cancelled") and all(
            a.passed for a in self.assertions
        )

    @property
    def cancelled(self) -> bool:
        """The run stopped while this call was in flight: neither passed nor failed."""
        return self.outcome.kind == "cancelled"

    @property
    def failures(self) -> list[AssertionResult]:
        return [a for a in self.assertions if not a.passed]

    @property
    def unexpected_timeout(self) -> bool:
        return self.outcome.kind == "timeout" and any(
            isinstance(a.assertion, OutcomeAssertion) and not a.passed for a in self.assertions
        )

    def line(self) -> str:
        """`PASS  name  outcome  12 ms`, the CLI's line for the call: one line, whatever
        the server's error message holds (a newline in it is shown as \\x0a)."""
        ms = f"{self.ms:.0f} ms" if self.ms is not None else "-"
        mark = "STOP" if self.cancelled else "PASS" if self.passed else "FAIL"
        outcome = terminal_text(self.outcome.describe(), keep="")
        return f"{mark}  {self.name}  {outcome}  {ms}"

    def failure_text(self) -> str:
        """Each failed assertion, with up to 20 changes of a snapshot."""
        lines: list[str] = []
        if self.outcome.kind == "not-run":
            lines.append(f"not run: {self.outcome.message}")
        if self.cancelled:
            lines.append(f"cancelled: {self.outcome.message or 'the run stopped'}")
        for failed in self.failures:
            lines.append(f"{failed.label}: {failed.message}")
            lines.extend(f"  {c.describe()}" for c in failed.changes[:20])
            if len(failed.changes) > 20:
                lines.append(f"  … and {len(failed.changes) - 20} more change(s)")
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.call.kind,
            "target": self.call.target,
            "passed": self.passed,
            "outcome": self.outcome.to_json(),
            "ms": None if self.ms is None else round(self.ms, 3),
            "assertions": [a.to_json() for a in self.assertions],
            "notes": self.notes,
        }


@dataclass
class RunReport:
    collection: str = ""
    results: list[CallResult] = field(default_factory=list)
    unreachable: str | None = None  # the server could not be reached: why
    connect_timed_out: bool = False
    connection_lost: str | None = None  # the connection ended during the run: why
    stopped: str | None = None  # the run was stopped (Stop, Ctrl+C): why
    stop_exit: int = EXIT_INTERRUPTED  # the exit code of a stopped run (128 + the signal)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def cancelled(self) -> int:
        return sum(r.cancelled for r in self.results)

    @property
    def failed(self) -> int:
        return len(self.results) - self.passed - self.cancelled

    @property
    def ok(self) -> bool:
        return self.unreachable is None and self.failed == 0 and self.stopped is None

    @property
    def exit_code(self) -> int:
        """0 all passed, 1 an assertion failed, 3 the server could not be reached (or the
        connection was lost on the way), 5 a timeout nobody asserted; a stopped run
        `stop_exit` (130 for Ctrl+C, 143 for SIGTERM), whatever ran before."""
        if self.stopped is not None:
            return self.stop_exit
        if self.unreachable is not None:
            return EXIT_TIMEOUT if self.connect_timed_out else EXIT_UNREACHABLE
        failed = [r for r in self.results if not r.passed and not r.cancelled]
        if not failed:
            return EXIT_OK
        if any(r.unexpected_timeout for r in failed):
            return EXIT_TIMEOUT
        if self.connection_lost is not None and any(r.outcome.kind == "failed" for r in failed):
            return EXIT_UNREACHABLE
        return EXIT_ASSERTION

    def changes_since(self, previous: RunReport | None) -> dict[str, str]:
        """What changed from `previous` (watch mode's strip): call name -> "broke" (passed
        before, fails now), "fixed", "new" (not in the previous run). Unchanged calls are
        left out."""
        before = {r.name: r.passed for r in previous.results} if previous is not None else {}
        out: dict[str, str] = {}
        for result in self.results:
            if result.name not in before:
                out[result.name] = "new"
            elif before[result.name] != result.passed:
                out[result.name] = "fixed" if result.passed else "broke"
        return out

    def summary(self) -> str:
        if self.unreachable is not None:
            return f"could not reach the server: {self.unreachable}"
        total_ms = sum(r.ms or 0.0 for r in self.results)
        text = f"{len(self.results)} call(s): {self.passed} passed, {self.failed} failed"
        if self.cancelled:
            text += f", {self.cancelled} cancelled"
        lost = f"; the connection was lost: {self.connection_lost}" if self.connection_lost else ""
        stopped = f"; stopped: {self.stopped}" if self.stopped else ""
        return f"{text} ({total_ms:.0f} ms in calls){lost}{stopped}"

    def to_json(self) -> dict[str, Any]:
        return {
            "collection": self.collection,
            "passed": self.passed,
            "failed": self.failed,
            "unreachable": self.unreachable,
            "connection_lost": self.connection_lost,
            "cancelled": self.cancelled,
            "stopped": self.stopped,
            "exit_code": self.exit_code,
            "calls": [r.to_json() for r in self.results],
        }

    def junit(self) -> str:
        cases: list[JUnitCase] = []
        if self.unreachable is not None:
            cases.append(JUnitCase("connect", "connect", error=self.unreachable))
        for r in self.results:
            text = r.failure_text()
            message = text.splitlines()[0] if text else "failed"
            cases.append(
                JUnitCase(
                    f"{r.call.kind}.{r.call.target}" if r.call.target else r.call.kind,
                    r.name,
                    seconds=(r.ms or 0.0) / 1000,
                    failure=None if r.passed or r.cancelled else (message, text),
                    skipped=text if r.cancelled else None,
                    output="\n".join(f"{a.label}: {a.message}" for a in r.assertions),
                )
            )
        return junit_xml(f"mcp-inspector-qt test {self.collection}".rstrip(), cases)
