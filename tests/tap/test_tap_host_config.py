"""Tap this server / Remove tap on real config files of Claude Desktop, VS Code and Cursor:
only the entry changes, it launches the same server through the tap, and removing the tap
gives back the very same bytes; a backup is made before each write."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from inspector.recording.reader import read_session
from inspector.settings.config_import import import_file
from inspector.tap.host_config import (
    ConfigEditError,
    apply_edit,
    is_tapped,
    plan_install,
    plan_uninstall,
)
from inspector.tap.jsonc import parse_spans
from tests.helpers.peers import FIXTURES, PY, REPO
from tests.helpers.tap import tap_env

pytestmark = pytest.mark.usefixtures("config_dir")

CONFIGS = FIXTURES / "host_configs"
HOSTS = [
    ("claude_desktop_config.json", ("mcpServers",), "claude"),
    ("vscode_mcp.json", ("servers",), "vscode"),
    ("cursor_mcp.json", ("mcpServers",), "cursor"),
]


def copy_config(tmp_path: Path, name: str) -> Path:
    """The fixture, with the interpreter of this run as the server's command."""
    target = tmp_path / (".cursor" if name.startswith("cursor") else "cfg") / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text((CONFIGS / name).read_text().replace('"PYTHON"', json.dumps(PY)))
    return target


def others(text: str, servers: tuple[str, ...]) -> dict[str, str]:
    """Every other entry's exact text, and the text outside the servers object."""
    _, spans = parse_spans(text)
    start, end = spans[servers]
    out = {"outside": text[:start] + text[end:]}
    for key, (a, b) in spans.items():
        if key[: len(servers)] == servers and len(key) == len(servers) + 1 and key[-1] != "demo":
            out[key[-1]] = text[a:b]
    return out


@pytest.mark.parametrize(("name", "servers", "fmt"), HOSTS)
def test_install_then_uninstall_round_trip(
    tmp_path: Path, name: str, servers: tuple[str, ...], fmt: str
) -> None:
    path = copy_config(tmp_path, name)
    original = path.read_text()
    session = tmp_path / "tap.jsonl"
    edit = plan_install(path, "demo", session_file=str(session))
    assert edit.format == fmt
    assert edit.before in original and edit.after in edit.new_text
    assert path.read_text() == original  # planning writes nothing
    backup = apply_edit(edit)
    assert backup.read_text() == original
    tapped_text = path.read_text()
    assert others(tapped_text, servers) == others(original, servers)
    # The host's own reader sees the server launched through the tap, env and all.
    (profile,) = [p for p in import_file(path).profiles if p.name == "demo"]
    assert profile.stdio.command == PY
    assert profile.stdio.args[:5] == ["-m", "inspector", "tap", "--name", "demo"]
    assert profile.stdio.args[-4:] == ["--", PY, "-m", "inspector.demo"]
    data, _ = parse_spans(tapped_text)
    entry = data
    for key in (*servers, "demo"):
        entry = entry[key]
    assert is_tapped(entry)
    # ... and it really runs: a host (our CLI) through the entry's command gets the tools.
    done = subprocess.run(
        [PY, "-m", "inspector", "cli", "--method", "tools/list", "--",
         entry["command"], *entry["args"]],
        capture_output=True, text=True, timeout=60, cwd=REPO, env=tap_env(tmp_path / "rt"),
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "echo" in {t["name"] for t in json.loads(done.stdout)["tools"]}
    assert any(e.kind == "request" for e in read_session(session).frames())
    # Remove tap: exactly the bytes that were there.
    undo = plan_uninstall(path, "demo")
    assert undo.note == ""
    assert undo.after == edit.before
    apply_edit(undo)
    assert path.read_text() == original
    assert len(list(path.parent.glob(path.name + ".bak-*"))) == 2


def test_uninstall_after_the_entry_was_edited_rebuilds_the_command(tmp_path: Path) -> None:
    path = copy_config(tmp_path, "cursor_mcp.json")
    apply_edit(plan_install(path, "demo"))
    data = json.loads(path.read_text())
    data["mcpServers"]["demo"]["env"] = {"ADDED": "later"}
    path.write_text(json.dumps(data, indent=2))
    undo = plan_uninstall(path, "demo")
    assert "rebuilt from the tap's arguments" in undo.note
    apply_edit(undo)
    entry = json.loads(path.read_text())["mcpServers"]["demo"]
    assert entry == {"command": PY, "args": ["-m", "inspector.demo"], "env": {"ADDED": "later"}}


def test_what_cannot_be_tapped_says_why(tmp_path: Path) -> None:
    path = copy_config(tmp_path, "cursor_mcp.json")
    with pytest.raises(ConfigEditError, match="not a local"):
        plan_install(path, "linear")
    with pytest.raises(ConfigEditError, match='no server named "nope"'):
        plan_install(path, "nope")
    with pytest.raises(ConfigEditError, match="does not run through the tap"):
        plan_uninstall(path, "demo")
    apply_edit(plan_install(path, "demo"))
    with pytest.raises(ConfigEditError, match="already runs through the tap"):
        plan_install(path, "demo")
    broken = tmp_path / "broken.json"
    broken.write_text('{"mcpServers": {"a": ')
    with pytest.raises(ConfigEditError, match="not valid JSON"):
        plan_install(broken, "a")


def test_a_file_changed_after_planning_is_not_written(tmp_path: Path) -> None:
    path = copy_config(tmp_path, "claude_desktop_config.json")
    edit = plan_install(path, "demo")
    path.write_text(path.read_text().replace("Ctrl+Space", "Alt+Space"))
    with pytest.raises(ConfigEditError, match="changed since"):
        apply_edit(edit)
    assert "Alt+Space" in path.read_text() and 'inspector", "tap' not in path.read_text()


def test_cli_install_shows_before_and_after_and_needs_yes(tmp_path: Path, config_dir: Path) -> None:
    path = copy_config(tmp_path, "vscode_mcp.json")
    original = path.read_text()
    env = tap_env(tmp_path / "rt", MCP_INSPECTOR_CONFIG_DIR=str(config_dir))
    base = [PY, "-m", "inspector", "tap", "--config", str(path)]
    shown = subprocess.run(
        [*base, "--install", "demo"], capture_output=True, text=True, env=env, timeout=30,
        stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    assert shown.returncode == 1
    assert "--- before" in shown.stdout and "+++ after" in shown.stdout
    assert "Not written: add --yes" in shown.stdout
    assert '+  "args": [' in shown.stdout.replace("\t", "  ") or '"tap"' in shown.stdout
    assert "Other entries are not touched." in shown.stdout
    assert path.read_text() == original
    done = subprocess.run(
        [*base, "--install", "demo", "--yes"], capture_output=True, text=True, env=env,
        timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Written. The previous file is kept as" in done.stdout
    assert path.read_text() != original
    done = subprocess.run(
        [*base, "--uninstall", "demo", "--yes"], capture_output=True, text=True, env=env,
        timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert path.read_text() == original
    # The comments and trailing commas of VS Code's file survived both writes.
    assert "// keep this" in path.read_text()


def test_cli_config_errors_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [PY, "-m", "inspector", "tap", "--install", "demo"], capture_output=True, text=True,
        env=tap_env(tmp_path), timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "need --config" in done.stderr
    missing = tmp_path / "nope.json"
    done = subprocess.run(
        [PY, "-m", "inspector", "tap", "--install", "demo", "--config", str(missing)],
        capture_output=True, text=True, env=tap_env(tmp_path), timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "cannot read" in done.stderr
