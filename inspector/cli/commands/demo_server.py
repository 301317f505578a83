"""`mcp-inspector-qt demo-server [--http HOST:PORT]`: the bundled demo MCP server, over
stdio or streamable HTTP (`inspector.demo`)."""

from __future__ import annotations

import argparse

from inspector.cli.errors import guarded

__all__ = ["run"]


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from inspector.demo.cli import apply_options
    from inspector.demo.cli import run as run_demo

    apply_options(ns)
    return guarded(
        "mcp-inspector-qt demo-server",
        parser,
        lambda: run_demo(ns.http, verbose=ns.verbose, card=ns.server_card),
    )
