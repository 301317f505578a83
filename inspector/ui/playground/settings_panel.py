"""The Playground's settings column: which tabs take part, the provider and model, the
approval policy, the step limit, the system prompt and whether the servers' instructions are
included.

The providers are those configured for sampling (Client ▸ Model providers…, keys in the
keyring); "Model providers…" here opens the same dialog, and the lists follow what it saved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from inspector.features.providers.providers import ModelSettings, ProviderConfig
from inspector.host.policy import READ_ONLY_NOTE
from inspector.host.records import Conversation
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["POLICY_LABELS", "SettingsPanel"]

POLICY_LABELS: Final = {
    "ask": "Ask before every call",
    "read-only": "Auto-approve read-only tools",
    "all": "Approve every call",
    "none": "Refuse every call",
}
_DESTRUCTIVE_NOTE: Final = "Tools annotated destructive always ask."


class SettingsPanel(QWidget):
    providers_requested = Signal()  # "Model providers…" was clicked
    tabs_changed = Signal()  # a tab was ticked or unticked

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playgroundSettings")
        self.providers: list[ProviderConfig] = []
        self._filled = False  # the tab list was filled once
        self.tab_list = QListWidget()
        self.tab_list.setObjectName("playgroundTabs")
        self.tab_list.setToolTip("Tick the tabs whose tools the model may call")
        self.tab_list.setMaximumHeight(110)
        self.tab_list.itemChanged.connect(lambda _item: self.tabs_changed.emit())
        self.tools_note = PlainLabel(wrap=True, selectable=True)
        self.tools_note.setObjectName("playgroundToolsNote")
        self.tools_note.setStyleSheet(f"color: {colors().muted.name()};")
        self.provider = QComboBox()
        self.provider.setObjectName("playgroundProvider")
        self.provider.currentIndexChanged.connect(self._provider_changed)
        self.model = QComboBox()
        self.model.setObjectName("playgroundModel")
        self.model.setEditable(True)
        self.model.setToolTip("A model of the provider (type another name if it is not listed)")
        self.providers_button = QPushButton("Model providers…")
        self.providers_button.setObjectName("playgroundProviders")
        self.providers_button.clicked.connect(self.providers_requested.emit)
        self.no_provider = PlainLabel(
            "No model provider is set up: add one with “Model providers…” (the same providers "
            "answer sampling).",
            wrap=True,
        )
        self.no_provider.setStyleSheet(f"color: {colors().warn.name()};")
        self.policy = QComboBox()
        self.policy.setObjectName("playgroundPolicy")
        for key, label in POLICY_LABELS.items():
            self.policy.addItem(label, key)
        self.policy.currentIndexChanged.connect(self._policy_changed)
        self.policy_note = PlainLabel(wrap=True)
        self.policy_note.setObjectName("playgroundPolicyNote")
        self.policy_note.setStyleSheet(f"color: {colors().muted.name()};")
        self.max_steps = QSpinBox()
        self.max_steps.setObjectName("playgroundMaxSteps")
        self.max_steps.setRange(1, 100)
        self.max_steps.setValue(10)
        self.max_steps.setToolTip("Model requests a turn may make before it is stopped")
        self.system_prompt = QPlainTextEdit()
        self.system_prompt.setObjectName("playgroundSystemPrompt")
        self.system_prompt.setPlaceholderText("System prompt (optional)")
        self.system_prompt.setMaximumHeight(90)
        self.instructions = QCheckBox("Include the servers' instructions")
        self.instructions.setObjectName("playgroundInstructions")
        self.instructions.setChecked(True)

        form = QFormLayout()
        form.addRow("Provider", self.provider)
        form.addRow("Model", self.model)
        form.addRow("Approval", self.policy)
        form.addRow("Step limit", self.max_steps)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(PlainLabel("Tabs taking part"))
        layout.addWidget(self.tab_list)
        layout.addWidget(self.tools_note)
        layout.addLayout(form)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.providers_button)
        layout.addLayout(row)
        layout.addWidget(self.no_provider)
        layout.addWidget(self.policy_note)
        layout.addWidget(self.system_prompt)
        layout.addWidget(self.instructions)
        layout.addStretch(1)
        self._policy_changed()

    # ---------------------------------------------------------------- tabs
    def set_tabs(self, names: Sequence[tuple[str, str]]) -> None:
        """The open tabs as (name, state) pairs; the ticks of those still open are kept. At
        the first fill every connected tab starts ticked; a tab opened later starts ticked
        when it is the only one."""
        first, self._filled = not self._filled, True
        ticked = set(self.ticked_tabs())
        known = {
            self.tab_list.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(self.tab_list.count())
        }
        self.tab_list.blockSignals(True)
        self.tab_list.clear()
        for name, state in names:
            item = QListWidgetItem(f"{name} ({state})" if state else name)
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            on = (
                name in ticked
                or (first and state == "connected")
                or (name not in known and len(names) == 1)
            )
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            self.tab_list.addItem(item)
        self.tab_list.blockSignals(False)
        self.tabs_changed.emit()

    def ticked_tabs(self) -> list[str]:
        out = []
        for i in range(self.tab_list.count()):
            item = self.tab_list.item(i)
            if item.checkState() == Qt.CheckState.Checked:
                out.append(str(item.data(Qt.ItemDataRole.UserRole)))
        return out

    def tick(self, name: str, on: bool = True) -> None:
        for i in range(self.tab_list.count()):
            item = self.tab_list.item(i)
            if item.data(Qt.ItemDataRole.UserRole) == name:
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    # ---------------------------------------------------------------- providers
    def load_providers(self, settings: ModelSettings) -> None:
        """Fill the provider list from the saved settings (the choice kept when it is still
        there)."""
        current = self.current_provider()
        self.providers = list(settings.providers)
        self.provider.blockSignals(True)
        self.provider.clear()
        for provider in self.providers:
            self.provider.addItem(provider.label, provider.id)
        if current is not None:
            at = self.provider.findData(current.id)
            if at >= 0:
                self.provider.setCurrentIndex(at)
        self.provider.blockSignals(False)
        self.no_provider.setVisible(not self.providers)
        if settings.problem:
            self.no_provider.setText(settings.problem)
            self.no_provider.show()
        self._provider_changed()

    def current_provider(self) -> ProviderConfig | None:
        index = self.provider.currentIndex()
        return self.providers[index] if 0 <= index < len(self.providers) else None

    def _provider_changed(self) -> None:
        provider = self.current_provider()
        typed = self.model.currentText()
        self.model.clear()
        if provider is not None:
            self.model.addItems([m.name for m in provider.models])
        if typed and self.model.findText(typed) >= 0:
            self.model.setCurrentText(typed)

    # ---------------------------------------------------------------- policy
    def policy_key(self) -> str:
        return str(self.policy.currentData())

    def _policy_changed(self) -> None:
        key = self.policy_key()
        if key == "read-only":
            text = f"{READ_ONLY_NOTE} {_DESTRUCTIVE_NOTE}"
        elif key == "none":
            text = "No call is made; the model is told each one was refused."
        else:
            text = _DESTRUCTIVE_NOTE
        self.policy_note.setText(text)

    # ---------------------------------------------------------------- kept between runs
    def save(self, store: QSettings, group: str) -> None:
        """The choices (not the tabs: they change from run to run) into `store`."""
        provider = self.current_provider()
        store.beginGroup(group)
        store.setValue("provider", provider.id if provider is not None else "")
        store.setValue("model", self.model.currentText())
        store.setValue("policy", self.policy_key())
        store.setValue("maxSteps", self.max_steps.value())
        store.setValue("systemPrompt", self.system_prompt.toPlainText())
        store.setValue("instructions", self.instructions.isChecked())
        store.endGroup()

    def restore(self, store: QSettings, group: str) -> None:
        """The choices saved last time (after `load_providers`); what is gone is skipped."""
        store.beginGroup(group)
        try:
            at = self.provider.findData(str(store.value("provider", "")))
            model = str(store.value("model", "") or "")
            if at >= 0:  # (a model only with its provider)
                self.provider.setCurrentIndex(at)
                if model:
                    self.model.setCurrentText(model)
            at = self.policy.findData(str(store.value("policy", "")))
            if at >= 0:
                self.policy.setCurrentIndex(at)
            steps = store.value("maxSteps")
            if isinstance(steps, int | str) and str(steps).isdigit():
                self.max_steps.setValue(int(steps))
            prompt = store.value("systemPrompt")
            if isinstance(prompt, str):
                self.system_prompt.setPlainText(prompt)
            instructions = store.value("instructions")
            if instructions is not None:
                self.instructions.setChecked(str(instructions).lower() in ("true", "1"))
        finally:
            store.endGroup()

    def apply_to(self, conversation: Conversation) -> None:
        """The settings into the conversation, before a turn."""
        provider = self.current_provider()
        conversation.provider = provider.label if provider is not None else ""
        conversation.model = self.model.currentText().strip()
        conversation.system_prompt = self.system_prompt.toPlainText()
        conversation.include_instructions = self.instructions.isChecked()
        conversation.tabs = self.ticked_tabs()
        conversation.policy = self.policy_key()
        conversation.max_steps = self.max_steps.value()
