"""The command line's words: every subcommand's arguments, the exit codes, usage errors.

The `cli` vocabulary follows the official Inspector CLI (`--method`, `--tool-name`,
`--tool-arg k=v`, `--uri`, `--prompt-name`, `--prompt-args`, `--log-level`) so users can
switch easily. `gui` is parsed here too (it needs no Qt to parse); `inspector.__main__`
dispatches each subcommand to its module.
"""

from __future__ import annotations

import argparse
from typing import Final

from inspector import __version__
from inspector.cli.auth import add_auth_arguments, add_logout_parser
from inspector.cli.check_command import add_check_parser
from inspector.cli.export import add_export_parser
from inspector.cli.replay import add_replay_parser
from inspector.cli.usage import UsageError
from inspector.protocol.log_levels import LOG_LEVELS
from inspector.protocol.methods import CLI_METHODS
from inspector.protocol.versions import LEGACY_VERSIONS, EraSetting

__all__ = [
    "EXIT_CODES",
    "EXIT_CONNECTION",
    "EXIT_OK",
    "EXIT_RPC_ERROR",
    "EXIT_TIMEOUT",
    "EXIT_TOOL_ERROR",
    "EXIT_USAGE",
    "METHODS",
    "UsageError",
    "build_parser",
]

EXIT_OK: Final = 0
EXIT_TOOL_ERROR: Final = 1
EXIT_USAGE: Final = 2
EXIT_CONNECTION: Final = 3
EXIT_RPC_ERROR: Final = 4
EXIT_TIMEOUT: Final = 5
EXIT_CODES: Final = {
    EXIT_OK: "ok",
    EXIT_TOOL_ERROR: "the tool result has isError: true",
    EXIT_USAGE: "usage error",
    EXIT_CONNECTION: "connection or transport failure",
    EXIT_RPC_ERROR: "the server answered with a JSON-RPC error",
    EXIT_TIMEOUT: "timeout",
}

METHODS: Final = CLI_METHODS


def build_parser() -> argparse.ArgumentParser:
    epilog = "exit codes:\n" + "\n".join(f"  {k}  {v}" for k, v in EXIT_CODES.items())
    parser = argparse.ArgumentParser(
        prog="mcp-inspector-qt",
        description="Inspect and debug Model Context Protocol servers.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command")
    cli = sub.add_parser(
        "cli",
        help="run one MCP method headlessly and print the JSON result",
        usage="mcp-inspector-qt cli --method METHOD [options] -- COMMAND [ARGS...]\n"
        "       mcp-inspector-qt cli --method METHOD --url URL [--header 'K: V']",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cli.add_argument("--method", required=True, choices=METHODS, metavar="METHOD")
    target = cli.add_argument_group("server")
    target.add_argument("--url", help="an HTTP server URL (streamable HTTP or SSE)")
    target.add_argument(
        "--transport", choices=("auto", "stdio", "streamable-http", "sse"), default="auto"
    )
    target.add_argument("--header", action="append", default=[], metavar="'K: V'")
    add_auth_arguments(cli)
    target.add_argument("--env", action="append", default=[], metavar="K=V")
    target.add_argument("--full-env", action="store_true", help="pass the whole environment")
    target.add_argument("--cwd")
    target.add_argument(
        "--max-message-mb",
        type=int,
        default=64,
        metavar="MIB",
        help="the largest message accepted; bigger ones are cut and flagged (default 64)",
    )
    proto = cli.add_argument_group("protocol")
    proto.add_argument("--era", choices=[e.value for e in EraSetting], default="legacy")
    proto.add_argument(
        "--protocol-version",
        choices=LEGACY_VERSIONS,
        help="legacy version to offer in initialize (default: the newest)",
    )
    proto.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS")
    proto.add_argument(
        "--override",
        action="store_true",
        help="send even if the server did not declare the capability",
    )
    proto.add_argument(
        "--answers",
        metavar="FILE",
        help='JSON answers for server asks: {"sampling": ..., "elicitation": ..., "roots": ...}'
        " (default: decline)",
    )
    proto.add_argument("--root", action="append", default=[], metavar="URI")
    args_group = cli.add_argument_group("method arguments")
    args_group.add_argument("--tool-name")
    args_group.add_argument("--tool-arg", action="append", default=[], metavar="K=V")
    args_group.add_argument("--tool-args-json", metavar="JSON")
    args_group.add_argument("--uri")
    args_group.add_argument("--prompt-name")
    args_group.add_argument("--prompt-args", action="append", default=[], metavar="K=V")
    args_group.add_argument("--uri-template", help="completion/complete: a template reference")
    args_group.add_argument("--argument-name", help="completion/complete: the argument")
    args_group.add_argument("--argument-value", default="", help="completion/complete: prefix")
    args_group.add_argument("--context-arg", action="append", default=[], metavar="K=V")
    args_group.add_argument("--log-level", choices=LOG_LEVELS)
    out = cli.add_argument_group("output")
    out.add_argument("-v", "--verbose", action="store_true", help="show server stderr, traffic")
    out.add_argument("--compact", action="store_true", help="print JSON on one line")
    out.add_argument(
        "--record", metavar="FILE", help="record the session to FILE (JSON Lines; replayable)"
    )
    cli.add_argument("server_command", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARGS...]")
    gui = sub.add_parser(
        "gui",
        help="open the desktop app (the default with no command)",
        description="Open the desktop app; optionally connect at once and take a screenshot.",
    )
    gui_target = gui.add_mutually_exclusive_group()
    gui_target.add_argument("--profile", metavar="NAME", help="connect to a saved profile")
    gui_target.add_argument("--stdio", metavar='"CMD"', help="connect to this stdio command")
    gui_target.add_argument("--url", help="connect to this HTTP server URL")
    gui.add_argument(
        "--screenshot",
        metavar="PATH",
        help="connect, wait for server info and tools, save a PNG of the window and exit",
    )
    gui.add_argument(
        "--open",
        metavar="KIND:KEY",
        help="screenshot mode: select tool:NAME, resource:URI, template:URI-TEMPLATE or "
        "prompt:NAME and show its form",
    )
    gui.add_argument(
        "--call-args",
        metavar="JSON",
        help="screenshot mode, with --open: call (read, get) it with these arguments and "
        "wait for the result",
    )
    gui.add_argument("--theme", choices=("system", "light", "dark"), help="color theme")
    gui.add_argument(
        "--timeout", type=float, default=30.0, metavar="SECONDS", help="screenshot mode wait"
    )
    sub.add_parser("demo-server", help="run the bundled demo MCP server on stdio")
    add_replay_parser(sub)
    add_logout_parser(sub)
    add_export_parser(sub)
    add_check_parser(sub)
    return parser
