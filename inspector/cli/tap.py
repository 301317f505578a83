"""`mcp-inspector-qt tap`: put the inspector on the wire between a host and its server.

    tap [--name NAME] [--session-file FILE] -- COMMAND [ARGS...]

The host runs this where it ran COMMAND. Our own words go before `--`; everything after it
is the server's command, passed on untouched. Nothing is ever printed to stdout (it is the
protocol stream); the tap's own messages go to stderr, prefixed `mcp-inspector-qt tap:`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from inspector.recording.retention import new_session_path
from inspector.storage.paths import sessions_dir
from inspector.tap.relay import TapOptions, exit_like, run_stdio_tap

__all__ = ["TAP_USAGE", "build_tap_parser", "run_tap"]

TAP_USAGE: Final = "mcp-inspector-qt tap [--name NAME] [--session-file FILE] -- COMMAND [ARGS...]"
EXIT_USAGE: Final = 2
BUDGET_ENV: Final = "MCP_INSPECTOR_TAP_BUDGET"


def build_tap_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcp-inspector-qt tap",
        usage=TAP_USAGE,
        description="Relay a stdio MCP server byte for byte between its host (Claude "
        "Desktop, an IDE) and the server, recording every frame to a live session file "
        "that the app can follow (File ▸ Live Taps) or open later.",
    )
    parser.add_argument("--name", default="", help="how the app lists this tap")
    parser.add_argument(
        "--session-file",
        metavar="FILE",
        help="where to record (default: a new file in the app's sessions folder)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="after the host closes stdin, wait this long for the server before SIGTERM",
    )
    return parser


def _split(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    argv = list(argv)
    if "--" not in argv:
        return argv, []
    cut = argv.index("--")
    return argv[:cut], argv[cut + 1 :]


def _err(text: str) -> None:
    sys.stderr.write(f"mcp-inspector-qt tap: {text}\n")
    sys.stderr.flush()


def default_session_file(name: str) -> Path:
    folder = sessions_dir()
    return new_session_path(folder, f"tap-{name}")


def _budget() -> int | None:
    """`MCP_INSPECTOR_TAP_BUDGET`: how many bytes the recording may fall behind before it
    drops to gap markers (default 64 MiB; tests make it tiny)."""
    value = os.environ.get(BUDGET_ENV, "")
    return int(value) if value.isdigit() else None


def run_tap(argv: Sequence[str]) -> int:
    ours, command = _split(argv)
    parser = build_tap_parser()
    ns = parser.parse_args(ours)  # exits 2 on a usage error
    if not command:
        parser.print_usage(sys.stderr)
        _err("give the server's command after --")
        return EXIT_USAGE
    name = ns.name or Path(command[0]).name
    session_file = Path(ns.session_file) if ns.session_file else default_session_file(name)
    options = TapOptions(
        command=command,
        session_file=session_file,
        name=name,
        grace=ns.grace,
        budget=_budget(),
    )
    try:
        code = run_stdio_tap(options)
    except OSError as exc:
        _err(str(exc))
        return 1
    return exit_like(code)
