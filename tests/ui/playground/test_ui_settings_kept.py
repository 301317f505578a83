"""The Playground's choices are kept between runs (not the tabs): provider, model, policy,
step limit, system prompt, instructions; a provider that is gone is skipped."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from inspector.features.providers.providers import ModelEntry, ModelSettings, ProviderConfig
from inspector.ui.playground.settings_panel import SettingsPanel


def test_the_choices_come_back(qtbot: QtBot, tmp_path: Path) -> None:
    models = ModelSettings(tmp_path / "models.json")
    models.providers += [
        ProviderConfig("openai", "A", models=[ModelEntry("a1")], id="pa"),
        ProviderConfig("anthropic", "B", models=[ModelEntry("b1"), ModelEntry("b2")], id="pb"),
    ]
    store = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    first = SettingsPanel()
    qtbot.addWidget(first)
    first.load_providers(models)
    first.provider.setCurrentIndex(1)
    first.model.setCurrentText("b2")
    first.policy.setCurrentIndex(first.policy.findData("read-only"))
    first.max_steps.setValue(4)
    first.system_prompt.setPlainText("Be <b>brief</b>.")
    first.instructions.setChecked(False)
    first.save(store, "playground")

    again = SettingsPanel()
    qtbot.addWidget(again)
    again.load_providers(models)
    again.restore(store, "playground")
    assert (again.provider.currentText(), again.model.currentText()) == ("B", "b2")
    assert (again.policy_key(), again.max_steps.value()) == ("read-only", 4)
    assert again.system_prompt.toPlainText() == "Be <b>brief</b>."
    assert not again.instructions.isChecked()

    models.providers.pop()  # B is gone: the first provider stays chosen
    gone = SettingsPanel()
    qtbot.addWidget(gone)
    gone.load_providers(models)
    gone.restore(store, "playground")
    assert (gone.provider.currentText(), gone.model.currentText()) == ("A", "a1")
