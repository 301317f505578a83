"""The report: pass rates against the required rate, the reasons of failing runs, the
overall verdict, as text, JSON and JUnit XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from inspector.evals.cases import EvalCase
from inspector.evals.judge import Verdict
from inspector.evals.report import CaseRuns, build_report, report_json, report_junit, report_text

OK = Verdict(True)


def bad(reason: str) -> Verdict:
    return Verdict(False, (reason,))


def test_rates_against_the_required_rate_in_every_form() -> None:
    two_of_three = CaseRuns(
        EvalCase("adds", "p", runs=3, pass_rate=0.66), (OK, OK, bad("the answer lacks '5'"))
    )
    strict = CaseRuns(
        EvalCase("capital \x1b[31m", "p", runs=3, pass_rate=0.67),
        (OK, OK, bad("model error: boom")),
    )
    short = CaseRuns(EvalCase("cut", "p", runs=2, pass_rate=0.5), (OK,))
    report = build_report([two_of_three, strict, short])
    assert [c.passed for c in report.cases] == [True, False, True]
    assert not report.passed and report.failed_cases == 1
    text = report_text(report)
    assert "PASS  adds" in text and "2/3 runs passed (needs 2: pass rate 0.66)" in text
    assert "FAIL  capital \\x1b[31m" in text  # a name cannot colour the terminal
    assert "run 3: model error: boom" in text and "1 of 2 runs did not run" in text
    assert text.endswith("3 cases: 2 passed, 1 failed — FAILED\n")
    data = report_json(report)
    assert data["passed"] is False and data["cases"][1]["requiredRuns"] == 3
    assert data["cases"][0]["verdicts"][2] == {"passed": False, "reasons": ["the answer lacks '5'"]}
    suite = ET.fromstring(report_junit(report))
    assert suite.get("tests") == "3" and suite.get("failures") == "1"
    failure = suite.findall("testcase")[1].find("failure")
    assert failure is not None and "run 3: model error: boom" in (failure.text or "")


def test_no_runs_never_passes() -> None:
    assert not build_report([CaseRuns(EvalCase("a", "p", pass_rate=0), ())]).passed
    assert not build_report([]).passed


def test_the_columns_line_up_when_a_name_is_shown_escaped() -> None:
    runs = [CaseRuns(EvalCase(n, "p"), (OK,)) for n in ("a\x1b[31m", "plain")]
    lines = report_text(build_report(runs)).splitlines()[:2]
    assert lines[0].index("1/1 runs") == lines[1].index("1/1 runs")
