"""The inventory of configured servers over a fake home: every client's file, each entry
with its file and line; broken, huge and hostile files noted, the rest still listed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.settings import inventory as inventory_module
from inspector.settings.inventory import read_inventory
from inspector.settings.inventory_places import config_places
from inspector.settings.key_lines import key_lines

CLAUDE_CODE = """{
  "numStartups": 3,
  "mcpServers": {
    "github": {"type": "http", "url": "https://api.example.com/mcp"}
  },
  "projects": {
    "/work/app": {
      "history": [{"display": "mcpServers"}],
      "mcpServers": {
        "db": {"command": "uvx", "args": ["db-mcp", "--ro"]}
      }
    }
  }
}
"""
VSCODE = """// VS Code allows comments
{
  "servers": {
    /* a block
       comment */
    "files": {"type": "stdio", "command": "npx", "args": ["-y", "files"],},
  },
}
"""
ZED = """{
  "theme": "One Dark",
  "context_servers": {
    "old-style": {"command": {"path": "node", "args": ["zed.js"], "env": {}}},
    "new-style": {"source": "custom", "command": "python3", "args": ["-m", "srv"]},
    "from-extension": {"source": "extension", "settings": {}}
  }
}
"""
CODEX = """model = "o4"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[mcp_servers."two words"]
url = "https://example.com/mcp"
"""


def fake_home(home: Path) -> Path:
    """A home with a config of every client, and a project folder."""
    files = {
        ".config/Claude/claude_desktop_config.json": json.dumps(
            {"mcpServers": {"fs": {"command": "npx", "args": ["-y", "fs", "/tmp"]}}}, indent=2
        ),
        ".claude.json": CLAUDE_CODE,
        ".config/Code/User/mcp.json": VSCODE,
        ".config/Code/User/settings.json": '{"editor.fontSize": 13}',
        ".cursor/mcp.json": '{"mcpServers": {"cur": {"url": "http://localhost:9/mcp"}}}',
        ".codeium/windsurf/mcp_config.json": '{"mcpServers":\n {"wind": {"serverUrl": "https://w.example/mcp"}}}',
        ".config/zed/settings.json": ZED,
        ".codex/config.toml": CODEX,
        "proj/.mcp.json": '{\n"mcpServers": {\n"local": {"command": "./run.sh"}}}',
        "proj/.vscode/mcp.json": '{"servers": {}}',
    }
    for rel, text in files.items():
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return home / "proj"


def test_every_client_is_listed_with_file_and_line(tmp_path: Path) -> None:
    project = fake_home(tmp_path)
    inv = read_inventory(project, home=tmp_path, platform="linux", env={})
    rows = {(s.key, s.where.replace(str(tmp_path), "~"), s.target()) for s in inv.servers}
    assert rows == {
        ("claude-desktop/fs", "~/.config/Claude/claude_desktop_config.json:3", "npx -y fs /tmp"),
        ("claude-code/github", "~/.claude.json:4", "https://api.example.com/mcp"),
        ("claude-code/db", "~/.claude.json:10", "uvx db-mcp --ro"),
        ("vscode-user/files", "~/.config/Code/User/mcp.json:6", "npx -y files"),
        ("cursor-user/cur", "~/.cursor/mcp.json:1", "http://localhost:9/mcp"),
        ("windsurf/wind", "~/.codeium/windsurf/mcp_config.json:2", "https://w.example/mcp"),
        ("zed/old-style", "~/.config/zed/settings.json:4", "node zed.js"),
        ("zed/new-style", "~/.config/zed/settings.json:5", "python3 -m srv"),
        ("codex/docs", "~/.codex/config.toml:3", "npx -y docs-mcp"),
        ("codex/two words", "~/.codex/config.toml:7", "https://example.com/mcp"),
        ("claude-code-project/local", "~/proj/.mcp.json:3", "./run.sh"),
    }
    db = inv.find("db")
    assert db.client == "Claude Code (local: /work/app)"
    assert db.runs_code and not inv.find("github").runs_code
    assert db.profile.source == f"Claude Code (local: /work/app): {tmp_path}/.claude.json:10"
    # Zed's extension server has no command of ours to run: said, not dropped silently.
    assert [n.note for n in inv.notes] == [
        f"{tmp_path}/.config/zed/settings.json:6: "
        "from-extension: skipped (neither a command nor a url)"
    ]
    assert len(inv.files) == 10  # every file that exists, with servers or not


def test_broken_huge_and_hostile_files_are_noted_and_the_rest_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_home(tmp_path)
    (tmp_path / ".cursor/mcp.json").write_text('{"mcpServers": {"x": ', encoding="utf-8")
    (tmp_path / ".codex/config.toml").write_text("[mcp_servers.a\n", encoding="utf-8")
    (tmp_path / ".codeium/windsurf/mcp_config.json").write_bytes(b'{"mcpServers": {"\xff": 1}}')
    (tmp_path / ".config/zed/settings.json").write_text("[1, 2]", encoding="utf-8")
    (tmp_path / ".config/Code/User/mcp.json").write_text("[" * 4000, encoding="utf-8")
    (tmp_path / ".claude.json").write_text(CLAUDE_CODE + " " * 6000, encoding="utf-8")
    hostile = "\x1b]8;;http://evil\x07<b>name</b>\u202e"
    desktop = tmp_path / ".config/Claude/claude_desktop_config.json"
    desktop.write_text(
        json.dumps({"mcpServers": {hostile: {"command": "sh"}, "bad": "not an object"}}),
        encoding="utf-8",
    )
    monkeypatch.setattr(inventory_module, "MAX_CONFIG_BYTES", 5000)
    inv = read_inventory(None, home=tmp_path, platform="linux", env={})
    notes = {n.client: n.note for n in inv.notes}
    assert notes["Cursor (user)"].startswith("not valid JSON: Expecting value: line 1")
    assert notes["VS Code (user)"].startswith("not valid JSON: maximum recursion depth")
    assert notes["Codex"].startswith("not valid TOML")
    assert notes["Windsurf"] == "not UTF-8 text (byte 17)"
    assert notes["Zed"] == "not a JSON object"
    assert notes["Claude Code (user)"] == "too large to read (0.0 MB; the limit is 0 MB)"
    assert notes["Claude Desktop"].endswith(": 'bad' is not an object")
    assert [s.name for s in inv.servers] == [hostile]  # kept raw; views escape it


def test_two_entries_of_one_name_are_told_apart(tmp_path: Path) -> None:
    fake_home(tmp_path)
    (tmp_path / ".cursor/mcp.json").write_text('{"mcpServers": {"db": {"command": "x"}}}')
    inv = read_inventory(None, home=tmp_path, platform="linux", env={})
    with pytest.raises(
        LookupError, match="configured 2 times: name one of inventory:claude-code/db"
    ):
        inv.find("db")
    assert inv.find("inventory:cursor-user/db").target() == "x"
    with pytest.raises(LookupError, match="no configured server 'nope'"):
        inv.find("nope")


def test_places_on_macos_and_windows(tmp_path: Path) -> None:
    mac = {p.key: p.path for p in config_places(tmp_path, platform="darwin")}
    support = tmp_path / "Library" / "Application Support"
    assert mac["claude-desktop"] == support / "Claude" / "claude_desktop_config.json"
    assert mac["vscode-user"] == support / "Code" / "User" / "mcp.json"
    win = {
        p.key: p.path for p in config_places(tmp_path, platform="win32", env={"APPDATA": "C:/A"})
    }
    assert win["claude-desktop"] == Path("C:/A/Claude/claude_desktop_config.json")
    assert win["codex"] == tmp_path / ".codex" / "config.toml"


def test_key_lines_never_recurse_and_follow_arrays() -> None:
    text = '{"a": [ {"b": 1},\n {"c": {"d": 2}} ], "e": "x, {y"}\n'
    assert key_lines(text) == {
        ("a",): 1,
        ("a", "0", "b"): 1,
        ("a", "1", "c"): 2,
        ("a", "1", "c", "d"): 2,
        ("e",): 2,
    }
    assert key_lines("[" * 20_000) == {}


def test_a_project_that_is_the_home_folder_lists_its_files_once(tmp_path: Path) -> None:
    fake_home(tmp_path)
    inv = read_inventory(tmp_path, home=tmp_path, platform="linux", env={})
    assert [s.key for s in inv.servers].count("cursor-user/cur") == 1
    assert not any(s.key.startswith("cursor-project/") for s in inv.servers)
