"""The one entry point, `mcp-inspector-qt` (and `python -m inspector`): parse the command
line and hand each subcommand to its module. The GUI is imported only when it is asked for,
so the headless commands never load Qt."""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence

from inspector.cli.auth import run_logout
from inspector.cli.check_command import run_check_command
from inspector.cli.export import run_export_har
from inspector.cli.parser import EXIT_OK, build_parser
from inspector.cli.replay import run_replay, split_server_command
from inspector.cli.run import run_cli_command

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    argv, replay_command = split_server_command(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    ns = parser.parse_args(argv)  # argparse exits 2 on usage errors, as documented
    if replay_command is not None:
        ns.server_command = replay_command
    logging.basicConfig(
        level=logging.INFO if getattr(ns, "verbose", False) else logging.WARNING,
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # -v shows exchanges our own way
    if ns.command == "logout":
        return run_logout(ns)
    if ns.command == "replay":
        return run_replay(ns)
    if ns.command == "export-har":
        return run_export_har(ns)
    if ns.command == "check":
        return run_check_command(ns, parser)
    if ns.command == "demo-server":
        from inspector.demo.server import main as demo_main

        demo_main([])
        return EXIT_OK
    if ns.command in (None, "gui"):
        from inspector.ui.window.gui_command import GuiOptions, run_gui

        return run_gui(
            GuiOptions(
                profile=getattr(ns, "profile", None),
                stdio=getattr(ns, "stdio", None),
                url=getattr(ns, "url", None),
                screenshot=getattr(ns, "screenshot", None),
                theme=getattr(ns, "theme", None),
                timeout=getattr(ns, "timeout", 30.0),
                open_item=getattr(ns, "open", None),
                call_args=getattr(ns, "call_args", None),
            )
        )
    return run_cli_command(ns, parser)


if __name__ == "__main__":
    sys.exit(main())
