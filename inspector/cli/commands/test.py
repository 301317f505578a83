"""`mcp-inspector-qt test`: run a collection of saved calls against a server, one line per
call and a summary (or `--json`), `--junit OUT.xml` for CI, `--update-snapshots`; and
`test --from-session SESSION.jsonl --write COLLECTION` to make a collection from a
recorded session.

Exit codes: 0 every call passed, 1 an assertion failed, 2 usage or an invalid collection
(file, line, what is wrong), 3 the server could not be reached, 5 a timeout; 130 / 143
interrupted by Ctrl+C / SIGTERM: the request in flight is cancelled, the server stopped,
and what ran is printed with the summary.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from inspector.cli.diagnostics import SessionDiagnostics
from inspector.cli.errors import EXIT_USAGE, CommandFailed, UsageError, diag, guarded
from inspector.cli.interrupts import Interrupts
from inspector.cli.profile_args import cli_timeouts, target_profile
from inspector.cli.reports import print_json, print_text, write_report_files
from inspector.collections.collection import Collection
from inspector.collections.file import CollectionError, load_collection, save_collection
from inspector.collections.from_session import collection_from_session
from inspector.collections.results import CallResult, RunReport
from inspector.collections.runner import CollectionRunner
from inspector.collections.snapshots import rejudge, update_snapshots
from inspector.common.terminal_text import terminal_text
from inspector.core.server_connection import (
    ConnectError,
    ConnectTimeout,
    ServerConnection,
    close_within,
    open_connection,
)
from inspector.recording.reader import SessionFileError, read_session
from inspector.transports.base import TransportError

__all__ = ["run"]


def _from_session(ns: argparse.Namespace) -> int:
    if ns.collection or ns.server_command or ns.url or ns.profile:
        raise UsageError("--from-session makes a collection; it takes no COLLECTION or server")
    if not ns.write:
        raise UsageError("--from-session needs --write COLLECTION (where to write it)")
    target = Path(ns.write)
    if target.exists() and not ns.force:
        raise UsageError(f"{target} exists: give --force to replace it")
    try:
        recorded = read_session(ns.from_session)
    except SessionFileError as exc:
        raise UsageError(str(exc)) from exc
    conversion = collection_from_session(recorded, name=target.name.split(".")[0])
    for problem in recorded.problems:
        diag(f"note: {ns.from_session}: {problem}")
    for note in conversion.notes:
        diag(f"note: {note}")
    try:
        save_collection(target, conversion.collection)
    except OSError as exc:
        raise CommandFailed(
            f"error: cannot write {target}: {exc.strerror or exc}", EXIT_USAGE
        ) from None
    calls = conversion.collection.calls
    catalog = sum(c.kind == "catalog" for c in calls)
    print_text(
        f"wrote {target}: {len(calls) - catalog} call(s) and {catalog} catalog entr"
        f"{'y' if catalog == 1 else 'ies'} from {ns.from_session} ({conversion.era} era)"
    )
    return 0


def _print_result(ns: argparse.Namespace, result: CallResult) -> None:
    if ns.json:
        return
    print_text(result.line())
    if result.cancelled:
        return  # the line says it all: "STOP  name  cancelled: interrupted by SIGINT"
    if not result.passed:
        # Lines where the report breaks them, not at a server's \r, \x85 or \u2028.
        for line in terminal_text(result.failure_text(), keep="\n").split("\n"):
            print_text(f"    {line}")
    elif ns.verbose:
        for verdict in result.assertions:
            print_text(f"    ok: {verdict.label}: {verdict.message}")


def _stopped(interrupts: Interrupts, report: RunReport) -> RunReport:
    """The report, marked stopped when a signal came (its exit code 128 + the signal)."""
    if interrupts.signum is not None:
        report.stopped = report.stopped or interrupts.reason
        report.stop_exit = 128 + interrupts.signum
    return report


async def _run(ns: argparse.Namespace, collection: Collection) -> RunReport:
    # Ctrl+C and SIGTERM during a run: the first stops the runner (the request in flight is
    # cancelled, no further call sent), or, while connecting, cancels the connect; the
    # session is then closed (the server stopped) and the report printed. Later signals are
    # noted and ignored: the close is bounded.
    with Interrupts(
        stopping="cancelling the call in flight and stopping the server",
        already="already stopping (the server is being shut down)",
    ) as interrupts:
        try:
            return _stopped(interrupts, await _run_with(ns, collection, interrupts))
        except asyncio.CancelledError:
            if interrupts.signum is None:
                raise
            return _stopped(interrupts, RunReport(collection=collection.name))


async def _run_with(
    ns: argparse.Namespace, collection: Collection, interrupts: Interrupts
) -> RunReport:
    profile, secrets = target_profile(ns, default_era=collection.era or "legacy")
    profile.timeouts = cli_timeouts(ns.timeout)
    report = RunReport(collection=collection.name)
    # As in `cli`: invalid frames and protocol violations are said on stderr, never hidden.
    diagnostics = SessionDiagnostics(False, "stdio" if profile.transport == "stdio" else "http")

    def observe(conn: ServerConnection) -> None:
        conn.add_listener(diagnostics)

    try:
        session = await open_connection(
            profile, secrets, timeout=ns.timeout, before_connect=observe
        )
    except TransportError as exc:
        report.unreachable = str(exc)
        return report
    except ConnectTimeout as exc:
        report.unreachable = diagnostics.connect_failure(str(exc))
        report.connect_timed_out = True
        return report
    except ConnectError as exc:
        report.unreachable = diagnostics.connect_failure(str(exc))
        return report
    try:
        runner = CollectionRunner(session, timeout=ns.timeout)
        interrupts.on_stop = lambda: runner.stop(interrupts.reason)
        report = await runner.run(collection, on_result=lambda r: _print_result(ns, r))
    finally:
        await close_within(session)
    return report


def _update(ns: argparse.Namespace, collection: Collection, report: RunReport) -> None:
    changed = update_snapshots(collection, report.results)
    if not changed:
        diag("--update-snapshots: every snapshot already matches")
        return
    save_collection(ns.collection, collection)
    for result in report.results:
        call = collection.call(result.name)
        if result.name in changed and call is not None:
            rejudge(result, call)
    diag(f"--update-snapshots: updated {len(changed)} call(s): {', '.join(changed)}")


def _finish(ns: argparse.Namespace, collection: Collection, report: RunReport) -> int:
    if report.stopped is not None and ns.update_snapshots:
        diag("--update-snapshots: the run was interrupted; no snapshot was written")
    elif ns.update_snapshots and report.unreachable is None:
        try:
            _update(ns, collection, report)
        except OSError as exc:
            diag(f"error: cannot write {ns.collection}: {exc.strerror or exc}")
    write_report_files(ns, report)
    if ns.json:
        print_json(report.to_json())
    elif report.unreachable is None:
        print_text(report.summary())
    if report.stopped is not None:
        diag(f"{report.stopped}: the server was stopped")
    elif report.unreachable is not None:
        diag(f"error: could not reach the server: {report.unreachable}")
    return report.exit_code


def _main(ns: argparse.Namespace) -> int:
    if ns.server_command and ns.server_command[0] == "--":
        ns.server_command = ns.server_command[1:]
    if ns.timeout <= 0:
        raise UsageError("--timeout must be positive")
    if ns.from_session:
        return _from_session(ns)
    if ns.write:
        raise UsageError("--write goes with --from-session")
    if not ns.collection:
        raise UsageError("give a COLLECTION file (or --from-session SESSION --write FILE)")
    try:
        collection = load_collection(ns.collection)
    except CollectionError as exc:
        raise CommandFailed(f"error: invalid collection: {exc}", EXIT_USAGE) from None
    if not ns.server_command and not ns.url and not ns.profile:
        raise UsageError("no server: give a command after --, --url URL or --profile NAME")
    if not collection.calls:
        diag(f"note: {ns.collection} has no calls; nothing to run")
    report = asyncio.run(_run(ns, collection))
    return _finish(ns, collection, report)


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt test", parser, lambda: _main(ns))
