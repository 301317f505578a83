"""Journey (issue 30, item 1): Import servers ▸ "Paste a server.json" with the registry docs'
npm example on the clipboard: the list shows the npx command, the notes say which secret to
enter; Import adds the profile with an empty secret. A broken server.json lists each problem
as "pointer: sentence" and imports nothing; a server.json file opened like a config is read as
one. Copy server entry ▸ as server.json copies a document that validates, without secrets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from inspector.registry.schema import validate
from inspector.settings.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from inspector.ui.profiles.profiles_dialog import ImportDialog, ProfilesDialog
from tests.helpers.journeys import click, click_tab
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
    click_tab(dialog.tabs, "server.json")
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
    click_tab(dialog.tabs, "server.json")
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


def test_copy_server_entry_as_server_json_gives_a_valid_document_without_secrets(
    memory_keyring: MemoryKeyring, qapp: QApplication, store: ProfileStore
) -> None:
    store.put(
        Profile(
            name="weather",
            stdio=StdioSettings(
                command="uvx",
                args=["weather-mcp==2.1.0"],
                env=[EnvVar(name="API_KEY", value="s3cret", secret=True)],
            ),
        )
    )
    store.put(Profile(name="script", stdio=StdioSettings(command="python3", args=["s.py"])))
    dialog = ProfilesDialog(store)
    dialog.show()
    dialog.select(store.find("weather").id)  # type: ignore[union-attr]
    [action] = [a for a in dialog.export_button.menu().actions() if a.text() == "as server.json"]
    action.trigger()
    text = QGuiApplication.clipboard().text()
    assert "s3cret" not in text
    document = json.loads(text)
    assert validate(document) == []
    assert document["packages"][0]["identifier"] == "weather-mcp"
    assert dialog.status.text() == "Copied as server.json (secrets are named, never included)."
    dialog.select(store.find("script").id)  # type: ignore[union-attr]
    action.trigger()
    assert dialog.status.text().startswith("Cannot copy as server.json: a profile that runs")
    assert QGuiApplication.clipboard().text() == text
    dialog.deleteLater()
