"""The connection manager dialog: create, edit, delete, import (three formats), export,
secrets through an in-memory keyring, and the plain message when there is no keyring."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QPushButton

from inspector.settings.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.profiles.profiles_dialog import ImportDialog, ProfilesDialog
from tests.helpers.memory_keyring import (
    MemoryKeyring,
)
from tests.helpers.peers import FIXTURES, PY

CONFIGS = FIXTURES / "configs"
pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def dialog(qapp: QApplication, store: ProfileStore) -> Iterator[ProfilesDialog]:
    dlg = ProfilesDialog(store)
    yield dlg
    dlg.deleteLater()


def names(store: ProfileStore) -> list[str]:
    return [p.name for p in store]


def test_create_edit_delete(dialog: ProfilesDialog, store: ProfileStore, tmp_path: Path) -> None:
    assert dialog.list.count() == 1  # the demo profile
    assert not dialog.delete_button.isEnabled() and not dialog.save_button.isEnabled()
    dialog.new_profile()
    editor = dialog.editor
    editor.name.setText("my server")
    editor.command.setText("")
    assert dialog.save() is None
    assert "The command is empty" in editor.problems.text()
    editor.command.setText(PY)
    editor.args.setText("-m 'my module' --flag")
    editor.env.add_row("LOG_LEVEL", "debug", False)
    editor.era.setCurrentIndex(editor.era.findData("auto"))
    editor.request_timeout.setValue(12)
    editor.cap_elicitation.setChecked(False)
    editor.roots.add_row("file:///tmp/project", "project", False)
    saved = dialog.save()
    assert saved is not None and names(store) == ["Demo server", "my server"]
    on_disk = json.loads((tmp_path / "profiles.json").read_text())["profiles"][0]
    assert on_disk["stdio"]["args"] == ["-m", "my module", "--flag"]
    assert on_disk["era"] == "auto" and on_disk["timeouts"]["request"] == 12
    assert on_disk["capabilities"] == {
        "sampling": True,
        "elicitation": False,
        "roots": True,
        "apps": True,
    }
    assert on_disk["roots"] == [{"uri": "file:///tmp/project", "name": "project"}]
    assert dialog.list.count() == 2

    # Edit: rename, and a duplicate name is refused with a clear message.
    editor.name.setText("Demo server")
    assert dialog.save() is None
    assert "A profile named “Demo server” already exists." in editor.problems.text()
    editor.name.setText("renamed")
    assert dialog.save() is not None
    assert names(store) == ["Demo server", "renamed"]
    assert store.find("renamed").id == saved.id  # type: ignore[union-attr]

    # A command that is not on PATH is a warning: shown, but saving is allowed.
    editor.command.setText("surely-not-installed-xyz")
    assert dialog.save() is not None
    assert "was not found on PATH" in editor.problems.text()

    dialog.delete_current()
    assert names(store) == ["Demo server"]
    assert dialog.list.count() == 1


def test_bad_url_scheme_is_refused(dialog: ProfilesDialog, store: ProfileStore) -> None:
    dialog.new_profile()
    editor = dialog.editor
    editor.name.setText("remote")
    editor.transport.setCurrentIndex(1)
    assert editor.target_stack.currentIndex() == 1
    editor.url.setText("ws://localhost:3000/mcp")
    assert dialog.save() is None
    assert "must start with http:// or https://" in editor.problems.text()
    editor.url.setText("http://localhost:3000/mcp")
    editor.http_transport.setCurrentIndex(editor.http_transport.findData("sse"))
    saved = dialog.save()
    assert saved is not None and saved.http.transport == "sse"


def test_secret_header_goes_to_the_keyring_not_the_file(
    memory_keyring: MemoryKeyring, dialog: ProfilesDialog, store: ProfileStore, tmp_path: Path
) -> None:
    dialog.new_profile()
    editor = dialog.editor
    editor.name.setText("remote")
    editor.transport.setCurrentIndex(1)
    editor.url.setText("https://example.com/mcp")
    row = editor.headers.add_row("Authorization", "Bearer top-secret-123", True)
    assert editor.headers.value_edit(row).echoMode().name == "Password"
    editor.headers.add_row("X-Plain", "visible", False)
    saved = dialog.save()
    assert saved is not None
    text = (tmp_path / "profiles.json").read_text()
    assert "top-secret-123" not in text and "visible" in text
    assert memory_keyring.store == {
        ("mcp-inspector-qt", f"profile:{saved.id}:header:Authorization"): "Bearer top-secret-123"
    }
    assert "system keyring" in editor.keyring_note.text()
    # Shown back as stored, never as its value.
    dialog.select(saved.id)
    value = editor.headers.value_edit(0)
    assert value.text() == "" and "in the keyring" in value.placeholderText()
    # Saving again without retyping keeps the secret.
    assert dialog.save() is not None
    assert len(memory_keyring.store) == 1


def test_no_keyring_says_so_and_offers_this_session_only(
    no_keyring: None, dialog: ProfilesDialog, store: ProfileStore, tmp_path: Path
) -> None:
    assert "No system keyring is available" in dialog.editor.keyring_note.text()
    asked: list[str] = []
    dialog.ask_session_only = lambda message: asked.append(message) is None and False
    dialog.new_profile()
    editor = dialog.editor
    editor.name.setText("needs key")
    editor.command.setText(PY)
    editor.env.add_row("API_KEY", "sk-123", True)
    assert dialog.save() is None
    assert asked and "for this session only" in asked[0]
    assert "could not be stored" in dialog.status.text()
    dialog.ask_session_only = lambda message: True
    saved = dialog.save()
    assert saved is not None
    assert "sk-123" not in (tmp_path / "profiles.json").read_text()
    assert store.secrets is not None
    assert store.secrets.where(saved.id, "env", "API_KEY") == "session"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (CONFIGS / "claude_desktop_config.json", ["filesystem", "github", "weather"]),
        (
            CONFIGS / "vscode" / ".vscode" / "mcp.json",
            ["Perplexity", "fetch", "github", "legacy-sse"],
        ),
        (CONFIGS / "cursor" / ".cursor" / "mcp.json", ["server-name", "remote"]),
    ],
)
def test_import_dialog_adds_every_server(
    memory_keyring: MemoryKeyring,
    qapp: QApplication,
    store: ProfileStore,
    path: Path,
    expected: list[str],
) -> None:
    dialog = ImportDialog(store)
    result = dialog.load_file(path)
    assert result is not None
    assert dialog.preview.count() == len(expected)
    added = dialog.import_selected()
    assert [p.name for p in added] == expected
    assert names(store) == ["Demo server", *expected]
    for profile in added:
        assert profile.source and str(path) in profile.source
    dialog.deleteLater()


def test_import_can_skip_servers_and_reports_bad_files(
    memory_keyring: MemoryKeyring, qapp: QApplication, store: ProfileStore, tmp_path: Path
) -> None:
    dialog = ImportDialog(store)
    dialog.load_file(CONFIGS / "claude_desktop_config.json")
    dialog.preview.item(1).setCheckState(dialog.preview.item(1).checkState().Unchecked)
    added = dialog.import_selected()
    assert [p.name for p in added] == ["filesystem", "weather"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"nothing": 1}')
    assert dialog.load_file(bad) is None
    assert "does not look like an MCP config" in dialog.status.text()
    assert not dialog.import_button.isEnabled()
    dialog.deleteLater()


def test_import_with_no_keyring_asks_and_keeps_secrets_for_this_session_only(
    no_keyring: None, qapp: QApplication, store: ProfileStore, tmp_path: Path
) -> None:
    dialog = ImportDialog(store)
    dialog.load_file(CONFIGS / "claude_desktop_config.json")
    asked: list[str] = []
    dialog.ask_session_only = lambda message: asked.append(message) is None and False
    assert dialog.import_selected() == []
    assert asked and dialog.status.text() == "Not imported: secret values could not be stored."
    assert names(store) == ["Demo server"]
    dialog.ask_session_only = lambda message: True
    added = dialog.import_selected()
    assert [p.name for p in added] == ["filesystem", "github", "weather"]
    assert "ghp_exampletoken123" not in (tmp_path / "profiles.json").read_text()
    dialog.deleteLater()


def test_export_copies_a_server_entry(dialog: ProfilesDialog, store: ProfileStore) -> None:
    store.put(Profile(name="tool", stdio=StdioSettings(command=PY, args=["-m", "tool"])))
    dialog.select(store.find("tool").id)  # type: ignore[union-attr]
    text = dialog.copy_entry("claude")
    assert json.loads(text) == {"mcpServers": {"tool": {"command": PY, "args": ["-m", "tool"]}}}
    assert QGuiApplication.clipboard().text() == text
    vscode = json.loads(dialog.copy_entry("vscode"))
    assert vscode["servers"]["tool"]["type"] == "stdio"


def test_connect_from_the_dialog_emits_the_profile(
    dialog: ProfilesDialog, store: ProfileStore
) -> None:
    chosen: list[Profile] = []
    dialog.connect_requested.connect(chosen.append)
    dialog.select("demo")
    dialog.connect_button.click()
    assert [p.id for p in chosen] == ["demo"]


def test_profiles_the_command_line_saved_while_the_window_was_open(
    qapp: QApplication, store: ProfileStore
) -> None:
    """`profiles import` in a terminal while the app runs: opening Profiles… shows what it
    added, and a save in the dialog keeps what it adds after that (it was written over)."""
    from tests.helpers.journeys import click

    terminal = ProfileStore(store.path)  # another process's store, as the CLI opens it
    terminal.put(Profile(name="from the terminal", stdio=StdioSettings(command=PY)))
    dialog = ProfilesDialog(store)  # as Profiles… opens it
    dialog.show()
    assert [dialog.list.item(i).text().split("\n")[0] for i in range(dialog.list.count())] == [
        "Demo server",
        "from the terminal",
    ]
    terminal.put(Profile(name="later from the terminal", stdio=StdioSettings(command=PY)))
    click(next(b for b in dialog.findChildren(QPushButton) if b.text() == "New"))
    dialog.editor.name.setText("in the window")
    dialog.editor.command.setText(PY)
    click(dialog.save_button)
    assert names(ProfileStore(store.path)) == [
        "Demo server",
        "from the terminal",
        "later from the terminal",
        "in the window",
    ]
    assert dialog.list.count() == 4
    dialog.deleteLater()
