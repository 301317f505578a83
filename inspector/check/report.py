"""The check report: one row per check (passed, failed with its evidence and the spec rule,
skipped with the reason), as a table, JSON, JUnit XML or SARIF 2.1.0 (each check a rule,
each failed check a result: `inspector/security/sarif.py` writes the log)."""

from __future__ import annotations

import enum
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from inspector import __version__
from inspector.common.junit import JUnitCase, junit_xml
from inspector.common.terminal_text import terminal_text
from inspector.security.sarif import Place, SarifResult, SarifRule, sarif_log

__all__ = ["CheckReport", "CheckResult", "Status"]


class Status(enum.StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    WARNED = "warned"  # advisory (a draft's rule): shown with its evidence, never fails the run


@dataclass(frozen=True, slots=True)
class CheckResult:
    id: str  # "errors.unknown-method"
    title: str  # what is checked, as a sentence
    status: Status
    evidence: str = ""  # what was seen (a failure's proof, a skip's reason)
    rule: str = ""  # the spec rule it checks
    seconds: float = 0.0

    @property
    def group(self) -> str:
        return self.id.split(".", 1)[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "status": str(self.status),
            "evidence": self.evidence,
            "rule": self.rule,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class CheckReport:
    target: str
    era: str = ""
    version: str | None = None
    server: dict[str, Any] = field(default_factory=dict)
    results: list[CheckResult] = field(default_factory=list)
    unreachable: str | None = None  # why the server could not be reached at all
    place: Place | None = None  # for SARIF: the script a stdio server runs (else its URL)

    def count(self, status: Status) -> int:
        return sum(1 for r in self.results if r.status is status)

    @property
    def exit_code(self) -> int:
        """0 every check passed (skips allowed), 1 a check failed, 3 unreachable."""
        if self.unreachable is not None:
            return 3
        return 1 if self.count(Status.FAILED) else 0

    def summary(self) -> str:
        if self.unreachable is not None:
            return f"could not reach the server: {self.unreachable}"
        warned = self.count(Status.WARNED)
        return (
            f"{self.count(Status.PASSED)} passed, {self.count(Status.FAILED)} failed, "
            f"{self.count(Status.SKIPPED)} skipped" + (f", {warned} warned" if warned else "")
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "era": self.era,
            "protocol_version": self.version,
            "server": self.server,
            "unreachable": self.unreachable,
            "summary": {s.value: self.count(s) for s in Status},
            "exit_code": self.exit_code,
            "checks": [r.to_json() for r in self.results],
        }

    def table(self) -> str:
        """Plain text, one line per check, evidence indented below failures and skips."""
        mark = {
            Status.PASSED: "PASS",
            Status.FAILED: "FAIL",
            Status.SKIPPED: "SKIP",
            Status.WARNED: "WARN",
        }
        width = max((len(r.id) for r in self.results), default=10)
        lines = [f"check {self.target} ({self.era} era, protocol {self.version or '?'})"]
        for r in self.results:
            lines.append(f"{mark[r.status]}  {r.id:<{width}}  {r.title}")
            if r.status is not Status.PASSED and r.evidence:
                # Lines only where the check broke them: a server's \r, \x85 or \u2028
                # is shown, not a line of the report.
                for part in terminal_text(r.evidence, keep="\n").split("\n")[:8]:
                    lines.append(f"      {'':<{width}}  {part}")
            if r.status in (Status.FAILED, Status.WARNED) and r.rule:
                lines.append(f"      {'':<{width}}  rule: {r.rule}")
        lines.append(self.summary())
        return "\n".join(lines)

    def junit(self) -> str:
        cases: list[JUnitCase] = []
        if self.unreachable is not None:
            cases.append(JUnitCase("handshake", "connect", error=self.unreachable))
        for r in self.results:
            failed = r.status is Status.FAILED
            cases.append(
                JUnitCase(
                    r.group,
                    r.id,
                    seconds=r.seconds,
                    failure=(
                        (
                            r.evidence.splitlines()[0] if r.evidence else "failed",
                            f"{r.evidence}\nrule: {r.rule}",
                        )
                        if failed
                        else None
                    ),
                    skipped=r.evidence if r.status is Status.SKIPPED else None,
                )
            )
        return junit_xml(f"mcp-inspector-qt check {self.target}", cases)

    def sarif(self) -> str:
        """A SARIF 2.1.0 log: every check a rule (its spec rule as help), every failed one
        an error result located at the server (`server/check/ID`), every warned one (an
        advisory check: a draft's) a warning; an unreachable server is a failed invocation."""
        name = str(self.server.get("name") or self.target)
        place = self.place
        if place is None and self.target.startswith(("http://", "https://")):
            place = Place(self.target)
        rules = [SarifRule(r.id, r.title, "error", r.rule) for r in self.results]
        results = [
            SarifResult(
                rule_id=r.id,
                level="error" if r.status is Status.FAILED else "warning",
                message=f"{r.title}: {r.evidence}" if r.evidence else r.title,
                fingerprint=hashlib.sha256(
                    f"{self.target}\x00{r.id}".encode("utf-8", "surrogatepass")
                ).hexdigest()[:32],
                logical=(name, "check", r.id),
                place=place,
                properties={"rule": r.rule} if r.rule else {},
            )
            for r in self.results
            if r.status in (Status.FAILED, Status.WARNED)
        ]
        failures = (
            [] if self.unreachable is None else [f"could not reach the server: {self.unreachable}"]
        )
        log = sarif_log(rules, results, version=__version__, failures=failures)
        return json.dumps(log, ensure_ascii=False, indent=2) + "\n"
