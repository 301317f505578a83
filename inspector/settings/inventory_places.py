"""Where the MCP clients on this machine keep their servers: one `Place` per config file
(the client, its file, its format), for Linux, macOS and Windows. Existing or not: the
inventory reads those that exist. Qt-free, no IO (the home, the project folder, the
platform and the environment are given, so tests use a fake home)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["Place", "PlaceFormat", "config_places"]

# how a file holds its servers:
#   mcpServers: {"mcpServers": {name: entry}} (Claude Desktop, Cursor, Windsurf, .mcp.json)
#   vscode: {"servers": {...}} or settings.json's {"mcp": {"servers": {...}}}
#   claude-code: ~/.claude.json: "mcpServers" and "projects": {dir: {"mcpServers": ...}}
#   zed: settings.json's "context_servers"
#   codex: config.toml's [mcp_servers.NAME] tables
PlaceFormat = Literal["mcpServers", "vscode", "claude-code", "zed", "codex"]


@dataclass(frozen=True)
class Place:
    """One config file of one client."""

    client: str  # "VS Code (user)": what a person calls it
    key: str  # "vscode-user": short, for `inventory:KEY/NAME`
    path: Path
    format: PlaceFormat


def config_places(
    home: Path,
    project: Path | None = None,
    *,
    platform: str = "linux",
    env: Mapping[str, str] | None = None,
) -> list[Place]:
    """Every config file the inventory looks at, user files first, then `project`'s."""
    env = env or {}
    if platform == "darwin":
        app_support = home / "Library" / "Application Support"
        claude_dir, code_user = app_support / "Claude", app_support / "Code" / "User"
        zed = home / ".config" / "zed" / "settings.json"
    elif platform == "win32":
        appdata = Path(env.get("APPDATA") or home / "AppData" / "Roaming")
        claude_dir, code_user = appdata / "Claude", appdata / "Code" / "User"
        zed = appdata / "Zed" / "settings.json"
    else:
        xdg = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
        claude_dir, code_user = xdg / "Claude", xdg / "Code" / "User"
        zed = xdg / "zed" / "settings.json"
    codex = Path(env.get("CODEX_HOME") or home / ".codex") / "config.toml"
    places = [
        Place(
            "Claude Desktop",
            "claude-desktop",
            claude_dir / "claude_desktop_config.json",
            "mcpServers",
        ),
        Place("Claude Code (user)", "claude-code", home / ".claude.json", "claude-code"),
        Place("VS Code (user)", "vscode-user", code_user / "mcp.json", "vscode"),
        Place("VS Code (user settings)", "vscode-settings", code_user / "settings.json", "vscode"),
        Place("Cursor (user)", "cursor-user", home / ".cursor" / "mcp.json", "mcpServers"),
        Place(
            "Windsurf", "windsurf", home / ".codeium" / "windsurf" / "mcp_config.json", "mcpServers"
        ),
        Place("Zed", "zed", zed, "zed"),
        Place("Codex", "codex", codex, "codex"),
    ]
    if project is not None:
        places += [
            Place(
                "Claude Code (project)", "claude-code-project", project / ".mcp.json", "mcpServers"
            ),
            Place(
                "VS Code (workspace)",
                "vscode-workspace",
                project / ".vscode" / "mcp.json",
                "vscode",
            ),
            Place(
                "Cursor (project)", "cursor-project", project / ".cursor" / "mcp.json", "mcpServers"
            ),
        ]
    return places
