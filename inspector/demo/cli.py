"""The demo server's command line: ``python -m inspector.demo [--http HOST:PORT] [--verbose]``
(also ``mcp-inspector-qt demo-server``). Stdio by default; ``--http`` serves streamable HTTP
on a loopback address and writes its URL as the first line of stdout."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

__all__ = ["add_demo_arguments", "main"]

_log = logging.getLogger("inspector.demo")


def add_demo_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (loopback only; "
        "port 0 picks a free port; the URL is printed on stdout)",
    )
    parser.add_argument(
        "--ttl-ms",
        type=int,
        metavar="MS",
        help="modern era: the ttlMs of list and read results (default 0: always stale)",
    )
    parser.add_argument(
        "--cache-scope",
        choices=("public", "private"),
        help="modern era: the cacheScope of list and read results (default public)",
    )
    parser.add_argument(
        "--server-card",
        metavar="FILE",
        help="HTTP: serve FILE's bytes as the Server Card (draft) at /mcp/server-card instead "
        "of the demo's own; 'none' serves no card (404)",
    )
    parser.add_argument("--verbose", action="store_true", help="debug diagnostics on stderr")


def apply_options(ns: argparse.Namespace) -> None:
    """The cache hints asked for on the command line (process-wide: one demo per process)."""
    from inspector.demo.output import CACHE_HINTS

    if getattr(ns, "ttl_ms", None) is not None:
        CACHE_HINTS["ttlMs"] = ns.ttl_ms
    if getattr(ns, "cache_scope", None) is not None:
        CACHE_HINTS["cacheScope"] = ns.cache_scope


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m inspector.demo",
        description="The mcp-inspector-qt demo MCP server (stdio or HTTP, both protocol eras).",
    )
    add_demo_arguments(parser)
    args = parser.parse_args(argv)
    apply_options(args)
    return run(args.http, verbose=args.verbose, card=args.server_card)


def run(http: str | None, *, verbose: bool = False, card: str | None = None) -> int:
    logging.basicConfig(  # force: as `mcp-inspector-qt demo-server`, main() configured it first
        force=True,
        stream=sys.stderr,
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s demo %(levelname)s: %(message)s",
    )
    try:
        if http is None:
            from inspector.demo.server import DemoServer  # here: the app's parser imports us

            return DemoServer(sys.stdin.buffer, sys.stdout.buffer).run()
        return _serve_http(http, card)
    except KeyboardInterrupt:
        return 130


def _serve_http(address: str, card: str | None = None) -> int:
    from inspector.demo.http import DemoHttpServer, parse_address

    try:
        host, port = parse_address(address)
        server = DemoHttpServer(host, port)
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"demo-server: cannot listen on {address}: {exc}\n")
        return 2
    if card is not None:
        try:
            server.card = None if card == "none" else Path(card).read_bytes()
        except OSError as exc:
            sys.stderr.write(f"demo-server: cannot read the card {card}: {exc}\n")
            return 2
    sys.stdout.write(server.url + "\n")
    sys.stdout.flush()
    _log.info("demo server listening on %s", server.url)
    try:
        server.serve_forever()
    finally:
        server.close_all()
        server.server_close()
    return 0
