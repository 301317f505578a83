"""The words of `profiles` (list, import, export, remove the saved connection profiles) and
`registry` (search an MCP registry, import an entry): their parsers, for `cli/parser.py`.
The commands are `inspector.cli.commands.profiles` and `inspector.cli.commands.registry`."""

from __future__ import annotations

import argparse
from typing import Any, Final

__all__ = ["EXPORT_FORMATS", "add_profiles_parser", "add_registry_parser"]

# "inspector" is our own form (the profiles file's), which `profiles import` reads back.
EXPORT_FORMATS: Final = ("inspector", "claude", "vscode", "cursor", "server.json")

_PROFILES_EXITS: Final = (
    "exit codes: 0 done; 1 not done (a profile that cannot be written in that format, a "
    "keyring that refused a secret); 2 usage or bad input (a missing or broken file, an "
    "unknown name, a name already taken). Secret values go to the keyring, never to the "
    "profiles file or the terminal."
)


def add_profiles_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "profiles",
        help="list, import, export or remove the saved connection profiles",
        description="The desktop app's saved connection profiles, from the command line.",
        epilog=_PROFILES_EXITS,
    )
    words = parser.add_subparsers(dest="profiles_command", metavar="{list,import,export,remove}")
    words.required = True
    listing = words.add_parser("list", help="the saved profiles (the built-in demo first)")
    listing.add_argument("--json", action="store_true", help="as JSON (no secret values)")
    importing = words.add_parser(
        "import",
        help="import the servers of a Claude Desktop, VS Code or Cursor config, a server.json "
        "or a `profiles export` file",
        epilog=_PROFILES_EXITS,
    )
    importing.add_argument("file", metavar="FILE", help="the file to read (- for stdin)")
    _import_options(importing)
    exporting = words.add_parser(
        "export",
        help="write one profile as a config entry or a server.json",
        epilog=_PROFILES_EXITS,
    )
    exporting.add_argument("name", metavar="NAME", help="the profile's name (or id)")
    exporting.add_argument(
        "--format",
        choices=EXPORT_FORMATS,
        default="inspector",
        help="inspector (ours, read back by `profiles import`; the default), claude, vscode, "
        "cursor or server.json",
    )
    exporting.add_argument(
        "-o", "--output", metavar="FILE", default="-", help="where to write (default: stdout)"
    )
    removing = words.add_parser("remove", help="remove one profile and its secrets")
    removing.add_argument("name", metavar="NAME", help="the profile's name (or id)")


def _import_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server",
        action="append",
        default=[],
        metavar="NAME",
        help="import only this server of the file (repeatable; default: all)",
    )
    parser.add_argument(
        "--without-secret-values",
        action="store_true",
        help="import secret values as empty (to enter later), e.g. when no keyring is there",
    )
    parser.add_argument(
        "--rename",
        action="store_true",
        help='import under a free name ("NAME (2)") when the name is taken, rather than stop',
    )


def add_registry_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "registry",
        help="search an MCP registry and import an entry as a profile",
        description="Read an MCP registry's API (default: the official registry, or "
        "$MCP_INSPECTOR_REGISTRY_URL).",
        epilog="exit codes: 0 done; 2 usage or an entry that cannot be imported; 3 the registry "
        "could not be read (unreachable, an HTTP error, an answer that is not a registry's).",
    )
    _registry_options(parser, top=True)
    words = parser.add_subparsers(dest="registry_command", metavar="{search,import}")
    words.required = True
    search = words.add_parser("search", help="one page of servers whose name contains TEXT")
    _registry_options(search, top=False)
    search.add_argument("text", nargs="?", default="", metavar="TEXT")
    search.add_argument("--cursor", metavar="CURSOR", help="the next page (printed after a page)")
    search.add_argument("--json", action="store_true", help="the page as JSON")
    importing = words.add_parser("import", help="import one server (its latest version)")
    _registry_options(importing, top=False)
    importing.add_argument("name", metavar="NAME", help="the server's name, e.g. io.github.x/y")
    importing.add_argument("--version", default="latest", help="a version (default: latest)")
    _import_options(importing)


def _registry_options(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """--registry and --timeout, before or after the word (`registry search --registry URL`):
    after it they replace what was given before only when given."""
    parser.add_argument(
        "--registry",
        metavar="URL",
        default=None if top else argparse.SUPPRESS,
        help="the registry's base URL",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        default=20.0 if top else argparse.SUPPRESS,
        help="for each answer (default 20)",
    )
