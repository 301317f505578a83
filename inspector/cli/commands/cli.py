"""`mcp-inspector-qt cli ...`: the light entry point. The method's usage is checked and
the server started (`early_server`) before the machinery that runs the method is
imported (`inspector.cli.run`), so that the two overlap."""

from __future__ import annotations

import argparse
import asyncio
import sys

from inspector.cli.cli_usage import check_usage
from inspector.cli.early_server import start_early
from inspector.cli.parser import EXIT_USAGE
from inspector.cli.usage import UsageError, diag

__all__ = ["run_cli_command"]


async def _run(ns: argparse.Namespace) -> int:
    check_usage(ns)
    early = await start_early(ns)
    try:
        from inspector.cli.run import run_cli  # the heavy part, loaded while the server starts

        return await run_cli(ns, early)
    finally:
        if early is not None:
            await early.close()  # idempotent: a no-op when the session closed it


def run_cli_command(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run one method, print its JSON result, exit with its code."""
    try:
        return asyncio.run(_run(ns))
    except UsageError as exc:
        parser.print_usage(sys.stderr)
        diag(f"mcp-inspector-qt: error: {exc}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        diag("interrupted")
        return 130
