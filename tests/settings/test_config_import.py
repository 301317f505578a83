"""Import servers from Claude Desktop, VS Code and Cursor configs; export entries back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.settings.config_import import (
    detect_format,
    export_entry,
    export_snippet,
    import_file,
    known_config_files,
    parse_config,
)
from inspector.settings.profiles import (
    HeaderEntry,
    HttpSettings,
    Profile,
    ProfileStore,
    StdioSettings,
)
from inspector.storage.secrets import SecretStore
from tests.helpers.memory_keyring import MemoryKeyring
from tests.helpers.peers import FIXTURES

CONFIGS = FIXTURES / "configs"
CLAUDE = CONFIGS / "claude_desktop_config.json"
VSCODE = CONFIGS / "vscode" / ".vscode" / "mcp.json"
CURSOR = CONFIGS / "cursor" / ".cursor" / "mcp.json"


def test_claude_desktop_config_with_three_servers_gives_three_profiles(
    memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    result = import_file(CLAUDE)
    assert result.format == "claude"
    assert [p.name for p in result.profiles] == ["filesystem", "github", "weather"]
    github = result.profiles[1]
    assert github.stdio.command == "docker"
    assert github.stdio.env[0].name == "GITHUB_PERSONAL_ACCESS_TOKEN"
    assert github.stdio.env[0].secret is True
    weather = result.profiles[2]
    assert weather.stdio.env[0].secret is False and weather.stdio.env[0].value == "metric"
    assert all(p.source and "Claude Desktop" in p.source for p in result.profiles)

    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    store.add_imported(result.profiles)
    assert [p.name for p in store] == ["Demo server", "filesystem", "github", "weather"]
    text = (tmp_path / "profiles.json").read_text()
    assert "ghp_exampletoken123" not in text
    assert "ghp_exampletoken123" in memory_keyring.store.values()


def test_vscode_mcp_json_with_comments_inputs_and_types() -> None:
    result = import_file(VSCODE)
    assert result.format == "vscode"
    by_name = {p.name: p for p in result.profiles}
    assert list(by_name) == ["Perplexity", "fetch", "github", "legacy-sse"]
    perplexity = by_name["Perplexity"].stdio.env[0]
    assert perplexity.secret and perplexity.value == ""
    assert any(
        "PERPLEXITY_API_KEY" in w and "${input:perplexity-key}" in w for w in result.warnings
    )
    assert by_name["fetch"].stdio.command == "uvx"
    github = by_name["github"]
    assert github.transport == "http" and github.http.transport == "streamable-http"
    assert github.http.headers[0].name == "Authorization" and github.http.headers[0].secret
    assert by_name["legacy-sse"].http.transport == "sse"


def test_vscode_user_settings_form_and_cursor() -> None:
    settings = {"mcp": {"servers": {"a": {"command": "node", "args": ["s.js"]}}}}
    result = parse_config(json.dumps(settings))
    assert result.format == "vscode" and result.profiles[0].stdio.args == ["s.js"]
    cursor = import_file(CURSOR)
    assert cursor.format == "cursor"
    assert [p.name for p in cursor.profiles] == ["server-name", "remote"]
    remote = cursor.profiles[1]
    assert remote.transport == "http" and remote.http.url == "http://localhost:3000/mcp"
    assert remote.http.headers[0].secret  # API_KEY looks secret


def test_bad_configs_say_why() -> None:
    with pytest.raises(ValueError, match="not valid JSON"):
        parse_config("{")
    with pytest.raises(ValueError, match="does not look like an MCP config"):
        parse_config('{"something": 1}')
    result = parse_config('{"mcpServers": {"x": {"nothing": true}, "y": 3}}')
    assert result.profiles == []
    assert result.warnings == [
        "x: skipped (neither a command nor a url)",
        "y: skipped (not an object)",
    ]
    assert detect_format({"mcpServers": {}}, Path("/p/.cursor/mcp.json")) == "cursor"


def test_export_roundtrips_and_hides_secrets() -> None:
    stdio = Profile(
        name="github",
        stdio=StdioSettings(command="docker", args=["run", "-i"]),
    )
    for fmt in ("claude", "vscode", "cursor"):
        again = parse_config(export_snippet(stdio, fmt), fmt)  # type: ignore[arg-type]
        assert again.profiles[0].stdio.command == "docker"
        assert again.profiles[0].stdio.args == ["run", "-i"]
    http = Profile(
        name="remote",
        transport="http",
        http=HttpSettings(
            url="https://example.com/mcp",
            headers=[HeaderEntry(name="Authorization", value="", secret=True)],
        ),
    )
    vscode = json.loads(export_snippet(http, "vscode"))
    assert vscode["servers"]["remote"] == {
        "type": "http",
        "url": "https://example.com/mcp",
        "headers": {"Authorization": "${input:header-authorization}"},
    }
    assert vscode["inputs"][0]["id"] == "header-authorization"
    assert vscode["inputs"][0]["password"] is True
    assert export_entry(http, "cursor")["headers"]["Authorization"].startswith("<secret")
    claude = export_entry(http, "claude")
    assert claude["command"] == "npx" and "mcp-remote" in claude["args"]


def test_known_locations_cover_the_three_apps(tmp_path: Path) -> None:
    places = known_config_files(tmp_path)
    assert {fmt for fmt, _label, _path in places} == {"claude", "vscode", "cursor"}
    assert (("vscode", "VS Code (this folder)", tmp_path / ".vscode" / "mcp.json")) in places
