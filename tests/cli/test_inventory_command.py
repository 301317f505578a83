"""`mcp-inspector-qt inventory` over a fake home (HOME and XDG_CONFIG_HOME in tmp_path):
one line per configured server with its key, transport, command and file:line; a broken
file's note on stderr; hostile names escaped. `inventory:KEY` as a target of `diff` and
of `check --profile`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.__main__ import main
from tests.helpers.peers import PY, REPO


@pytest.fixture
def fake_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home whose Claude Desktop config has the demo server and a hostile name, and
    whose Cursor config is cut short."""
    home = tmp_path / "home"
    desktop = home / ".config" / "Claude" / "claude_desktop_config.json"
    desktop.parent.mkdir(parents=True)
    servers = {
        "demo": {"command": PY, "args": ["-m", "inspector.demo"], "env": {"PYTHONPATH": str(REPO)}},
        "\x1b[31mred\u200b": {"command": "sh", "args": ["-c", "echo \x1b]0;x\x07"]},
    }
    desktop.write_text(json.dumps({"mcpServers": servers}, indent=2), encoding="utf-8")
    cursor = home / ".cursor" / "mcp.json"
    cursor.parent.mkdir(parents=True)
    cursor.write_text('{"mcpServers": {', encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.chdir(tmp_path)
    return home


def test_inventory_lists_each_server_with_file_and_line(
    fake_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["inventory"]) == 0
    out, err = capsys.readouterr()
    config = fake_home / ".config" / "Claude" / "claude_desktop_config.json"
    assert out.splitlines() == [
        f"claude-desktop/demo  stdio  {PY} -m inspector.demo  — {config}:3",
        f"claude-desktop/\\x1b[31mred\\u200b  stdio  sh -c 'echo \\x1b]0;x\\x07'  — {config}:13",
    ]
    assert "\x1b" not in out + err
    assert f"{fake_home / '.cursor' / 'mcp.json'}: not valid JSON" in err
    assert err.rstrip().endswith("2 server(s) configured in 2 file(s) read")

    assert main(["inventory", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(s["key"], s["line"]) for s in listed["servers"]] == [
        ("claude-desktop/demo", 3),
        ("claude-desktop/\x1b[31mred\u200b", 13),
    ]
    assert listed["notes"][0]["client"] == "Cursor (user)"

    assert main(["inventory", "--project", str(fake_home / "nope")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_a_configured_server_is_a_target_of_diff_and_check(
    fake_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["diff", "--left", "inventory:demo", "--right", "inventory:claude-desktop/demo"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert main(["check", "--profile", "inventory:nope"]) == 2
    assert "no configured server 'nope' (configured: claude-desktop/demo" in capsys.readouterr().err
