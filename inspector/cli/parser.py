"""The command line's words: every subcommand's arguments, the exit codes, usage errors.

The `cli` vocabulary follows the official Inspector CLI (`--method`, `--tool-name`,
`--tool-arg k=v`, `--uri`, `--prompt-name`, `--prompt-args`, `--log-level`) so users can
switch easily. `gui` is parsed here too (it needs no Qt to parse); `inspector.__main__`
dispatches each subcommand to its module.
"""

from __future__ import annotations

import argparse
from typing import Any, Final

from inspector import __version__
from inspector.cli.command_args import (
    ERA_CHOICES,
    add_check_parser,
    add_diff_parser,
    add_export_otlp_parser,
    add_export_parser,
    add_export_slice_parser,
    add_logout_parser,
    add_replay_parser,
    add_sampling_arguments,
    add_server_arguments,
    add_test_parser,
    add_watch_parser,
    exit_codes_text,
)
from inspector.cli.errors import EXIT_USAGE, UsageError
from inspector.cli.host_args import add_chat_parser, add_eval_parser
from inspector.common.log_levels import LOG_LEVELS
from inspector.demo.cli import add_demo_arguments
from inspector.protocol.wire.versions import LEGACY_VERSIONS
from inspector.traffic.cli_methods import CLI_METHODS

__all__ = [
    "EXIT_CODES",
    "EXIT_CONNECTION",
    "EXIT_OK",
    "EXIT_OUTPUT_SCHEMA",
    "EXIT_RPC_ERROR",
    "EXIT_TIMEOUT",
    "EXIT_TOOL_ERROR",
    "EXIT_USAGE",
    "METHODS",
    "UsageError",
    "add_gui_arguments",
    "build_parser",
    "merge_top_level_gui_options",
]

EXIT_OK: Final = 0
EXIT_TOOL_ERROR: Final = 1
EXIT_CONNECTION: Final = 3
EXIT_RPC_ERROR: Final = 4
EXIT_TIMEOUT: Final = 5
EXIT_OUTPUT_SCHEMA: Final = 6
EXIT_CODES: Final = {
    EXIT_OK: "ok",
    EXIT_TOOL_ERROR: "the tool result has isError: true",
    EXIT_USAGE: "usage error",
    EXIT_CONNECTION: "connection or transport failure",
    EXIT_RPC_ERROR: "the server answered with a JSON-RPC error",
    EXIT_TIMEOUT: "timeout",
    EXIT_OUTPUT_SCHEMA: "the tool's structuredContent breaks its outputSchema",
}

METHODS: Final = CLI_METHODS


def build_parser() -> argparse.ArgumentParser:
    epilog = exit_codes_text(EXIT_CODES)
    parser = argparse.ArgumentParser(
        prog="mcp-inspector-qt",
        description="Inspect and debug Model Context Protocol servers.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    add_gui_arguments(parser.add_argument_group("desktop app (also: gui --help)"), top_level=True)
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
    add_server_arguments(cli, target, url_help="an HTTP server URL (streamable HTTP or SSE)")
    target.add_argument(
        "--max-message-mb",
        type=int,
        default=64,
        metavar="MIB",
        help="the largest message accepted; bigger ones are cut and flagged (default 64)",
    )
    proto = cli.add_argument_group("protocol")
    proto.add_argument("--era", choices=ERA_CHOICES, default="legacy")
    proto.add_argument(
        "--protocol-version",
        choices=LEGACY_VERSIONS,
        help="legacy version to offer in initialize (default: the newest)",
    )
    proto.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS")
    proto.add_argument(
        "--shutdown-grace",
        type=float,
        default=2.0,
        metavar="SECONDS",
        help="stdio: how long to wait for the server to exit after closing its stdin, before "
        "SIGTERM (then SIGKILL); the spec's shutdown ladder (default 2)",
    )
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
    add_sampling_arguments(cli)
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
        "--record",
        metavar="FILE",
        help="record the session to FILE (JSON Lines; replayable); FILE.gz or FILE.zst "
        "compresses it",
    )
    out.add_argument(
        "--rotate-size",
        metavar="SIZE",
        help="with --record: go on in a new part (FILE.part2.jsonl...) when a part reaches "
        "SIZE (e.g. 100M, 1G)",
    )
    out.add_argument(
        "--rotate-every",
        metavar="DURATION",
        help="with --record: go on in a new part every DURATION (e.g. 1h, 30m, 1d)",
    )
    cli.add_argument("server_command", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARGS...]")
    gui = sub.add_parser(
        "gui",
        help="open the desktop app (the default with no command)",
        description="Open the desktop app; optionally connect at once and take a screenshot.",
    )
    add_gui_arguments(gui)
    gui.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="session files to open read-only, a tab each (`mcp-inspector-qt FILE` too)",
    )
    add_demo_arguments(
        sub.add_parser(
            "demo-server", help="run the bundled demo MCP server (stdio, or --http HOST:PORT)"
        )
    )
    sub.add_parser(  # parsed by inspector.cli.commands.tap (everything after `--` is the server's)
        "tap",
        help="relay a stdio server between its host and it, recording every frame "
        "(mcp-inspector-qt tap --help)",
        add_help=False,
    )
    add_replay_parser(sub)
    add_logout_parser(sub)
    add_export_parser(sub)
    add_export_otlp_parser(sub)
    add_export_slice_parser(sub)
    add_check_parser(sub)
    add_watch_parser(sub)
    add_diff_parser(sub)
    add_test_parser(sub)
    add_chat_parser(sub)
    add_eval_parser(sub)
    return parser


GUI_OPTIONS: Final = (
    "targets",
    "profile",
    "stdio",
    "url",
    "screenshot",
    "open",
    "call_args",
    "tab",
    "theme",
    "timeout",
)
_TOP: Final = "top_"


def add_gui_arguments(
    gui: argparse.ArgumentParser | argparse._ArgumentGroup, *, top_level: bool = False
) -> None:
    """The desktop app's options, for `gui` and for the bare command (which opens the app).

    At the top level they are stored under `top_<name>` with no default, so a subcommand's
    own `--url` or `--timeout` never collides with them; `merge_top_level_gui_options`
    moves them into place."""
    targets_dest = (_TOP if top_level else "") + "targets"

    def add_target(name: str, metavar: str, help_text: str) -> None:
        """--profile, --stdio, --url: each may repeat (a tab per target, in the order
        given, kept in `targets` as (kind, value)); `name` keeps the first of its kind."""
        dest = (_TOP if top_level else "") + name
        gui.add_argument(
            "--" + name,
            dest=dest,
            metavar=metavar,
            default=None,
            action=_TargetAction,
            targets_dest=targets_dest,
            kind=name,
            help=help_text,
        )

    def add(
        into: argparse._ActionsContainer, name: str, default: float | None = None, **kw: Any
    ) -> None:
        flag = "--" + name.replace("_", "-")
        if top_level:
            into.add_argument(flag, dest=_TOP + name, default=None, **kw)
        else:
            into.add_argument(flag, default=default, **kw)

    add_target("profile", "NAME", "connect to a saved profile (repeat: a tab each)")
    add_target("stdio", '"CMD"', "connect to this stdio command (repeat: a tab each)")
    add_target("url", "URL", "connect to this HTTP server URL (repeat: a tab each)")
    add(
        gui,
        "screenshot",
        metavar="PATH",
        help="connect (or open the FILEs), wait for server info and tools (or the rows), "
        "save a PNG of the window and exit",
    )
    add(
        gui,
        "open",
        metavar="KIND:KEY",
        help="screenshot mode: select tool:NAME, resource:URI, template:URI-TEMPLATE or "
        "prompt:NAME and show its form",
    )
    add(
        gui,
        "call_args",
        metavar="JSON",
        help="screenshot mode, with --open: call (read, get) it with these arguments and "
        "wait for the result",
    )
    add(
        gui,
        "tab",
        choices=("workspace", "traffic"),
        help="screenshot mode: the centre tab to show (default: workspace)",
    )
    add(gui, "theme", choices=("system", "light", "dark"), help="color theme")
    add(gui, "timeout", 30.0, type=float, metavar="SECONDS", help="screenshot mode wait")


def merge_top_level_gui_options(ns: argparse.Namespace) -> list[str]:
    """Move the bare command's app options onto `ns` (as `gui` would have parsed them).

    Returns the options given at the top level before a subcommand that is not `gui`
    (a usage error for the caller to report); `gui`'s own options win over top-level ones."""
    misplaced: list[str] = []
    for name in GUI_OPTIONS:
        value = getattr(ns, _TOP + name, None)
        if hasattr(ns, _TOP + name):
            delattr(ns, _TOP + name)
        if value is None:
            continue
        if ns.command is None:
            setattr(ns, name, value)
        elif ns.command == "gui":
            if getattr(ns, name, None) in (None, 30.0 if name == "timeout" else None):
                setattr(ns, name, value)
        elif name != "targets":  # its own options (--profile, ...) are named instead
            misplaced.append("--" + name.replace("_", "-"))
    return misplaced


class _TargetAction(argparse.Action):
    """Keeps the first value under its own name and every target, in order, in a list."""

    def __init__(self, *args: Any, targets_dest: str, kind: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.targets_dest = targets_dest
        self.kind = kind

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if getattr(namespace, self.dest, None) is None:
            setattr(namespace, self.dest, values)
        targets = list(getattr(namespace, self.targets_dest, None) or [])
        targets.append((self.kind, str(values)))
        setattr(namespace, self.targets_dest, targets)
