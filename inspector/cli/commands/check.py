"""`mcp-inspector-qt check`: the battery of checks against one server, as a table (or
`--json`), with `--junit OUT.xml` for CI.

Exit codes: 0 every check passed, 1 a check failed, 2 usage, 3 the server could not be
reached.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from inspector.check.battery import run_battery
from inspector.check.probe import CheckOptions
from inspector.check.report import CheckResult, Status
from inspector.cli.diagnostics import diag
from inspector.cli.profile_args import cli_timeouts, target_profile
from inspector.cli.usage import UsageError

__all__ = ["run_check_command"]


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
    if ns.junit:
        try:
            Path(ns.junit).write_text(report.junit(), encoding="utf-8")
        except OSError as exc:
            diag(f"error: --junit {ns.junit}: {exc.strerror or exc}")
    if ns.json:
        sys.stdout.write(json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(report.table() + "\n")
    sys.stdout.flush()
    if report.unreachable is not None:
        diag(f"error: could not reach the server: {report.unreachable}")
    elif report.count(Status.FAILED):
        diag(f"{report.count(Status.FAILED)} check(s) failed")
    return report.exit_code


def run_check_command(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    try:
        return asyncio.run(_run(ns))
    except UsageError as exc:
        parser.print_usage(sys.stderr)
        diag(f"mcp-inspector-qt check: error: {exc}")
        return 2
    except KeyboardInterrupt:
        diag("interrupted")
        return 130
