"""The sampling dialog's model: which configured model the request's modelPreferences chose
and why, "Draft with MODEL", and what came back (usage, latency, the notes on what was
changed to fit the model, or the error with Retry).

The draft runs as a task on the running loop (qasync): the dialog stays live, the traffic
keeps flowing, and the task is cancelled when the dialog ends or the server withdraws the
request. The person then edits, approves or rejects the draft in the dialog; nothing is sent
to the server from here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
)

from inspector.features.asks.sampling import SamplingRequest
from inspector.features.providers.choice import ModelChoice
from inspector.features.providers.drafter import Draft, Drafter
from inspector.features.providers.types import ModelError
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["ModelDraftPanel"]

log = logging.getLogger(__name__)


class ModelDraftPanel(QGroupBox):
    drafted = Signal(object)  # Draft
    failed = Signal(str)

    def __init__(
        self,
        request: SamplingRequest,
        drafter: Drafter | None,
        *,
        on_providers: Callable[[], None] | None = None,
    ) -> None:
        super().__init__("Model")
        self.request = request
        self.drafter = drafter
        self.task: asyncio.Task[None] | None = None
        self.last_error: ModelError | None = None
        self.draft: Draft | None = None
        layout = QVBoxLayout(self)
        self.choices: list[ModelChoice] = []
        self.chosen: ModelChoice | None = None
        self.model_combo = QComboBox()
        self.model_combo.currentIndexChanged.connect(self._picked)
        self.reason = PlainLabel(wrap=True, selectable=True)
        self.draft_button = QPushButton()
        self.draft_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Stop")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.hide()
        self.providers_button = QPushButton("Model providers…")
        self.providers_button.setVisible(on_providers is not None)
        if on_providers is not None:
            self.providers_button.clicked.connect(on_providers)
        row = QHBoxLayout()
        row.addWidget(self.model_combo, 1)
        row.addWidget(self.draft_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.providers_button)
        layout.addLayout(row)
        layout.addWidget(self.reason)
        self.status = PlainLabel(wrap=True, selectable=True)
        self.notes = PlainLabel(wrap=True, selectable=True)
        self.notes.hide()
        layout.addWidget(self.status)
        layout.addWidget(self.notes)
        if request.include_context in ("thisServer", "allServers"):
            self.status.setText(
                f"includeContext is {request.include_context!r}: the inspector holds no "
                "conversation with a model to include, so the model gets only these messages."
            )
        self.auto_approve = QCheckBox(
            "Auto-approve the model's drafts for the rest of this session"
        )
        self.auto_approve.setToolTip(
            "Off by default. While on, sampling requests are sent to the chosen model and its "
            "answer goes back to the server without this dialog; a banner says so."
        )
        layout.addWidget(self.auto_approve)
        self.set_drafter(drafter)

    def set_drafter(self, drafter: Drafter | None) -> None:
        """The models to draft with (again after the providers were edited)."""
        self.drafter = drafter
        self.choices = drafter.models() if drafter is not None else []
        self.chosen = drafter.choose(self.request) if drafter is not None else None
        self.model_combo.blockSignals(True)
        self.model_combo.clear()
        for choice in self.choices:
            self.model_combo.addItem(choice.label)
        self.model_combo.blockSignals(False)
        ready = self.chosen is not None
        for widget in (self.model_combo, self.draft_button, self.auto_approve):
            widget.setVisible(ready)
        if self.chosen is None:
            self.reason.setText(
                "No model provider is set up: answer by hand, or add an OpenAI-compatible "
                "endpoint (a local Ollama, vLLM, llama.cpp or LM Studio server works) or the "
                "Anthropic API under Model providers."
            )
        else:
            self.model_combo.blockSignals(True)
            self.model_combo.setCurrentIndex(self._index_of(self.chosen))
            self.model_combo.blockSignals(False)
            self._show_choice()

    # ---------------------------------------------------------------- choice
    def _index_of(self, choice: ModelChoice) -> int:
        for i, other in enumerate(self.choices):
            if other.provider.id == choice.provider.id and other.model.name == choice.model.name:
                return i
        return 0

    def _picked(self, index: int) -> None:
        if 0 <= index < len(self.choices):
            picked = self.choices[index]
            if self.chosen is None or picked.label != self.chosen.label:
                self.chosen = ModelChoice(picked.provider, picked.model, "picked by hand")
            self._show_choice()

    def _show_choice(self) -> None:
        choice = self.chosen
        assert choice is not None
        self.draft_button.setText(f"Draft with {choice.model.name}")
        warn = "⚠ " if choice.fallback else ""
        self.reason.setText(f"{warn}Chosen: {choice.label}, because {choice.reason}.")
        self.reason.setStyleSheet(f"color: {colors().warn.name()};" if choice.fallback else "")

    # ---------------------------------------------------------------- drafting
    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def start(self) -> None:
        if self.drafter is None or self.chosen is None or self.busy:
            return
        self.task = asyncio.get_running_loop().create_task(self._run(self.chosen))
        self.draft_button.setEnabled(False)
        self.model_combo.setEnabled(False)
        self.cancel_button.show()
        self._status(f"Drafting with {self.chosen.model.name}…", "")

    def cancel(self) -> None:
        if self.busy:
            assert self.task is not None
            self.task.cancel()

    async def _run(self, choice: ModelChoice) -> None:
        assert self.drafter is not None
        try:
            draft = await self.drafter.draft(self.request, choice=choice)
        except asyncio.CancelledError:
            self._idle()
            self._status("Stopped: nothing was drafted.", "warn")
            return
        except ModelError as exc:
            self.last_error = exc
            self._idle(retry=True)
            advice = "Retry, pick another model, answer by hand, or reject the request."
            self._status(f"The model could not answer: {exc}. {advice}", "error")
            self.failed.emit(str(exc))
            return
        except Exception as exc:  # a bug must not leave the dialog stuck
            log.exception("drafting failed")
            self._idle(retry=True)
            self._status(f"Drafting failed: {exc}", "error")
            self.failed.emit(str(exc))
            return
        self.draft = draft
        self.last_error = None
        self._idle()
        retried = f" (after {draft.attempts - 1} rate-limit wait)" if draft.attempts > 1 else ""
        self._status(
            f"Drafted by {draft.summary()}{retried}. Edit it below, then approve or reject.",
            "ok",
        )
        if draft.notes:
            self.notes.setText("Changed to fit the model:\n• " + "\n• ".join(draft.notes))
            self.notes.show()
        self.drafted.emit(draft)

    def _idle(self, *, retry: bool = False) -> None:
        self.cancel_button.hide()
        self.draft_button.setEnabled(True)
        self.model_combo.setEnabled(True)
        if self.chosen is not None:
            verb = "Retry with" if retry else "Draft with"
            self.draft_button.setText(f"{verb} {self.chosen.model.name}")

    def _status(self, text: str, level: str) -> None:
        c = colors()
        color = {"warn": c.warn, "error": c.error, "ok": c.ok}.get(level)
        self.status.setStyleSheet(f"color: {color.name()};" if color is not None else "")
        self.status.setText(text)
