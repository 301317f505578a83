"""Client ▸ Model providers… at its default size, as a person adds a provider (issue 31,
item 17): every part shows (the models table has room and Add model adds a row on screen;
the "no keyring" note does not cover the Timeout row), a new provider waits 60 s, and its
entry in the list follows the name as it is typed, before OK."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from inspector.features.providers.providers import ModelSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.asks.model_providers_dialog import ModelProvidersDialog
from tests.helpers.journeys import click, type_into

pytestmark = [pytest.mark.timeout(30), pytest.mark.usefixtures("no_keyring")]


def on_dialog(widget: QWidget, dialog: QWidget) -> QRect:
    """Where `widget` is drawn, in the dialog's coordinates."""
    return QRect(widget.mapTo(dialog, QPoint(0, 0)), widget.size())


def test_default_size_shows_every_part_and_the_list_follows_the_name(
    qtbot: QtBot, tmp_path: Path
) -> None:
    dialog = ModelProvidersDialog(
        ModelSettings(tmp_path / "models.json"), SecretStore(), profile_id="p", profile_name="demo"
    )
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)

    click(dialog.add_openai)
    assert dialog.timeout_spin.text() == "60.00 s"
    assert dialog.key_state.isVisible() and "keyring" in dialog.key_state.text()

    def note_whole() -> bool:  # every line of the note shown, once the layout has settled
        note = on_dialog(dialog.key_state, dialog)
        return note.height() >= dialog.key_state.heightForWidth(note.width())

    qtbot.waitUntil(note_whole)
    note = on_dialog(dialog.key_state, dialog)
    assert not note.intersects(on_dialog(dialog.timeout_spin, dialog))

    table = dialog.models_table
    click(dialog.add_model_button)
    assert table.rowCount() == 1
    row = table.visualRect(table.model().index(0, 0))
    assert row.height() > 0 and table.viewport().rect().contains(row)

    type_into(dialog.name_edit, "Local Ollama")
    assert dialog.provider_list.item(0).text() == "Local Ollama · OpenAI-compatible"
    click(dialog.add_anthropic)  # a second provider: the first keeps what was typed
    assert dialog.provider_list.count() == 2
    assert dialog.provider_list.item(0).text() == "Local Ollama · OpenAI-compatible"
    assert dialog.timeout_spin.text() == "60.00 s"
    assert [p.timeout for p in dialog.settings.providers] == [60.0, 60.0]
