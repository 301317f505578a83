"""An evals run's report: each case's pass rate against the rate it requires, why each
failing run failed, and the overall verdict, as text (for a terminal: a model's or server's
text is shown escaped), as JSON, and as JUnit XML (one testcase per case). Pure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from inspector.common.junit import JUnitCase, junit_xml
from inspector.common.terminal_text import terminal_text
from inspector.evals.cases import EvalCase
from inspector.evals.judge import Verdict

__all__ = [
    "REPORT_VERSION",
    "CaseRuns",
    "EvalReport",
    "build_report",
    "report_json",
    "report_junit",
    "report_text",
]

REPORT_VERSION: Final = 1
_EPSILON: Final = 1e-9  # float noise: 0.7 × 10 is 7.000000000000001


@dataclass(frozen=True, slots=True)
class CaseRuns:
    """A case and the verdicts of its runs (fewer than `case.runs` when the run was cut
    short: the missing ones count as failed)."""

    case: EvalCase
    verdicts: tuple[Verdict, ...]
    seconds: float = 0.0

    @property
    def passed_runs(self) -> int:
        return sum(v.passed for v in self.verdicts)

    @property
    def rate(self) -> float:
        return self.passed_runs / max(self.total_runs, 1)

    @property
    def total_runs(self) -> int:
        return max(self.case.runs, len(self.verdicts))

    @property
    def required_runs(self) -> int:
        """The runs that must pass: passRate × runs, rounded up (2 of 3 for 0.66)."""
        return math.ceil(self.case.pass_rate * self.total_runs - _EPSILON)

    @property
    def passed(self) -> bool:
        return bool(self.verdicts) and self.passed_runs >= self.required_runs

    @property
    def missing_runs(self) -> int:
        return max(self.case.runs - len(self.verdicts), 0)


@dataclass(frozen=True, slots=True)
class EvalReport:
    cases: tuple[CaseRuns, ...]

    @property
    def passed(self) -> bool:
        return bool(self.cases) and all(c.passed for c in self.cases)

    @property
    def failed_cases(self) -> int:
        return sum(not c.passed for c in self.cases)


def _failures(runs: CaseRuns) -> list[str]:
    lines = []
    for number, verdict in enumerate(runs.verdicts, start=1):
        for reason in verdict.reasons:
            lines.append(f"run {number}: {reason}")
    if runs.missing_runs:
        lines.append(f"{runs.missing_runs} of {runs.case.runs} runs did not run")
    return lines


def _summary(runs: CaseRuns) -> str:
    return (
        f"{runs.passed_runs}/{runs.total_runs} runs passed "
        f"(needs {runs.required_runs}: pass rate {runs.case.pass_rate:g})"
    )


def report_text(report: EvalReport) -> str:
    """One line per case, then a line per failing run's reason, then the verdict."""
    out: list[str] = []
    names = [terminal_text(c.case.name, keep="") for c in report.cases]  # as shown
    width = min(max(map(len, names), default=0), 40)
    for runs, name in zip(report.cases, names, strict=True):
        mark = "PASS" if runs.passed else "FAIL"
        out.append(f"{mark}  {name:<{width}}  {_summary(runs)}")
        out += [f"        {terminal_text(line, keep='')}" for line in _failures(runs)]
    passed = len(report.cases) - report.failed_cases
    verdict = "passed" if report.passed else "FAILED"
    out.append(
        f"{len(report.cases)} case{'s' if len(report.cases) != 1 else ''}: {passed} passed, "
        f"{report.failed_cases} failed — {verdict}"
    )
    return "\n".join(out) + "\n"


def report_json(report: EvalReport) -> dict[str, Any]:
    return {
        "version": REPORT_VERSION,
        "passed": report.passed,
        "cases": [
            {
                "name": runs.case.name,
                "passed": runs.passed,
                "runs": runs.case.runs,
                "passedRuns": runs.passed_runs,
                "requiredRuns": runs.required_runs,
                "passRate": runs.rate,
                "requiredPassRate": runs.case.pass_rate,
                "seconds": round(runs.seconds, 3),
                "verdicts": [v.to_json() for v in runs.verdicts],
            }
            for runs in report.cases
        ],
    }


def report_junit(report: EvalReport, suite: str = "evals") -> str:
    cases: list[JUnitCase] = []
    for runs in report.cases:
        failure = None
        if not runs.passed:
            failure = (_summary(runs), "\n".join(_failures(runs)))
        cases.append(
            JUnitCase(
                classname=suite,
                name=runs.case.name,
                seconds=runs.seconds,
                failure=failure,
                output=_summary(runs) if runs.passed else "",
            )
        )
    return junit_xml(suite, cases)


def build_report(results: Sequence[CaseRuns]) -> EvalReport:
    return EvalReport(tuple(results))
