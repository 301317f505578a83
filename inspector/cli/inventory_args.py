"""The words of `mcp-inspector-qt inventory` (argparse only; the command is
`cli/commands/inventory.py`)."""

from __future__ import annotations

from typing import Any

__all__ = ["add_inventory_parser"]


def add_inventory_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "inventory",
        help="list the MCP servers configured on this machine (Claude Desktop, Claude Code, "
        "VS Code, Cursor, Windsurf, Zed, Codex) with their file and line",
        usage="mcp-inspector-qt inventory [--json] [--project DIR]",
        epilog="Reads config files only; nothing is started. A server's key names it to "
        "scan, check (--profile inventory:KEY) and diff as inventory:KEY. "
        "exit codes: 0 listed, 2 usage.",
    )
    parser.add_argument("--json", action="store_true", help="the inventory as JSON")
    parser.add_argument(
        "--project",
        metavar="DIR",
        help="the project whose .mcp.json, .vscode/mcp.json and .cursor/mcp.json are read "
        "(default: the current folder)",
    )
