"""`mcp-inspector-qt replay FILE [--use-recorded-command | --url URL | -- COMMAND ...]`.

Exit codes: 0 no drift, 1 drift (or a tool result that breaks its tool's outputSchema,
checked as the SDK clients do), 2 usage (or an unreadable session file), 3 could not
connect. A recorded command is never launched unless `--use-recorded-command` says so:
the file may come from someone else.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from inspector.cli.arg_words import header_values
from inspector.cli.diagnostics import SessionDiagnostics
from inspector.cli.errors import EXIT_USAGE, CommandFailed, UsageError, diag, guarded
from inspector.cli.reports import print_text
from inspector.cli.sampling_args import ModelExchanges, sampling_responder
from inspector.cli.session_input import read_session_file
from inspector.core.replays import connect_and_replay
from inspector.core.server_connection import ConnectError, PolicyResponder, ServerConnection
from inspector.recording.diff import DEFAULT_IGNORES, IgnoreRules
from inspector.recording.reader import RecordedSession
from inspector.recording.replay import CallOutcome
from inspector.recording.replay_target import ReplayTarget, recorded_target
from inspector.transports.base import Transport, TransportError
from inspector.transports.url_check import check_url

__all__ = ["run"]

EXIT_NO_DRIFT = 0
EXIT_DRIFT = 1
EXIT_CONNECTION = 3


def _target(ns: argparse.Namespace, recorded: RecordedSession) -> ReplayTarget:
    command = list(ns.server_command)
    if command and command[0] == "--":
        command = command[1:]
    chosen = sum(bool(x) for x in (command, ns.url, ns.use_recorded_command))
    if chosen != 1:
        raise ValueError(
            "say where to replay: a command after --, --url URL, or --use-recorded-command"
        )
    headers = header_values(ns.header)
    if headers and command:
        raise ValueError("--header applies to HTTP servers (--url, or a recorded URL)")
    if ns.url:
        check_url(ns.url)
        return ReplayTarget("http", url=ns.url, headers=headers)
    if command:
        return ReplayTarget("stdio", argv=tuple(command))
    target = recorded_target(
        recorded,
        headers,
        give_command="give the command after -- instead",
        give_url="give it with --url",
    )
    for note in target.notes:
        diag(f"note: {note} (--header 'Name: value')")
    return target


async def _run(ns: argparse.Namespace, recorded: RecordedSession, transport: Transport) -> int:
    patterns = list(ns.ignore) + ([] if ns.no_default_ignores else list(DEFAULT_IGNORES))

    def progress(done: int, total: int, outcome: CallOutcome) -> None:
        diag(f"[{done}/{total}] {outcome.call.label}: {outcome.status}")

    # As in `cli`: invalid frames and protocol violations are said on stderr, never hidden.
    diagnostics = SessionDiagnostics(False, transport.kind)

    def with_model(session: ServerConnection) -> None:
        session.add_listener(diagnostics)
        # --sampling-*: the server's sampling asks go to the model, not to the recorded
        # answers (the rest still come from the recording).
        exchanges = ModelExchanges()
        exchanges.session = session
        model = sampling_responder(
            ns, session.responder, request_timeout=ns.timeout, on_exchange=exchanges
        )
        if model is not None:
            session.responder = model

    try:
        report = await connect_and_replay(
            recorded,
            transport,
            ignore=IgnoreRules(patterns),
            timeout=ns.timeout,
            on_progress=progress,
            on_session=with_model,
        )
    except ConnectError as exc:
        reason = diagnostics.connect_failure(str(exc))
        raise CommandFailed(f"error: could not connect: {reason}", EXIT_CONNECTION) from None
    print_text(report.summary())
    if ns.report:
        Path(ns.report).write_text(json.dumps(report.to_dict(), indent=2, default=str))
    return EXIT_DRIFT if report.drifted else EXIT_NO_DRIFT


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt replay", parser, lambda: _main(ns))


def _main(ns: argparse.Namespace) -> int:
    try:
        sampling_responder(ns, PolicyResponder(), request_timeout=ns.timeout)  # usage first
    except UsageError as exc:
        raise CommandFailed(f"error: {exc}", EXIT_USAGE) from None
    recorded = read_session_file(ns.file, notes=False)
    try:
        IgnoreRules(ns.ignore)
        target = _target(ns, recorded)
    except (ValueError, UsageError, TransportError) as exc:
        raise CommandFailed(f"error: {exc}", EXIT_USAGE) from None
    try:
        transport = target.transport()
    except TransportError as exc:  # an empty command, which nothing can start
        raise CommandFailed(f"error: could not connect: {exc}", EXIT_CONNECTION) from None
    return asyncio.run(_run(ns, recorded, transport))
