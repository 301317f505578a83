"""The config import's "Tap this server" and "Remove tap": the entry before and after is
shown, nothing is written until Write, and removing the tap gives back the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from inspector.settings.profiles import ProfileStore
from inspector.storage.secrets import SecretStore
from inspector.ui.profiles.profiles_dialog import ImportDialog
from tests.helpers.peers import FIXTURES, PY

pytestmark = pytest.mark.usefixtures("config_dir")


@pytest.mark.parametrize(
    "name", ["claude_desktop_config.json", "vscode_mcp.json", "cursor_mcp.json"]
)
def test_tap_and_untap_from_the_import_dialog(
    qapp: QApplication, tmp_path: Path, name: str
) -> None:
    path = tmp_path / ".cursor" / name if name.startswith("cursor") else tmp_path / name
    path.parent.mkdir(exist_ok=True)
    source = (FIXTURES / "host_configs" / name).read_text()
    path.write_text(source.replace('"PYTHON"', json.dumps(PY)))
    original = path.read_text()
    dialog = ImportDialog(ProfileStore(tmp_path / "profiles.json", SecretStore()))
    try:
        dialog.load_file(path)
        actions = dialog.tap_actions
        assert not actions.tap_button.isEnabled()  # nothing chosen yet
        names = [p.name for p in dialog.result_.profiles]  # type: ignore[union-attr]
        dialog.preview.setCurrentRow(names.index("demo"))
        assert actions.tap_button.isEnabled() and not actions.untap_button.isEnabled()
        confirm = actions.open(install=True)
        assert confirm is not None
        assert '"inspector.demo"' in confirm.before.toPlainText()
        assert '"tap"' in confirm.after.toPlainText()
        assert "Only this entry changes" in confirm.facts.text()
        assert path.read_text() == original  # not before Write
        confirm.write_button.click()
        assert confirm.backup is not None and confirm.backup.read_text() == original
        assert path.read_text() != original
        assert "now runs through the tap" in dialog.status.text()
        # The reloaded list shows it tapped: now only Remove tap applies.
        assert dialog.preview.currentRow() == names.index("demo")
        assert actions.untap_button.isEnabled() and not actions.tap_button.isEnabled()
        undo = actions.open(install=False)
        assert undo is not None
        undo.write_button.click()
        assert path.read_text() == original
        # An HTTP server cannot take the stdio tap.
        others = [i for i, p in enumerate(dialog.result_.profiles) if p.transport == "http"]  # type: ignore[union-attr]
        if others:
            dialog.preview.setCurrentRow(others[0])
            assert not actions.tap_button.isEnabled()
    finally:
        dialog.close()
        dialog.deleteLater()
