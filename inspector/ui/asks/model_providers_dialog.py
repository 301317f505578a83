"""Client ▸ Model providers…: the models that can draft sampling replies.

An OpenAI-compatible endpoint (OpenAI itself, or a local Ollama, vLLM, llama.cpp or LM Studio
server: base URL + model names, no key needed) or the Anthropic Messages API. Each model
gets the ratings (cost, speed, intelligence, 0..1) that a request's priorities weigh, and
its output-token limit when known. Keys go to the system keyring, never to a file; with no
keyring, the dialog says so and can keep the key for this session only. The hint mapping
(a hint containing TEXT goes to MODEL) is per profile.

At its default size every part shows (issue 31, item 17): the models table has room for a
few rows, the keyring note its own lines; a new provider waits 60 s for a reply, and its
entry in the list follows its name as it is typed.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.features.providers.client import sdk_available
from inspector.features.providers.names import DEFAULT_BASE_URL, INSTALL_HINT, ProviderKind
from inspector.features.providers.providers import (
    MappingRule,
    ModelEntry,
    ModelSettings,
    ProviderConfig,
    provider_key,
    set_provider_key,
)
from inspector.storage.secrets import NoKeyringError, SecretStore
from inspector.ui.widgets.dialog_buttons import ok_cancel_buttons
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.screen_fit import fit_to_screen

__all__ = ["ModelProvidersDialog"]

MODEL_COLUMNS = ("Model", "Cost (1 = cheap)", "Speed", "Intelligence", "Max output tokens")
KIND_LABEL = {"openai": "OpenAI-compatible", "anthropic": "Anthropic Messages API"}
_TABLE_ROWS: Final = 4  # the models and mapping tables show this many rows unscrolled


def _rating(text: str, default: float = 0.5) -> float:
    try:
        return min(max(float(text), 0.0), 1.0)
    except ValueError:
        return default


class ModelProvidersDialog(QDialog):
    def __init__(
        self,
        settings: ModelSettings,
        secrets: SecretStore,
        *,
        profile_id: str | None = None,
        profile_name: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Model providers")
        self.settings = settings
        self.secrets = secrets
        self.profile_id = profile_id
        self.keys: dict[str, str] = {}  # provider id → key typed here (saved on OK)
        self.current: ProviderConfig | None = None
        self._shown: ProviderConfig | None = None  # whose values the editor holds
        layout = QVBoxLayout(self)
        layout.addWidget(
            PlainLabel(
                "Models that draft sampling replies for you to approve. Keys are kept in the "
                "system keyring, never in a file; a local server needs none.",
                wrap=True,
            )
        )
        if settings.problem:
            layout.addWidget(PlainLabel(settings.problem, wrap=True, selectable=True))
        row = QHBoxLayout()
        left = QVBoxLayout()
        self.provider_list = QListWidget()
        self.provider_list.currentRowChanged.connect(self._select)
        left.addWidget(self.provider_list, 1)
        self.add_openai = QPushButton("Add OpenAI-compatible")
        self.add_openai.clicked.connect(lambda: self.add_provider("openai"))
        self.add_anthropic = QPushButton("Add Anthropic")
        self.add_anthropic.clicked.connect(lambda: self.add_provider("anthropic"))
        self.remove_button = QPushButton("Remove")
        self.remove_button.clicked.connect(self.remove_provider)
        for button in (self.add_openai, self.add_anthropic, self.remove_button):
            left.addWidget(button)
        row.addLayout(left, 1)
        row.addWidget(self._editor(), 3)
        layout.addLayout(row, 1)
        layout.addWidget(self._mapping(profile_name))
        buttons = ok_cancel_buttons(self, self.save)
        layout.addWidget(buttons)
        self._refresh_list()
        fit_to_screen(self, 900, 720)

    # ---------------------------------------------------------------- building
    def _editor(self) -> QWidget:
        box = QGroupBox("Provider")
        form = QFormLayout(box)
        self.kind_label = PlainLabel()
        self.name_edit = QLineEdit()
        self.name_edit.textEdited.connect(self._label_edited)
        self.url_edit = QLineEdit()
        self.url_edit.textEdited.connect(self._label_edited)
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_state = PlainLabel(wrap=True)
        self.timeout_spin = QDoubleSpinBox()
        self.timeout_spin.setRange(1, 600)
        self.timeout_spin.setSuffix(" s")
        self.timeout_spin.setValue(ProviderConfig("openai").timeout)
        self.image_check = QCheckBox("images")
        self.audio_check = QCheckBox("audio")
        media = QHBoxLayout()
        media.addWidget(self.image_check)
        media.addWidget(self.audio_check)
        media.addStretch(1)
        self.models_table = QTableWidget(0, len(MODEL_COLUMNS))
        self.models_table.setHorizontalHeaderLabels(list(MODEL_COLUMNS))
        self.models_table.horizontalHeader().setStretchLastSection(True)
        _rows_high(self.models_table)
        self.add_model_button = QPushButton("Add model")
        self.add_model_button.clicked.connect(lambda: self._add_model_row(ModelEntry("")))
        self.sdk_state = PlainLabel(wrap=True)
        form.addRow("Kind:", self.kind_label)
        form.addRow("Name:", self.name_edit)
        form.addRow("Base URL:", self.url_edit)
        form.addRow("API key:", self.key_edit)
        form.addRow("", self.key_state)
        form.addRow("Timeout:", self.timeout_spin)
        form.addRow("The models take:", media)
        form.addRow(self.models_table)
        form.addRow(self.add_model_button)
        form.addRow(self.sdk_state)
        self.editor = box
        return box

    def _mapping(self, profile_name: str) -> QWidget:
        box = QGroupBox(
            f"Hint mapping for the profile {profile_name!r}" if profile_name else "Hint mapping"
        )
        layout = QVBoxLayout(box)
        layout.addWidget(
            PlainLabel(
                "A model hint from the server that contains TEXT goes to MODEL (checked in order, "
                "before the models' own names).",
                wrap=True,
            )
        )
        self.mapping_table = QTableWidget(0, 2)
        self.mapping_table.setHorizontalHeaderLabels(["Hint contains", "Model"])
        self.mapping_table.horizontalHeader().setStretchLastSection(True)
        _rows_high(self.mapping_table, fixed=True)
        layout.addWidget(self.mapping_table)
        self.add_rule_button = QPushButton("Add mapping")
        self.add_rule_button.clicked.connect(lambda: self._add_rule_row(None))
        layout.addWidget(self.add_rule_button)
        box.setEnabled(self.profile_id is not None)
        if self.profile_id is None:
            layout.addWidget(PlainLabel("Pick a profile to edit its mapping.", wrap=True))
        for rule in self.settings.rules_for(self.profile_id):
            self._add_rule_row(rule)
        return box

    def _model_refs(self) -> list[tuple[str, str, str]]:
        """(provider id, model name, label) of every configured model."""
        return [
            (p.id, m.name, f"{m.name} ({p.label})")
            for p in self.settings.providers
            for m in p.models
            if m.name
        ]

    def _add_rule_row(self, rule: MappingRule | None) -> None:
        row = self.mapping_table.rowCount()
        self.mapping_table.insertRow(row)
        self.mapping_table.setItem(row, 0, QTableWidgetItem(rule.hint if rule else ""))
        combo = QComboBox()
        for pid, name, label in self._model_refs():
            combo.addItem(label, (pid, name))
            if rule is not None and (pid, name) == (rule.provider_id, rule.model):
                combo.setCurrentIndex(combo.count() - 1)
        self.mapping_table.setCellWidget(row, 1, combo)

    def _add_model_row(self, model: ModelEntry) -> None:
        row = self.models_table.rowCount()
        self.models_table.insertRow(row)
        limit = "" if model.max_output_tokens is None else str(model.max_output_tokens)
        values = (
            model.name,
            f"{model.cost:g}",
            f"{model.speed:g}",
            f"{model.intelligence:g}",
            limit,
        )
        for column, value in enumerate(values):
            self.models_table.setItem(row, column, QTableWidgetItem(value))

    # ---------------------------------------------------------------- providers
    def _refresh_list(self) -> None:
        self.provider_list.blockSignals(True)
        self.provider_list.clear()
        for provider in self.settings.providers:
            self.provider_list.addItem(f"{provider.label} · {KIND_LABEL[provider.kind]}")
        self.provider_list.blockSignals(False)
        has = bool(self.settings.providers)
        self.editor.setEnabled(has)
        self.remove_button.setEnabled(has)
        if has:
            index = (
                self.settings.providers.index(self.current)
                if self.current in self.settings.providers
                else 0
            )
            self.provider_list.setCurrentRow(index)
            self._show(self.settings.providers[index])

    def add_provider(self, kind: ProviderKind) -> ProviderConfig:
        self._keep()
        provider = ProviderConfig(kind, models=[])
        self.settings.providers.append(provider)
        self.current = provider
        self._refresh_list()
        return provider

    def remove_provider(self) -> None:
        if self.current is None:
            return
        self.settings.providers.remove(self.current)
        self.keys[self.current.id] = ""  # forget its key on save
        self.current = None
        self._refresh_list()

    def _select(self, row: int) -> None:
        self._keep()
        if 0 <= row < len(self.settings.providers):
            self._show(self.settings.providers[row])

    def _show(self, provider: ProviderConfig) -> None:
        self.current = provider
        self._shown = provider
        self.kind_label.setText(KIND_LABEL[provider.kind])
        self.name_edit.setText(provider.name)
        self.url_edit.setText(provider.base_url)
        self.url_edit.setPlaceholderText(
            DEFAULT_BASE_URL[provider.kind]
            + (
                "  (or e.g. http://localhost:11434/v1 for Ollama)"
                if provider.kind == "openai"
                else ""
            )
        )
        self.key_edit.setText(self.keys.get(provider.id, ""))
        stored = self.secrets.where("model-provider", provider.id, "api-key")
        self.key_edit.setPlaceholderText(
            "(stored; type to replace)" if stored else "(none: fine for a local server)"
        )
        status = self.secrets.status()
        self.key_state.setText(status.message)
        self.timeout_spin.setValue(provider.timeout)
        self.image_check.setChecked("image" in provider.modalities)
        self.audio_check.setChecked("audio" in provider.modalities)
        self.models_table.setRowCount(0)
        for model in provider.models:
            self._add_model_row(model)
        self.sdk_state.setText(
            ""
            if sdk_available(provider.kind)
            else f"The {provider.kind!r} SDK is not installed: {INSTALL_HINT}"
        )

    def _label_edited(self, _text: str) -> None:
        """The provider's entry in the list follows its name (or URL) as it is typed."""
        provider = self._shown
        if provider is None or provider not in self.settings.providers:
            return
        provider.name = self.name_edit.text().strip()
        provider.base_url = self.url_edit.text().strip().rstrip("/")
        item = self.provider_list.item(self.settings.providers.index(provider))
        if item is not None:
            item.setText(f"{provider.label} · {KIND_LABEL[provider.kind]}")

    def _keep(self) -> None:
        """Take what the editor shows into the provider it shows."""
        provider = self._shown
        if provider is None or provider not in self.settings.providers:
            return
        provider.name = self.name_edit.text().strip()
        provider.base_url = self.url_edit.text().strip().rstrip("/")
        provider.timeout = self.timeout_spin.value()
        provider.modalities = tuple(
            m
            for m, box in (("text", None), ("image", self.image_check), ("audio", self.audio_check))
            if box is None or box.isChecked()
        )
        models = []
        for row in range(self.models_table.rowCount()):
            cells = [self.models_table.item(row, c) for c in range(len(MODEL_COLUMNS))]
            texts = [c.text().strip() if c is not None else "" for c in cells]
            if not texts[0]:
                continue
            limit = int(texts[4]) if texts[4].isdigit() and int(texts[4]) > 0 else None
            models.append(
                ModelEntry(texts[0], _rating(texts[1]), _rating(texts[2]), _rating(texts[3]), limit)
            )
        provider.models = models
        typed = self.key_edit.text()
        if typed:
            self.keys[provider.id] = typed

    # ---------------------------------------------------------------- save
    def rules(self) -> list[MappingRule]:
        rules = []
        for row in range(self.mapping_table.rowCount()):
            item = self.mapping_table.item(row, 0)
            combo = self.mapping_table.cellWidget(row, 1)
            hint = item.text().strip() if item is not None else ""
            if hint and isinstance(combo, QComboBox) and combo.currentData() is not None:
                pid, name = combo.currentData()
                rules.append(MappingRule(hint, pid, name))
        return rules

    def save(self) -> None:
        self._keep()
        for pid, key in self.keys.items():
            provider = self.settings.provider(pid) or ProviderConfig("openai", id=pid)
            try:
                set_provider_key(self.secrets, provider, key)
            except NoKeyringError as exc:
                answer = QMessageBox.question(
                    self,
                    "No keyring",
                    f"{exc}\n\nKeep the key of {provider.label} in memory for this session?",
                )
                if answer == QMessageBox.StandardButton.Yes:
                    self.secrets.set("model-provider", pid, "api-key", key, session_only=True)
        if self.profile_id is not None:
            self.settings.mappings[self.profile_id] = self.rules()
        try:
            self.settings.save()
        except OSError as exc:
            QMessageBox.warning(self, "Model providers", f"Could not save: {exc}")
            return
        self.accept()

    def key_of(self, provider: ProviderConfig) -> str | None:
        return provider_key(self.secrets, provider)


def _rows_high(table: QTableWidget, *, fixed: bool = False) -> None:
    """Room for `_TABLE_ROWS` rows under the header (at least; exactly when `fixed`)."""
    rows = table.verticalHeader().defaultSectionSize() * _TABLE_ROWS
    height = rows + table.horizontalHeader().sizeHint().height() + table.frameWidth() * 2
    table.setMinimumHeight(height)
    if fixed:
        table.setMaximumHeight(height)
