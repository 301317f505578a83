"""`mcp-inspector-qt watch`: restart a stdio server when its files change, and print, for
each restart, what changed in its catalog and the collection's results (`--json`: one JSON
line per restart). Runs until Ctrl+C or SIGTERM, which stop the server (its shutdown
ladder) and exit 0. Exit 2: usage, a path that does not exist, an invalid collection.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from pathlib import Path

from inspector.cli.errors import UsageError, diag, guarded
from inspector.cli.profile_args import profile_from_args
from inspector.cli.reports import print_json, print_text
from inspector.core.connection import ConnectionModel
from inspector.watch.changes import ChangeFeed
from inspector.watch.paths import WatchSpecError
from inspector.watch.report import RunReport
from inspector.watch.supervisor import CollectionStep, WatchOptions, WatchSupervisor
from inspector.watch.target import spec_for

__all__ = ["run"]


class _Printer:
    """Each run on stdout: its summary and details as text, or one JSON line."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json

    def __call__(self, report: RunReport) -> None:
        if self.as_json:
            print_json(report.to_json(), one_line=True)
        else:
            print_text(report.details() + "\n")


def _profile_args(ns: argparse.Namespace) -> None:
    """The words `profile_from_args` reads that `watch` does not take (stdio only)."""
    if ns.server_command and ns.server_command[0] == "--":
        ns.server_command = ns.server_command[1:]
    if not ns.server_command:
        raise UsageError("no server: give its command after --")
    ns.url, ns.transport, ns.header, ns.auth = None, "stdio", [], "none"
    ns.root, ns.max_message_mb = [], 64
    if ns.debounce < 0.05:
        raise UsageError("--debounce must be at least 0.05 seconds")
    if ns.timeout <= 0:
        raise UsageError("--timeout must be positive")


async def _run(ns: argparse.Namespace) -> int:
    _profile_args(ns)
    profile = profile_from_args(ns)
    step: CollectionStep | None = None
    ignore: list[Path] = []
    if ns.collection:
        from inspector.watch.collection_step import CollectionFileError, FileCollectionStep

        try:
            step = FileCollectionStep(Path(ns.collection), timeout=ns.timeout)
        except CollectionFileError as exc:
            raise UsageError(str(exc)) from None
        ignore.append(Path(ns.collection))  # updating its snapshots restarts nothing
    try:
        # The GUI's base: the server's cwd, else its script's folder (not the current one);
        # this command's own output (stdout, stderr redirected there) never counts.
        resolved = spec_for(profile, ns.path, ignore).resolve()
    except WatchSpecError as exc:
        raise UsageError(str(exc)) from None
    feed = ChangeFeed(resolved, quiet=ns.debounce)
    model = ConnectionModel()
    supervisor = WatchSupervisor(
        model, profile, feed=feed, collection=step, options=WatchOptions(quiet=ns.debounce)
    )
    supervisor.reports.add(_Printer(ns.json))
    if ns.verbose:
        model.console.add(lambda line: diag(f"server: {line}"))
    supervisor.status.add(lambda text: diag(f"watch: {text}"))
    diag(f"watching {resolved.describe()} (Ctrl+C stops)")

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    watching = loop.create_task(supervisor.run(), name="watch")
    stopping = loop.create_task(stop.wait(), name="watch stop")
    try:
        await asyncio.wait({watching, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        await supervisor.stop()
        for task in (watching, stopping):
            task.cancel()
        await asyncio.gather(watching, stopping, return_exceptions=True)
        model.runner.cancel_all()  # a start under way: its session is closed below
        await model.shutdown()
    if stop.is_set():
        diag("stopped: the server was shut down")
        return 0
    error = watching.exception() if not watching.cancelled() else None
    diag(f"watch: {error or feed.error or 'stopped watching'}")
    return 1


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt watch", parser, lambda: asyncio.run(_run(ns)))
