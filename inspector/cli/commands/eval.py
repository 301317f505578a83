"""`mcp-inspector-qt eval FILE... -- SERVER`: run evals files (docs/evals.md) with a model
over the server's tools; print each case's pass rate and why each failing run failed (or
`--json`), `--junit OUT.xml` for CI.

Exit codes: 0 every case met its pass rate, 1 a case did not, 2 usage or an invalid evals
file (every problem with its place), 3 the server could not be reached, or was lost during
the runs (the report is printed first: its verdicts judge the model's choices only; 5:
connecting timed out); 130 / 143 interrupted (the runs in flight stop; what ran is reported).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
from pathlib import Path

from inspector.cli.errors import EXIT_USAGE, CommandFailed, UsageError, diag, guarded
from inspector.cli.host_session import (
    EXIT_CONNECTION,
    approver_from_args,
    host_server,
    model_from_args,
)
from inspector.cli.interrupts import Interrupts
from inspector.cli.reports import print_json, print_text
from inspector.evals.cases import EvalCase, EvalsFileError, load_evals
from inspector.evals.report import EvalReport, report_json, report_junit, report_text
from inspector.evals.runner import EvalRun, EvalRunner, EvalSettings
from inspector.host.model import ProviderModel

__all__ = ["run"]


def _cases(paths: list[str]) -> list[EvalCase]:
    """Every case of every file; a name two files share gets its file's stem in front."""
    files = []
    problems = []
    for path in paths:
        try:
            files.append(load_evals(path))
        except EvalsFileError as exc:
            problems.append(f"error: invalid evals file: {exc}")
    if problems:
        raise CommandFailed("\n".join(problems), EXIT_USAGE)
    seen: set[str] = set()
    cases = []
    for evals in files:
        for case in evals.cases:
            if case.name in seen:
                case = dataclasses.replace(case, name=f"{Path(evals.source).stem}/{case.name}")
            seen.add(case.name)
            cases.append(case)
    return cases


async def _run(ns: argparse.Namespace, model: ProviderModel, cases: list[EvalCase]) -> int:
    with Interrupts() as interrupts:
        async with host_server(ns, model) as server:
            runner = EvalRunner(
                model,
                server.table,
                EvalSettings(
                    model=ns.model,
                    provider=model.provider.label,
                    system=ns.system,
                    include_instructions=not ns.no_instructions,
                    policy=ns.approve,
                    max_steps=ns.max_steps,
                    tool_timeout=ns.timeout,
                    concurrency=ns.concurrency,
                ),
                approver_from_args(ns),
            )
            interrupts.on_stop = runner.stop

            def said(run: EvalRun) -> None:
                if ns.verbose:
                    mark = "pass" if run.verdict.passed else "fail"
                    diag(f"{run.case.name} #{run.number}: {mark} ({run.seconds:.1f} s)")

            report = await runner.run(cases, on_run=said)
            lost = server.conn.closed
        _print(ns, report)
        if interrupts.signum is not None:
            diag("interrupted: the runs in flight were stopped")
            return 128 + interrupts.signum
        if lost is not None:
            # The verdicts judge the model's choices; calls after this went nowhere.
            diag(f"error: the connection to the server was lost: {lost.reason}")
            return EXIT_CONNECTION
        return 0 if report.passed else 1


def _print(ns: argparse.Namespace, report: EvalReport) -> None:
    if ns.junit:
        try:
            Path(ns.junit).write_text(report_junit(report), encoding="utf-8")
        except OSError as exc:
            diag(f"error: --junit {ns.junit}: {exc.strerror or exc}")
    if ns.json:
        print_json(report_json(report))
    else:
        for line in report_text(report).rstrip("\n").split("\n"):
            print_text(line)


def _main(ns: argparse.Namespace) -> int:
    if ns.server_command and ns.server_command[0] == "--":
        ns.server_command = ns.server_command[1:]
    if not ns.files:
        raise UsageError("give one or more evals FILEs (docs/evals.md)")
    if ns.concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    model = model_from_args(ns)
    cases = _cases(ns.files)
    return asyncio.run(_run(ns, model, cases))


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt eval", parser, lambda: _main(ns))
