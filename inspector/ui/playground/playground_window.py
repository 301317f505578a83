"""The Playground: a conversation with a model that may call the tools of the open tabs.

The window is given the open tabs as `PlaygroundTab`s (the shell builds them from its
connection tabs): a name, its connection, where its recording keeps the conversation, and
how to select a request in its traffic log. The person ticks the tabs that take part; their
tools are offered as `tab__tool` (host/tool_table: collisions kept apart and said). Each
turn runs in the host's `TurnEngine` on the event loop: the model's text streams into the
turn as it arrives, each tool call is a card (approval, edit, result, traffic link), Stop
cancels what is in flight. After each turn the conversation is written into the recording
of every tab that took part (a `conversation` line: docs/session-format.md), so opening that
file shows it again, read-only.

Nothing a provider, a model or a server does closes the window or a tab: a provider that is
down, a 429, a 500 or garbage ends the turn with the provider's sentence; a tool that fails
or a server that goes away mid-turn is an error result the model is told about.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from inspector.evals.cases import EvalsFileError
from inspector.features.providers.providers import ModelSettings, ProviderConfig
from inspector.host.engine import TurnEngine
from inspector.host.interface import Approval, HostEvent, PendingCall
from inspector.host.records import Conversation, TurnRecord
from inspector.host.tool_table import ToolTable
from inspector.storage.secrets import SecretStore
from inspector.ui.playground.host_choices import (
    NO_PROVIDER,
    HostChoices,
    ModelFactory,
    provider_chat_model,
    say_on,
)
from inspector.ui.playground.live_turn import LiveTurn
from inspector.ui.playground.save_case import append_case
from inspector.ui.playground.settings_panel import SettingsPanel
from inspector.ui.playground.tab_tools import PlaygroundTab
from inspector.ui.playground.transcript import Transcript
from inspector.ui.playground.turn_view import TurnView, turn_figures
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["ModelFactory", "PlaygroundTab", "PlaygroundWindow", "provider_chat_model"]

log = logging.getLogger(__name__)


class PlaygroundWindow(QWidget):
    turn_finished = Signal(object)  # TurnRecord

    def __init__(
        self,
        tabs: Callable[[], list[PlaygroundTab]],
        secrets: SecretStore | None,
        *,
        models: Callable[[], ModelSettings] = ModelSettings.load,
        model_factory: ModelFactory = provider_chat_model,
        store: QSettings | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """`store`: where the settings are kept between runs (None: not kept)."""
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("playgroundWindow")
        self.store = store
        self.setWindowTitle("Playground")
        self.conversation = Conversation()
        self.conversation_id = uuid.uuid4().hex[:12]
        self.engine: TurnEngine | None = None
        self.live: LiveTurn | None = None
        self.task: asyncio.Task[None] | None = None
        self.last_turn: TurnRecord | None = None
        self.table = ToolTable()
        self._participants: list[PlaygroundTab] = []
        self._case_file: Path | None = None  # the evals file a case was last saved in

        self.settings = SettingsPanel()
        self.choices = HostChoices(
            self.settings,
            tabs,
            secrets,
            models=models,
            model_factory=model_factory,
            parent=self,
            on_reloaded=self._providers_reloaded,
        )
        self.transcript = Transcript()
        self.prompt = QPlainTextEdit()
        self.prompt.setObjectName("playgroundPrompt")
        self.prompt.setPlaceholderText("Ask the model… (Ctrl+Enter sends)")
        self.prompt.setMaximumHeight(80)
        self.send_button = QPushButton("Send")
        self.send_button.setObjectName("playgroundSend")
        self.send_button.setToolTip("Send the message (Ctrl+Enter)")
        self.stop_button = QPushButton("Stop")
        self.stop_button.setObjectName("playgroundStop")
        self.stop_button.setToolTip("Stop the turn: the model request or tool call in flight")
        self.stop_button.setEnabled(False)
        self.new_button = QPushButton("New conversation")
        self.new_button.setObjectName("playgroundNew")
        self.save_case_button = QPushButton("Save turn as eval case…")
        self.save_case_button.setObjectName("playgroundSaveCase")
        self.save_case_button.setToolTip("Append the last turn to an evals file as a case")
        self.save_case_button.setEnabled(False)
        self.message = PlainLabel(wrap=True, selectable=True)
        self.message.setObjectName("playgroundMessage")

        buttons = QHBoxLayout()
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.save_case_button)
        buttons.addStretch(1)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.send_button)
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.transcript, 1)
        column.addWidget(self.message)
        column.addWidget(self.prompt)
        column.addLayout(buttons)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.settings)
        split.addWidget(right)
        split.setStretchFactor(1, 3)
        split.setSizes([300, 800])
        layout = QVBoxLayout(self)
        layout.addWidget(split)
        self.resize(1150, 760)

        self.send_button.clicked.connect(self.send)
        self.stop_button.clicked.connect(self.stop)
        self.new_button.clicked.connect(self.new_conversation)
        self.save_case_button.clicked.connect(self.choose_and_save_case)
        self.transcript.reveal_requested.connect(self.reveal)
        self.settings.tabs_changed.connect(self._tabs_ticked)
        QShortcut(QKeySequence("Ctrl+Return"), self.prompt, self.send)
        self.choices.reload_providers()
        if store is not None:
            self.settings.restore(store, "playground")
        self.choices.refresh_tabs()

    # ---------------------------------------------------------------- tabs, providers
    def _providers_reloaded(self) -> None:
        """The "choose a provider" message goes once there is one."""
        if self.message.text() == NO_PROVIDER and self.settings.current_provider() is not None:
            self.say("")

    def _tabs_ticked(self) -> None:
        ticked = set(self.settings.ticked_tabs())
        names = [
            t.name if t.state == "connected" else f"{t.name} (when connected)"
            for t in self.choices.tabs()
            if t.name in ticked
        ]
        self.settings.tools_note.setText(
            "The model may call the tools of: " + ", ".join(names)
            if names
            else "No tab takes part: the model can only talk."
        )

    def say(self, text: str, *, error: bool = False) -> None:
        say_on(self.message, text, error=error)

    # ---------------------------------------------------------------- a turn
    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def send(self) -> asyncio.Task[None] | None:
        """Send the typed message as a new turn (nothing while a turn runs)."""
        if self.running:
            return None
        text = self.prompt.toPlainText().strip()
        if not text:
            self.say("Type a message first.", error=True)
            return None
        missing = self.choices.missing()
        provider = self.settings.current_provider()
        if missing is not None or provider is None:
            self.say(missing or NO_PROVIDER, error=True)
            return None
        self.prompt.clear()
        self.send_button.setEnabled(False)  # (at once: the task starts on the next turn)
        self.stop_button.setEnabled(True)
        self.new_button.setEnabled(False)
        self.task = asyncio.get_event_loop().create_task(self._turn(text, provider))
        return self.task

    def stop(self) -> None:
        """Stop the turn: the engine's model request or tool call in flight; before the
        engine runs (while the tools are listed), the turn itself."""
        if not self.running:
            return
        self.say("Stopping…")
        engine = self.engine
        if engine is not None and engine.running:
            engine.stop()
        elif self.task is not None:
            self.task.cancel()

    async def _turn(self, text: str, provider: ProviderConfig) -> None:
        self.say("Listing the tools…")
        try:
            found = await self.choices.ticked_tools()
            self._participants = found.taking_part
            table = found.table
            model = self.choices.chat_model(provider)
            self.settings.apply_to(self.conversation)
            if self.store is not None:
                self.settings.save(self.store, "playground")
            self.conversation.tabs = [t.name for t in self._participants]
            engine = self.engine
            if engine is None:
                engine = TurnEngine(
                    model, table, self.conversation, approver=self._approve, on_event=self._event
                )
                self.engine = engine
            engine.model = model
            engine.tools = table
            engine.instructions = found.instructions()
            view = self.transcript.add_turn(TurnView(text))
            self.live = LiveTurn(view)
            self.say("Waiting for the model…")
            turn = await engine.run_turn(text)
            self.last_turn = turn
            kept = self._keep()
            self.say(self._ended_text(turn) + kept, error=turn.outcome != "answered")
            self.turn_finished.emit(turn)
        except asyncio.CancelledError:
            self.say("Stopped by the user (before the model was asked).", error=True)
            if self.live is not None:
                self.live.view.outcome.setText("Stopped by the user.")
                self.live.view.outcome.show()
        except Exception as exc:  # a bug of ours must not take the window down
            log.exception("a playground turn failed")
            self.say(f"The turn failed: {exc}", error=True)
        finally:
            self.live = None
            self.send_button.setEnabled(True)
            self.stop_button.setEnabled(False)
            self.new_button.setEnabled(True)
            self.save_case_button.setEnabled(self.last_turn is not None)
            self.transcript.follow()

    @staticmethod
    def _ended_text(turn: TurnRecord) -> str:
        if turn.outcome == "answered":
            return f"Answered: {turn_figures(turn)}."
        return turn.error or f"The turn ended: {turn.outcome}."

    def _event(self, event: HostEvent) -> None:
        if self.live is not None:
            self.live.on_event(event)
            self.transcript.follow()

    async def _approve(self, pending: PendingCall) -> Approval:
        live = self.live
        if live is None:
            return Approval.refuse("The Playground is not showing this turn.")
        self.say("A tool call waits for you: Send, Edit arguments or Refuse on its card.")
        self.transcript.follow()
        try:
            return await live.approve(pending)
        finally:
            self.say("")  # (the turn's own line says what it does now)

    def _keep(self) -> str:
        """The conversation into each taking part tab's recording (the latest line wins);
        what to add to the turn's message when no recording could keep it."""
        data = self.conversation.to_json()
        kept = [t.name for t in self._participants if t.record(self.conversation_id, data)]
        if self._participants and not kept:
            return (
                " The conversation is not kept: no tab taking part is recording "
                "(File ▸ Record Sessions)."
            )
        return ""

    def new_conversation(self) -> None:
        """Forget the turns (they stay in the recordings written so far)."""
        if self.running:
            return
        self.conversation = Conversation()
        self.conversation_id = uuid.uuid4().hex[:12]
        self.engine = None
        self.last_turn = None
        self.save_case_button.setEnabled(False)
        self.transcript.clear_turns()
        self.say("A new conversation.")

    # ---------------------------------------------------------------- eval cases
    def choose_and_save_case(self) -> None:
        """Save turn as eval case…: pick an evals file (a new one, or one to add to)."""
        if self.last_turn is None:
            return
        path, _filter = QFileDialog.getSaveFileName(
            self,
            "Save the turn as an eval case (added to the file)",
            str(self._case_file or Path.home() / "evals.json"),
            "Evals files (*.json);;All files (*)",
            options=QFileDialog.Option.DontConfirmOverwrite,
        )
        if path:
            self.save_case(Path(path))

    def save_case(self, path: Path) -> str | None:
        """Append the last turn to `path` as a case; its name (None: said why not)."""
        turn = self.last_turn
        if turn is None:
            return None
        try:
            name = append_case(path, turn)
        except (EvalsFileError, OSError) as exc:
            self.say(f"The case was not saved: {exc}", error=True)
            return None
        self._case_file = path
        self.say(f"Saved the turn as case “{name}” in {path}.")
        return name

    # ---------------------------------------------------------------- traffic links
    def reveal(self, tab_name: str, request_id: str | int) -> bool:
        """A card's "Show in traffic log": select the call's request in its tab's log."""
        tab = next((t for t in self.choices.tabs() if t.name == tab_name), None)
        if tab is None:
            self.say(f"The tab {tab_name} is closed.", error=True)
            return False
        if not tab.reveal(request_id):
            self.say(f"Request {request_id!r} is no longer in {tab_name}'s traffic log.")
            return False
        return True

    def closeEvent(self, event: Any) -> None:
        self.stop()
        super().closeEvent(event)
