"""The sampling dialog: the server asks the client's LLM for a message; the user is the LLM.

Left: what the server sent (the conversation, with every content type shown by the shared
ContentBlocksView; the system prompt, maxTokens, model preferences, includeContext,
temperature, stop sequences, tools and toolChoice, metadata). Right: the reply the user
writes or edits (text, role, model, stopReason, or the raw result JSON), then Approve or
Reject. With a model provider set up, "Draft with MODEL" (ModelDraftPanel) asks the model
chosen from the request's modelPreferences and puts its answer in the reply to edit,
approve or reject; the result's model and stopReason are the provider's. Reject answers a legacy
request with error -1 ("User rejected"); a modern MRTR request is abandoned, as the
protocol core does (there is no error slot in inputResponses).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.features.asks.sampling import (
    ROLES,
    STOP_REASONS,
    SamplingRequest,
    parse_sampling_request,
    sampling_result,
    transcript,
)
from inspector.features.providers.drafter import Draft, Drafter
from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.wire.versions import Era
from inspector.ui.asks.ask_dialog import AskDialog
from inspector.ui.asks.model_draft_panel import ModelDraftPanel
from inspector.ui.content.blocks_view import ContentBlocksView
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.screen_fit import fit_to_screen
from inspector.ui.widgets.split_panes import split_panes

__all__ = ["SamplingDialog"]


def _read_only_text(text: str, *, mono: bool = False, lines: int = 0) -> QPlainTextEdit:
    view = QPlainTextEdit()
    view.setReadOnly(True)
    view.setPlainText(text)
    if mono:
        view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    if lines:
        height = view.fontMetrics().lineSpacing() * lines + 14
        view.setMaximumHeight(height)
    return view


def _priority_bar(value: float | None) -> QWidget:
    if value is None:
        label = PlainLabel("not given")
        label.setEnabled(False)
        return label
    # The value is a label beside the bar: text drawn across the bar's fill would read in
    # two colours where the fill ends ("0.5" half on the chunk, half on the groove).
    bar = QProgressBar()
    bar.setRange(0, 100)
    bar.setValue(round(max(0.0, min(1.0, value)) * 100))
    bar.setTextVisible(False)
    bar.setMaximumHeight(bar.fontMetrics().height() + 6)
    box = QWidget()
    row = QHBoxLayout(box)
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(bar, 1)
    row.addWidget(PlainLabel(f"{value:g}"))
    return box


class SamplingDialog(AskDialog):
    title = "Sampling request"

    def __init__(
        self,
        ask: ServerAsk,
        parent: QWidget | None = None,
        *,
        can_auto_answer: bool = False,
        drafter: Drafter | None = None,
        on_providers: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(ask, parent)
        self.request: SamplingRequest = parse_sampling_request(ask.params)
        self.set_problems(self.request.problems)
        self.model_panel = ModelDraftPanel(self.request, drafter, on_providers=on_providers)
        self.model_panel.drafted.connect(self._drafted)
        self.model_panel.failed.connect(self._draft_failed)
        intro = PlainLabel(
            "The server asks the client's language model for a message. Draft it with a "
            "model, or be the model: read the request, write the reply, and approve it "
            "(or reject the request).",
            wrap=True,
            selectable=True,
        )
        self.body.addWidget(intro)
        sides = [self._request_side(), self._reply_side(can_auto_answer)]
        split = split_panes(Qt.Orientation.Horizontal, sides, stretch=(3, 2))
        self.add_content(split, 1)
        self.approve_button = QPushButton("Approve")
        self.approve_button.setDefault(True)
        self.approve_button.clicked.connect(self.approve)
        self.reject_button = QPushButton("Reject")
        self.reject_button.setToolTip(
            "Legacy: answer with error -1 (user rejected). Modern: abandon the request that "
            "asked (MRTR has no way to send an error back)."
        )
        self.reject_button.clicked.connect(self.reject_request)
        self.add_buttons(self.reject_button, self.approve_button)
        fit_to_screen(self, 980, 640)
        self.reply_text.setFocus()

    # ---------------------------------------------------------------- building
    def _request_side(self) -> QWidget:
        r = self.request
        side = QWidget()
        layout = QVBoxLayout(side)
        layout.setContentsMargins(0, 0, 0, 0)
        count = len(r.messages)
        layout.addWidget(
            PlainLabel(
                f"Conversation ({count} message{'s' if count != 1 else ''})",
                wrap=True,
                selectable=True,
            )
        )
        layout.addWidget(self._conversation(), 3)
        if r.system_prompt:
            layout.addWidget(PlainLabel("System prompt", wrap=True, selectable=True))
            self.system_prompt = _read_only_text(r.system_prompt, lines=4)
            layout.addWidget(self.system_prompt, 1)
        params = QGroupBox("Parameters")
        form = QFormLayout(params)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        shown = "not given" if r.max_tokens is None else f"{r.max_tokens:,}"
        form.addRow("maxTokens:", PlainLabel(shown, selectable=True))
        form.addRow(
            "Model hints:",
            PlainLabel(", ".join(r.hints) if r.hints else "none", wrap=True, selectable=True),
        )
        form.addRow("Cost priority:", _priority_bar(r.cost_priority))
        form.addRow("Speed priority:", _priority_bar(r.speed_priority))
        form.addRow("Intelligence priority:", _priority_bar(r.intelligence_priority))
        form.addRow(
            "includeContext:",
            PlainLabel(r.include_context or "not given (none)", wrap=True, selectable=True),
        )
        temp = "not given" if r.temperature is None else f"{r.temperature:g}"
        form.addRow("temperature:", PlainLabel(temp, wrap=True, selectable=True))
        stops = ", ".join(json.dumps(s, ensure_ascii=False) for s in r.stop_sequences)
        form.addRow("stopSequences:", PlainLabel(stops or "none", wrap=True, selectable=True))
        if r.tools or r.tool_choice is not None:
            lines = [
                f"{t.get('name', '?')} — {t.get('description', '')}".rstrip(" —") for t in r.tools
            ]
            self.tools_view = _read_only_text("\n".join(lines) or "(no tools)", lines=3)
            form.addRow(PlainLabel(f"tools ({len(r.tools)}):"), self.tools_view)
            choice = json.dumps(r.tool_choice, ensure_ascii=False) if r.tool_choice else "auto"
            form.addRow("toolChoice:", PlainLabel(choice, wrap=True, selectable=True))
        if r.metadata:
            form.addRow(
                "metadata:",
                PlainLabel(json.dumps(r.metadata, ensure_ascii=False), wrap=True, selectable=True),
            )
        layout.addWidget(params)
        return side

    def _conversation(self) -> QWidget:
        """Each message: its role, then its content with every content type shown."""
        inner = QWidget()
        column = QVBoxLayout(inner)
        column.setContentsMargins(4, 4, 4, 4)
        self.message_views: list[ContentBlocksView] = []
        for message in self.request.messages:
            role = PlainLabel(message.role, selectable=True)
            font = role.font()
            font.setBold(True)
            role.setFont(font)
            column.addWidget(role)
            view = ContentBlocksView()
            view.set_blocks(message.blocks)
            column.addWidget(view)
            self.message_views.append(view)
        if not self.request.messages:
            column.addWidget(PlainLabel("(no messages)", wrap=True, selectable=True))
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        return scroll

    def conversation_text(self) -> str:
        """The conversation as plain text (what the message views show)."""
        return transcript(self.request)

    def _reply_side(self, can_auto_answer: bool) -> QWidget:
        side = QWidget()
        layout = QVBoxLayout(side)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.model_panel)
        form = QFormLayout()
        self.role_combo = QComboBox()
        self.role_combo.addItems(list(ROLES))
        self.model_edit = QLineEdit(self.request.suggested_model)
        self.model_edit.setToolTip("The model name sent back (the first model hint by default)")
        self.stop_combo = QComboBox()
        self.stop_combo.setEditable(True)
        self.stop_combo.addItems(["", *STOP_REASONS])
        self.stop_combo.setCurrentText("endTurn")
        self.stop_combo.setToolTip("stopReason; empty leaves it out. Any text is allowed.")
        form.addRow("Role:", self.role_combo)
        form.addRow("Model:", self.model_edit)
        form.addRow("Stop reason:", self.stop_combo)
        layout.addLayout(form)
        self.reply_text = QPlainTextEdit()
        self.reply_text.setPlaceholderText("Write the model's reply here…")
        self.raw_edit = QPlainTextEdit()
        self.raw_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.raw_error = PlainLabel("", wrap=True, selectable=True)
        raw_page = QWidget()
        raw_layout = QVBoxLayout(raw_page)
        raw_layout.setContentsMargins(0, 0, 0, 0)
        raw_layout.addWidget(
            PlainLabel(
                "The CreateMessageResult exactly as it will be sent (any content type).",
                wrap=True,
                selectable=True,
            )
        )
        raw_layout.addWidget(self.raw_edit, 1)
        raw_layout.addWidget(self.raw_error)
        self.reply_tabs = QTabWidget()
        self.reply_tabs.addTab(self.reply_text, "Reply")
        self.reply_tabs.addTab(raw_page, "Raw result JSON")
        self.reply_tabs.currentChanged.connect(self._tab_changed)
        layout.addWidget(self.reply_tabs, 1)
        self.auto_answer = QCheckBox(
            "Answer this profile's next sampling requests with this reply, without asking"
        )
        self.auto_answer.setToolTip(
            "For long sessions. Turn it off in the Client menu (Auto-answer sampling)."
        )
        self.auto_answer.setVisible(can_auto_answer)
        layout.addWidget(self.auto_answer)
        return side

    # ---------------------------------------------------------------- the model's draft
    def _drafted(self, draft: Draft) -> None:
        """Put the draft in the reply: text in the form, anything else (tool use, several
        blocks) as the raw result, both editable before approving."""
        self.notice.hide()
        result = draft.result
        content = result.get("content")
        if isinstance(content, dict) and content.get("type") == "text":
            self.reply_tabs.setCurrentIndex(0)
            self.reply_text.setPlainText(str(content.get("text", "")))
            self.role_combo.setCurrentText(str(result.get("role", "assistant")))
            self.model_edit.setText(str(result.get("model", "")))
            self.stop_combo.setCurrentText(str(result.get("stopReason", "")))
        else:
            self.reply_tabs.setCurrentIndex(1)
            self.raw_edit.setPlainText(json.dumps(result, indent=2, ensure_ascii=False))
        self.approve_button.setFocus()

    def _draft_failed(self, message: str) -> None:
        self.notice.show_text(
            f"The model could not answer: {message}. Retry, answer by hand, or reject.",
            "error",
        )

    def finish(self, result: dict[str, Any]) -> None:
        self.model_panel.cancel()
        super().finish(result)

    def refuse(self, message: str) -> None:
        self.model_panel.cancel()
        super().refuse(message)

    def withdraw(self, reason: str) -> None:
        self.model_panel.cancel()
        super().withdraw(reason)

    # ---------------------------------------------------------------- answer
    def form_result(self) -> dict[str, Any]:
        return sampling_result(
            self.reply_text.toPlainText(),
            role=self.role_combo.currentText(),
            model=self.model_edit.text().strip(),
            stop_reason=self.stop_combo.currentText().strip(),
        )

    def _tab_changed(self, index: int) -> None:
        if index == 1:  # entering the raw view: start from what the form says
            self.raw_edit.setPlainText(json.dumps(self.form_result(), indent=2, ensure_ascii=False))
            self.raw_error.setText("")

    def result_to_send(self) -> dict[str, Any] | None:
        """The reply, or None (with the reason shown) when the raw JSON is not an object."""
        if self.reply_tabs.currentIndex() == 0:
            return self.form_result()
        try:
            value = json.loads(self.raw_edit.toPlainText())
        except ValueError as exc:
            self.raw_error.setText(f"Not JSON: {exc}")
            return None
        if not isinstance(value, dict):
            self.raw_error.setText("The result must be a JSON object.")
            return None
        return value

    def approve(self) -> None:
        result = self.result_to_send()
        if result is not None:
            self.finish(result)

    def reject_request(self) -> None:
        if self.ask.era is Era.LEGACY:
            self.refuse("the user rejected the sampling request")
        else:
            self.refuse("the user rejected the sampling request (the request is abandoned)")

    def dismissed(self) -> None:
        self.reject_request()
