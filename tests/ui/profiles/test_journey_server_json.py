"""Journey (issue 30, item 1): Import servers ▸ "Paste a server.json" with the registry docs'
npm example on the clipboard: the list shows the npx command, the notes say which secret to
enter; Import adds the profile with an empty secret. A broken server.json lists each problem
as "pointer: sentence" and imports nothing; a server.json file opened like a config is read as
one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from inspector.settings.profiles import ProfileStore
from inspector.ui.profiles.profiles_dialog import ImportDialog
from tests.helpers.journeys import click
from tests.helpers.memory_keyring import MemoryKeyring
from tests.registry.test_server_json import WITH_PACKAGE, WITH_REMOTE

pytestmark = pytest.mark.timeout(60)


def rows(dialog: ImportDialog) -> list[str]:
    return [dialog.preview.item(i).text() for i in range(dialog.preview.count())]


def test_a_pasted_server_json_becomes_a_profile_with_its_secret_to_enter(
    memory_keyring: MemoryKeyring, qapp: QApplication, store: ProfileStore
) -> None:
    dialog = ImportDialog(store)
    dialog.show()
    QGuiApplication.clipboard().setText(json.dumps(WITH_PACKAGE))
    click(dialog.paste_button)
    assert rows(dialog) == [
        "io.github.user/local-weather  —  npx -y @modelcontextprotocol/server-weather@1.0.0 "
        "'{config_path}' --port 8080"
    ]
    assert dialog.status.text() == "1 server(s) in the server.json from the clipboard."
    notes = dialog.warnings.toPlainText()
    assert "enter API_KEY (it is kept in the keyring)" in notes
    assert "replace {config_path} with a value" in notes
    click(dialog.import_button)
    profile = store.find("io.github.user/local-weather")
    assert profile is not None and profile.stdio.command == "npx"
    assert [(e.name, e.value, e.secret) for e in profile.stdio.env] == [("API_KEY", "", True)]
    dialog.deleteLater()


def test_a_broken_server_json_lists_its_problems_and_imports_nothing(
    memory_keyring: MemoryKeyring, qapp: QApplication, store: ProfileStore, tmp_path: Path
) -> None:
    dialog = ImportDialog(store)
    dialog.show()
    broken = {**WITH_REMOTE, "version": 2, "remotes": [{"type": "ftp", "url": "x"}]}
    QGuiApplication.clipboard().setText(json.dumps(broken))
    click(dialog.paste_button)
    assert rows(dialog) == []
    assert not dialog.import_button.isEnabled()
    assert dialog.status.text().startswith("Not imported: the server.json from the clipboard")
    assert dialog.warnings.toPlainText().splitlines() == [
        '/remotes/0/type: "ftp" is not one of: "streamable-http", "sse".',
        "/version: It must be a string, not a number.",
    ]
    QGuiApplication.clipboard().setText("{not json")
    click(dialog.paste_button)
    assert "It is not valid JSON (line 1, column 2)" in dialog.warnings.toPlainText()

    path = tmp_path / "server.json"
    path.write_text(json.dumps(WITH_REMOTE))
    dialog.load_file(path)
    assert rows(dialog) == ["Remote Weather  —  https://api.example.com/mcp"]
    click(dialog.import_button)
    profile = store.find("Remote Weather")
    assert profile is not None and profile.http.headers[0].secret
    dialog.deleteLater()
