"""The one entry point, `mcp-inspector-qt` (and `python -m inspector`): parse the command
line and hand each subcommand to its module. Each command's module is imported only when
it is asked for: the headless commands never load Qt, and `cli` over stdio no auth or HTTP
stack (tests/cli/test_cli_imports.py)."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["tap"]:
        # Before anything heavy is imported: the host waits for the tap to start.
        from inspector.cli.commands import tap

        tap_ns, tap_parser = tap.parse(argv[1:])
        return tap.run(tap_ns, tap_parser)
    from inspector.cli.command_args import split_server_command
    from inspector.cli.parser import (
        build_parser,
        merge_top_level_gui_options,
    )

    argv, replay_command = split_server_command(argv)
    from inspector.cli.session_file_words import files_open_the_app

    parser = build_parser()
    argv = files_open_the_app(argv, parser)  # `mcp-inspector-qt FILE`: `gui FILE`
    ns = parser.parse_args(argv)  # argparse exits 2 on usage errors, as documented
    if replay_command is not None:
        ns.server_command = replay_command
    misplaced = merge_top_level_gui_options(ns)
    if misplaced:
        parser.error(
            f"{', '.join(misplaced)}: these open the desktop app; put them after `gui` "
            f"or use them alone, not before `{ns.command}`"
        )
    logging.basicConfig(
        level=logging.INFO if getattr(ns, "verbose", False) else logging.WARNING,
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    from inspector.common.terminal_text import TerminalLogFormatter

    for handler in logging.getLogger().handlers:  # a logged server text, escaped
        handler.setFormatter(TerminalLogFormatter(handler.formatter))
    logging.getLogger("httpx").setLevel(logging.WARNING)  # -v shows exchanges our own way
    if ns.command in (None, "gui"):
        return _run_gui(ns)
    return _command(ns.command)(ns, _subparser(parser, ns.command))


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The subcommand's own parser, whose usage a usage error prints (not the top level's)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found = action.choices.get(name)
            if isinstance(found, argparse.ArgumentParser):
                return found
    return parser


def _command(name: str) -> Callable[[argparse.Namespace, argparse.ArgumentParser], int]:
    """The entry of the command's module, `inspector.cli.commands.<name, a dash as an
    underscore>` (every one has the same, `run(ns, parser) -> int`), imported now: each
    command imports its own machinery when it is asked for (a stdio `cli` run loads no
    auth, no httpx). `gui` is the ui floor's, `tap` parses its own words (above); anything
    else runs `cli`."""
    if name == "logout":
        from inspector.cli.commands.logout import run
    elif name == "replay":
        from inspector.cli.commands.replay import run
    elif name == "export-har":
        from inspector.cli.commands.export_har import run
    elif name == "export-otlp":
        from inspector.cli.commands.export_otlp import run
    elif name == "export-slice":
        from inspector.cli.commands.export_slice import run
    elif name == "check":
        from inspector.cli.commands.check import run
    elif name == "watch":
        from inspector.cli.commands.watch import run
    elif name == "diff":
        from inspector.cli.commands.diff import run
    elif name == "test":
        from inspector.cli.commands.test import run
    elif name == "chat":
        from inspector.cli.commands.chat import run
    elif name == "eval":
        from inspector.cli.commands.eval import run
    elif name == "demo-server":
        from inspector.cli.commands.demo_server import run
    else:
        from inspector.cli.commands.cli import run
    return run


def _run_gui(ns: argparse.Namespace) -> int:
    from inspector.ui.shell.gui_command import GuiOptions, run_gui

    return run_gui(
        GuiOptions(
            profile=getattr(ns, "profile", None),
            stdio=getattr(ns, "stdio", None),
            url=getattr(ns, "url", None),
            targets=list(getattr(ns, "targets", None) or []),
            screenshot=getattr(ns, "screenshot", None),
            theme=getattr(ns, "theme", None),
            timeout=getattr(ns, "timeout", 30.0),
            open_item=getattr(ns, "open", None),
            call_args=getattr(ns, "call_args", None),
            tab=getattr(ns, "tab", None),
            files=list(getattr(ns, "files", None) or []),
        )
    )


if __name__ == "__main__":
    sys.exit(main())
