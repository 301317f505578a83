"""`mcp-inspector-qt tap`: put the inspector on the wire between a host and its server.

    tap [--name NAME] [--session-file FILE] -- COMMAND [ARGS...]

The host runs this where it ran COMMAND. Our own words go before `--`; everything after it
is the server's command, passed on untouched. Nothing is ever printed to stdout (it is the
protocol stream); the tap's own messages go to stderr, prefixed `mcp-inspector-qt tap:`.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from inspector.cli.errors import guarded
from inspector.common.terminal_text import terminal_text
from inspector.tap.relay import TapOptions, exit_like, run_stdio_tap

if TYPE_CHECKING:
    from inspector.recording.writer import Rotation
    from inspector.tap.host_config import ConfigEdit

__all__ = ["TAP_USAGE", "build_tap_parser", "entry_diff", "parse", "run", "run_config_edit"]

TAP_USAGE: Final = (
    "mcp-inspector-qt tap [--name NAME] [--session-file FILE] [--rotate-size SIZE]\n"
    "                     [--rotate-every DURATION] -- COMMAND [ARGS...]\n"
    "       mcp-inspector-qt tap --install NAME --config FILE [--yes]\n"
    "       mcp-inspector-qt tap --uninstall NAME --config FILE [--yes]\n"
    "       mcp-inspector-qt tap --listen 127.0.0.1:PORT --upstream URL [--name NAME]"
)
EXIT_USAGE: Final = 2
EXIT_DECLINED: Final = 1
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
        help="where to record (default: a new file in the app's sessions folder); a FILE "
        "ending in .gz or .zst is compressed",
    )
    parser.add_argument(
        "--rotate-size",
        metavar="SIZE",
        help="go on in a new part (FILE.part2.jsonl...) when a part reaches SIZE (e.g. 100M)",
    )
    parser.add_argument(
        "--rotate-every",
        metavar="DURATION",
        help="go on in a new part every DURATION (e.g. 1h, 1d)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="after the host closes stdin, wait this long for the server before SIGTERM",
    )
    config = parser.add_argument_group(
        "a host's config (Claude Desktop, VS Code, Cursor)",
        "Rewrite one server entry so the host launches it through the tap, or restore it. "
        "The entry before and after is shown first; the file is backed up before writing.",
    )
    which = config.add_mutually_exclusive_group()
    which.add_argument("--install", metavar="NAME", help="tap the server NAME in --config")
    which.add_argument("--uninstall", metavar="NAME", help="remove the tap from NAME")
    config.add_argument("--config", metavar="FILE", help="the host's config file")
    config.add_argument("--yes", action="store_true", help="write without asking")
    http = parser.add_argument_group(
        "HTTP (opt-in)",
        "A loopback reverse proxy for a host that talks to a remote server: point the "
        "host at http://127.0.0.1:PORT/... instead. It listens on loopback only and "
        "checks Host and Origin. This is the one listening socket the app opens besides "
        "the OAuth redirect, and only this command opens it.",
    )
    http.add_argument("--listen", metavar="127.0.0.1:PORT", help="where the host connects")
    http.add_argument("--upstream", metavar="URL", help="the real server's URL")
    return parser


def run_config_edit(ns: argparse.Namespace) -> int:
    """`--install` / `--uninstall`: show the entry before and after, then write."""
    # Imported here: the relay's start (what a host waits for) does not need them.
    from inspector.settings.config_import import FORMAT_LABELS
    from inspector.tap.host_config import (
        ConfigEditError,
        apply_edit,
        plan_install,
        plan_uninstall,
    )

    if not ns.config:
        _err("--install and --uninstall need --config FILE")
        return EXIT_USAGE
    try:
        if ns.install:
            edit = plan_install(ns.config, ns.install, session_file=ns.session_file)
        else:
            edit = plan_uninstall(ns.config, ns.uninstall)
    except ConfigEditError as exc:
        _err(str(exc))
        return EXIT_USAGE
    out = sys.stdout
    verb = "Tap" if edit.action == "install" else "Remove the tap from"
    out.write(f'{verb} "{edit.name}" in {edit.path} ({FORMAT_LABELS[edit.format]}):\n')
    out.write(entry_diff(edit) + "\n")
    out.write("Other entries are not touched.\n")
    if edit.note:
        out.write(f"Note: {edit.note}\n")
    if not ns.yes:
        if not sys.stdin.isatty():
            out.write("Not written: add --yes to write without asking.\n")
            return EXIT_DECLINED
        out.write("Write this? [y/N] ")
        out.flush()
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            out.write("Not written.\n")
            return EXIT_DECLINED
    try:
        backup = apply_edit(edit)
    except ConfigEditError as exc:
        _err(str(exc))
        return EXIT_USAGE
    out.write(f"Written. The previous file is kept as {backup}\n")
    if edit.action == "install":
        out.write(
            "Restart the host (or reload its servers) to launch the server through the tap.\n"
        )
    return 0


def entry_diff(edit: ConfigEdit) -> str:
    lines = difflib.unified_diff(
        edit.before.splitlines(),
        edit.after.splitlines(),
        "before",
        "after",
        lineterm="",
        n=max(len(edit.before.splitlines()), len(edit.after.splitlines())),
    )
    return "\n".join(lines)


def _split(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    argv = list(argv)
    if "--" not in argv:
        return argv, []
    cut = argv.index("--")
    return argv[:cut], argv[cut + 1 :]


def _err(text: str) -> None:
    sys.stderr.write(terminal_text(f"mcp-inspector-qt tap: {text}") + "\n")
    sys.stderr.flush()


def default_session_file(name: str) -> Path:
    from inspector.recording.retention import new_session_path
    from inspector.storage.paths import sessions_dir

    folder = sessions_dir()
    return new_session_path(folder, f"tap-{name}")


def _run_http(ns: argparse.Namespace, command: list[str]) -> int:
    from inspector.tap.http_run import run_http_tap

    if command or not (ns.listen and ns.upstream):
        _err("give both --listen 127.0.0.1:PORT and --upstream URL, and no command")
        return EXIT_USAGE
    if not ns.upstream.startswith(("http://", "https://")):
        _err(f"--upstream {ns.upstream!r}: give an http(s) URL")
        return EXIT_USAGE
    name = ns.name or ns.upstream
    session_file = Path(ns.session_file) if ns.session_file else default_session_file("http")
    try:
        rotation = _rotation(ns, session_file)
        return run_http_tap(ns.listen, ns.upstream, session_file, name, _err, rotation=rotation)
    except ValueError as exc:
        _err(str(exc))
        return EXIT_USAGE


def _rotation(ns: argparse.Namespace, session_file: Path) -> Rotation | None:
    """--rotate-size / --rotate-every (ValueError saying what is wrong with them)."""
    if not ns.rotate_size and not ns.rotate_every:
        return None
    from inspector.recording.writer import Rotation, part_path  # only when rotating

    part_path(session_file, 2)  # a name its parts can be named after
    return Rotation.parse(ns.rotate_size, ns.rotate_every)


def _budget() -> int | None:
    """`MCP_INSPECTOR_TAP_BUDGET`: how many bytes the recording may fall behind before it
    drops to gap markers (default 64 MiB; tests make it tiny)."""
    value = os.environ.get(BUDGET_ENV, "")
    return int(value) if value.isdigit() else None


def parse(argv: Sequence[str]) -> tuple[argparse.Namespace, argparse.ArgumentParser]:
    """The tap's own words (before `--`; exits 2 on a usage error) and, as
    `server_command`, the server's (after it, untouched). The tap parses its own command
    line: it starts before the app's parser is built (the host waits for it)."""
    ours, command = _split(argv)
    parser = build_tap_parser()
    ns = parser.parse_args(ours)
    ns.server_command = command
    return ns, parser


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt tap", parser, lambda: _run(ns, parser))


def _run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    command: list[str] = ns.server_command
    if ns.install or ns.uninstall:
        if command:
            _err("--install/--uninstall take no server command after --")
            return EXIT_USAGE
        return run_config_edit(ns)
    if ns.listen or ns.upstream:
        return _run_http(ns, command)
    if not command:
        parser.print_usage(sys.stderr)
        _err("give the server's command after --")
        return EXIT_USAGE
    name = ns.name or Path(command[0]).name
    session_file = Path(ns.session_file) if ns.session_file else default_session_file(name)
    try:
        rotation = _rotation(ns, session_file)
    except ValueError as exc:
        _err(str(exc))
        return EXIT_USAGE
    options = TapOptions(
        command=command,
        session_file=session_file,
        name=name,
        grace=ns.grace,
        budget=_budget(),
        rotation=rotation,
    )
    try:
        code = run_stdio_tap(options)
    except OSError as exc:
        _err(str(exc))
        return 1
    return exit_like(code)
