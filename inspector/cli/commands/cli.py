"""`mcp-inspector-qt cli ...`: the light entry point. The method's usage is checked and
the server started (`early_server`) before the machinery that runs the method is
imported (`inspector.cli.method_run`), so that the two overlap."""

from __future__ import annotations

import argparse
import asyncio

from inspector.cli.early_server import start_early
from inspector.cli.errors import guarded
from inspector.cli.method_usage import check_usage

__all__ = ["run"]


async def _run(ns: argparse.Namespace) -> int:
    check_usage(ns)
    early = await start_early(ns)
    try:
        from inspector.cli.method_run import (
            run_cli,  # the heavy part, loaded while the server starts
        )

        return await run_cli(ns, early)
    finally:
        if early is not None:
            await early.close()  # idempotent: a no-op when the session closed it


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run one method, print its JSON result, exit with its code."""
    return guarded("mcp-inspector-qt cli", parser, lambda: asyncio.run(_run(ns)))
