"""`mcp-inspector-qt check`: the battery of checks against one server, as a table (or
`--json`), with `--junit OUT.xml` for CI.

Exit codes: 0 every check passed, 1 a check failed, 2 usage, 3 the server could not be
reached.
"""

from __future__ import annotations

import argparse
import asyncio

from inspector.check.battery import run_battery
from inspector.check.probe import CheckOptions
from inspector.check.report import CheckResult, Status
from inspector.cli.errors import UsageError, diag, guarded
from inspector.cli.profile_args import cli_timeouts, target_profile
from inspector.cli.reports import print_json, print_text, write_report_files
from inspector.compare.security_scan import target_place

__all__ = ["run"]


async def _run(ns: argparse.Namespace) -> int:
    if ns.server_command and ns.server_command[0] == "--":
        ns.server_command = ns.server_command[1:]
    if ns.timeout <= 0:
        raise UsageError("--timeout must be positive")
    profile, secrets = target_profile(ns)
    profile.timeouts = cli_timeouts(ns.timeout)
    options = CheckOptions(
        call_read_only=ns.call_read_only, timeout=ns.timeout, check_timeout=ns.timeout * 3
    )

    def progress(result: CheckResult) -> None:
        if ns.verbose:
            diag(f"{result.status.value}: {result.id} ({result.seconds:.1f} s)")

    report = await run_battery(profile, options, secrets=secrets, progress=progress)
    report.place = target_place(profile)  # where SARIF puts its results, as scan does
    write_report_files(ns, report)
    if ns.json:
        print_json(report.to_json())
    else:
        print_text(report.table())
    if report.unreachable is not None:
        diag(f"error: could not reach the server: {report.unreachable}")
    elif report.count(Status.FAILED):
        diag(f"{report.count(Status.FAILED)} check(s) failed")
    return report.exit_code


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt check", parser, lambda: asyncio.run(_run(ns)))
