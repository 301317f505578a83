"""The demo server's command line: ``python -m inspector.demo [--http HOST:PORT] [--verbose]``
(also ``mcp-inspector-qt demo-server``). Stdio by default; ``--http`` serves streamable HTTP
on a loopback address and writes its URL as the first line of stdout."""

from __future__ import annotations

import argparse
import logging
import sys

__all__ = ["add_demo_arguments", "main"]

_log = logging.getLogger("inspector.demo")


def add_demo_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (loopback only; "
        "port 0 picks a free port; the URL is printed on stdout)",
    )
    parser.add_argument("--verbose", action="store_true", help="debug diagnostics on stderr")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m inspector.demo",
        description="The mcp-inspector-qt demo MCP server (stdio or HTTP, both protocol eras).",
    )
    add_demo_arguments(parser)
    args = parser.parse_args(argv)
    return run(args.http, verbose=args.verbose)


def run(http: str | None, *, verbose: bool = False) -> int:
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
        return _serve_http(http)
    except KeyboardInterrupt:
        return 130


def _serve_http(address: str) -> int:
    from inspector.demo.http import DemoHttpServer, parse_address

    try:
        host, port = parse_address(address)
        server = DemoHttpServer(host, port)
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"demo-server: cannot listen on {address}: {exc}\n")
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
