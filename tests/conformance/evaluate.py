"""Judge one conformance run against tests/conformance/expected-failures.txt.

    python tests/conformance/evaluate.py --version V --results DIR --scenarios LIST \
        --expected tests/conformance/expected-failures.txt

DIR is the suite's `-o` folder: one `<scenario>-<timestamp>/checks.json` per scenario
(`auth/x` scenarios in an `auth/` subfolder). LIST is the output of
`conformance list --requirements V`: which client scenarios the run was meant to have
(scored ones, and not-scored ones tagged `[client]`).

A scenario passes when its checks hold no FAILURE and no WARNING (the suite's own rule).
Every scenario is judged, scored or not. The exit code is 0 when every scenario that is not
listed as an expected failure passed; a listed one that passes is reported as an unexpected
pass (and fails the run only with --strict). A summary goes to DIR/summary.json.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

_STAMP = re.compile(r"-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$")


@dataclass
class Outcome:
    scenario: str
    scored: bool
    status: str  # pass | fail | missing
    verdict: str = ""  # PASS | FAIL | XFAIL | XPASS
    problems: list[str] = field(default_factory=list)
    checks_json: str | None = None


def parse_list(text: str) -> dict[str, bool]:
    """`conformance list --requirements V` -> {client scenario: scored}."""
    scenarios: dict[str, bool] = {}
    section = ""
    for line in text.splitlines():
        if line.startswith("Client scenarios"):
            section = "client"
        elif line.startswith(("Server scenarios", "Run and reported")):
            section = "other"
        item = re.match(r"^\s+- (\S+)(?: \[(\w+)\])?\s*$", line)
        if item is None:
            continue
        name, leg = item.group(1), item.group(2)
        if section == "client" and leg is None:
            scenarios[name] = True
        elif leg == "client":
            scenarios.setdefault(name, False)
    return scenarios


def parse_expected(path: Path, version: str) -> set[str]:
    """One scenario per line; `# comments`; an optional `@VERSION` suffix limits an entry
    to that spec version."""
    names: set[str] = set()
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, only = line.partition("@")
        if only and only.strip() != version:
            continue
        names.add(name.strip())
    return names


def load_results(results: Path) -> dict[str, Path]:
    """scenario -> its checks.json (the newest, if a folder holds several runs)."""
    found: dict[str, Path] = {}
    for checks in sorted(results.rglob("checks.json")):
        rel = checks.parent.relative_to(results).as_posix()
        found[_STAMP.sub("", rel)] = checks
    return found


def judge(checks_path: Path) -> list[str]:
    checks = json.loads(checks_path.read_text(encoding="utf-8"))
    problems = []
    for check in checks:
        status = check.get("status")
        if status in ("FAILURE", "WARNING"):
            detail = check.get("errorMessage") or check.get("description") or ""
            problems.append(f"{status} {check.get('id')}: {detail}")
    return problems


def evaluate(
    version: str, results: Path, scenarios: dict[str, bool], expected: set[str]
) -> list[Outcome]:
    found = load_results(results)
    outcomes = []
    for name in sorted(set(scenarios) | set(found)):
        scored = scenarios.get(name, False)
        path = found.get(name)
        if path is None:
            outcome = Outcome(name, scored, "missing", problems=["no checks.json was written"])
        else:
            problems = judge(path)
            outcome = Outcome(
                name,
                scored,
                "fail" if problems else "pass",
                problems=problems,
                checks_json=str(path),
            )
        listed = name in expected
        if outcome.status == "pass":
            outcome.verdict = "XPASS" if listed else "PASS"
        else:
            outcome.verdict = "XFAIL" if listed else "FAIL"
        outcomes.append(outcome)
    return outcomes


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--version", required=True)
    parser.add_argument("--results", type=Path, required=True)
    parser.add_argument("--scenarios", type=Path, required=True)
    parser.add_argument("--expected", type=Path, required=True)
    parser.add_argument("--strict", action="store_true", help="unexpected passes fail too")
    ns = parser.parse_args()

    scenarios = parse_list(ns.scenarios.read_text(encoding="utf-8"))
    if not scenarios:
        print(f"error: no client scenarios in {ns.scenarios}", file=sys.stderr)
        return 2
    expected = parse_expected(ns.expected, ns.version)
    outcomes = evaluate(ns.version, ns.results, scenarios, expected)

    print(f"\n== conformance {ns.version}: client scenarios")
    for o in outcomes:
        tag = "" if o.scored else "  (not scored)"
        print(f"  {o.verdict:5} {o.scenario}{tag}")
        if o.verdict == "FAIL":
            for problem in o.problems[:8]:
                print(f"          {problem}")
            if o.checks_json:
                print(f"          see {Path(o.checks_json).parent}")
    counts = {v: sum(o.verdict == v for o in outcomes) for v in ("PASS", "FAIL", "XFAIL", "XPASS")}
    print(
        f"  {counts['PASS']} passed, {counts['FAIL']} failed, "
        f"{counts['XFAIL']} expected failures, {counts['XPASS']} unexpected passes"
    )
    for o in outcomes:
        if o.verdict == "XPASS":
            print(
                f"  note: {o.scenario} passed but is listed in {ns.expected}; "
                "remove it from the list"
            )
    (ns.results / "summary.json").write_text(
        json.dumps(
            {"version": ns.version, "counts": counts, "scenarios": [asdict(o) for o in outcomes]},
            indent=2,
        ),
        encoding="utf-8",
    )
    bad = counts["FAIL"] + (counts["XPASS"] if ns.strict else 0)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
