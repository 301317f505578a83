"""What a host view (the Playground, the Evals view) runs with, as its `SettingsPanel`
chooses it: the open tabs that take part and their tools, the model provider and model, and
the provider's key. One object that both windows hold (composed, not inherited): it fills
the panel's tab list and provider lists, opens the model providers dialog when the panel
asks for it, says what is still to choose before a run, and builds the tool table and the
chat model for a run."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QLabel, QWidget

from inspector.features.providers.providers import ModelSettings, ProviderConfig, provider_key
from inspector.host.interface import ChatModel
from inspector.storage.secrets import SecretStore
from inspector.ui.asks.model_providers_dialog import ModelProvidersDialog
from inspector.ui.playground.settings_panel import SettingsPanel
from inspector.ui.playground.tab_tools import PlaygroundTab, TabTools, list_tab_tools
from inspector.ui.widgets.theme import colors

__all__ = ["NO_PROVIDER", "HostChoices", "ModelFactory", "provider_chat_model", "say_on"]

NO_PROVIDER = "Choose a model provider first (Model providers…)."
NO_MODEL = "Choose or type a model name first."

ModelFactory = Callable[[ProviderConfig, "str | None"], ChatModel]


def provider_chat_model(provider: ProviderConfig, key: str | None) -> ChatModel:
    """The real model: the provider's chat API, each request bounded by the provider's
    timeout (imported when first asked for: httpx stays out of the cold start)."""
    from inspector.host.model import ProviderModel

    return ProviderModel(provider, key, timeout=provider.timeout)


def say_on(label: QLabel, text: str, *, error: bool = False) -> None:
    """A host view's status line: `text`, in the error colour or muted."""
    label.setText(text)
    color = colors().error if error else colors().muted
    label.setStyleSheet(f"color: {color.name()};")


class HostChoices:
    """The tabs, providers and model of one host view, chosen in its `settings` panel.

    `tabs` gives the open tabs now; `models` loads the saved model providers; `secrets`
    holds their keys (None: an empty store, and the environment); `model_factory` makes
    the chat model for a provider and key; `parent` is the window the providers dialog
    opens over; `on_reloaded` runs after the provider lists are loaded again."""

    def __init__(
        self,
        settings: SettingsPanel,
        tabs: Callable[[], list[PlaygroundTab]],
        secrets: SecretStore | None,
        *,
        models: Callable[[], ModelSettings],
        model_factory: ModelFactory,
        parent: QWidget,
        on_reloaded: Callable[[], None] | None = None,
    ) -> None:
        self.settings = settings
        self.tabs = tabs
        self.secrets = secrets
        self.models = models
        self.model_factory = model_factory
        self.parent = parent
        self.on_reloaded = on_reloaded
        settings.providers_requested.connect(self.open_providers)

    def refresh_tabs(self) -> None:
        """The open tabs changed (opened, closed, connected, renamed): the list follows."""
        self.settings.set_tabs([(t.name, t.state) for t in self.tabs()])

    def reload_providers(self) -> None:
        """The provider lists, from the saved model providers (then `on_reloaded`)."""
        self.settings.load_providers(self.models())
        if self.on_reloaded is not None:
            self.on_reloaded()

    def open_providers(self) -> ModelProvidersDialog:
        """The model providers dialog (the one sampling uses); the lists follow its save."""
        dialog = ModelProvidersDialog(
            self.models(), self.secrets or SecretStore(), parent=self.parent
        )
        dialog.finished.connect(lambda _result: self.reload_providers())
        dialog.open()
        return dialog

    def missing(self) -> str | None:
        """What is still to choose before a run (no provider, no model name); None: nothing."""
        if self.settings.current_provider() is None:
            return NO_PROVIDER
        if not self.model_name():
            return NO_MODEL
        return None

    def model_name(self) -> str:
        return self.settings.model.currentText().strip()

    async def ticked_tools(self) -> TabTools:
        """List the tools of the ticked tabs now; the panel's note says what was found."""
        ticked = set(self.settings.ticked_tabs())
        found = await list_tab_tools([t for t in self.tabs() if t.name in ticked])
        self.settings.tools_note.setText(found.note())
        return found

    def chat_model(self, provider: ProviderConfig) -> ChatModel:
        """The chat model for `provider`, with its key (stored, or from the environment)."""
        return self.model_factory(provider, provider_key(self.secrets, provider, env=True))
