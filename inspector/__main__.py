"""The one entry point, `mcp-inspector-qt` (and `python -m inspector`): parse the command
line and hand each subcommand to its module. Each command's module is imported only when
it is asked for: the headless commands never load Qt, and `cli` over stdio no auth or HTTP
stack (tests/cli/test_cli_imports.py)."""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["tap"]:
        # Before anything heavy is imported: the host waits for the tap to start.
        from inspector.cli.tap import run_tap

        return run_tap(argv[1:])
    from inspector.cli.command_args import split_server_command
    from inspector.cli.parser import (
        build_parser,
        merge_top_level_gui_options,
    )

    argv, replay_command = split_server_command(argv)
    parser = build_parser()
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
    logging.getLogger("httpx").setLevel(logging.WARNING)  # -v shows exchanges our own way
    # Each command imports its own machinery (a stdio `cli` run loads no auth, no httpx).
    if ns.command == "logout":
        from inspector.cli.auth import run_logout

        return run_logout(ns)
    if ns.command == "replay":
        from inspector.cli.replay import run_replay

        return run_replay(ns)
    if ns.command == "export-har":
        from inspector.cli.export import run_export_har

        return run_export_har(ns)
    if ns.command == "check":
        from inspector.cli.check_command import run_check_command

        return run_check_command(ns, parser)
    if ns.command == "watch":
        from inspector.cli.watch_command import run_watch_command

        return run_watch_command(ns, parser)
    if ns.command == "diff":
        from inspector.cli.diff_command import run_diff_command

        return run_diff_command(ns, parser)
    if ns.command == "test":
        from inspector.cli.test_command import run_test_command

        return run_test_command(ns, parser)
    if ns.command == "demo-server":
        from inspector.demo.cli import run as run_demo

        return run_demo(ns.http, verbose=ns.verbose)
    if ns.command in (None, "gui"):
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
            )
        )
    from inspector.cli.cli_command import run_cli_command

    return run_cli_command(ns, parser)


if __name__ == "__main__":
    sys.exit(main())
