"""`mcp-inspector-qt inventory [--json] [--project DIR]`: the MCP servers configured on
this machine (Claude Desktop, Claude Code, VS Code, Cursor, Windsurf, Zed, Codex), one line
each with its key (`inventory:KEY` names it to `scan`, `check` and `diff`), transport,
command line or URL, and file:line. Reads files only: nothing is started.

Names and commands come from files anyone may have written: what a terminal acts on, and
what a person cannot see, is shown escaped. A file that cannot be read has a note on
stderr (in `notes` with `--json`); the other files are still listed.

Exit codes: 0 listed (also when nothing is configured), 2 usage (no such --project folder).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from inspector.cli.errors import EXIT_USAGE, CommandFailed, diag, guarded
from inspector.cli.reports import print_json, print_text
from inspector.common.visible_text import visible_text

__all__ = ["run"]


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt inventory", parser, lambda: _inventory(ns))


def _inventory(ns: argparse.Namespace) -> int:
    from inspector.settings.inventory import read_inventory

    project = Path(ns.project).expanduser() if ns.project else Path.cwd()
    if not project.is_dir():
        raise CommandFailed(f"inventory: --project {ns.project!r} is not a folder", EXIT_USAGE)
    inventory = read_inventory(project.resolve())
    if ns.json:
        print_json(inventory.to_json())
        return 0
    for server in inventory.servers:
        kind = "stdio" if server.runs_code else "http"
        key = visible_text(server.key, keep="")
        print_text(f"{key}  {kind}  {visible_text(server.target(), keep='')}  — {server.where}")
    for note in inventory.notes:
        diag(f"{note.path}: {visible_text(note.note, keep='')}")
    files = len(inventory.files)
    diag(f"{len(inventory.servers)} server(s) configured in {files} file(s) read")
    return 0
