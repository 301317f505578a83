"""The workspace's "Get" view for a prompt: its arguments as a form, then prompts/get
shown as a conversation (one card per message, every content type).

Arguments get completions from completion/complete (ref/prompt, with the arguments
already filled as context) when the server offers them. Required arguments are checked
before sending; "Send anyway" sends what is typed, to test the server's own validation.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from inspector.features.catalog.model import CatalogItem
from inspector.features.completion import Completer, prompt_ref
from inspector.features.prompts import (
    Conversation,
    PromptMessage,
    arguments_schema,
    arguments_to_send,
    parse_get_prompt_result,
)
from inspector.session import Call, RequestCancelled, Session, SessionError
from inspector.ui.content.blocks_view import ContentBlocksView
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.forms.completion import CompletionProvider
from inspector.ui.forms.schema_form import SchemaForm
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors
from inspector.ui.workspace.resource_reader import open_resource

__all__ = ["MessageCard", "PromptGetView", "prompt_view"]

_INDENT = 48  # how far a message leans to its side, chat-like


class MessageCard(QFrame):
    """One message: a role strip (user on the left, assistant on the right) and its content."""

    def __init__(self, message: PromptMessage) -> None:
        super().__init__()
        self.message = message
        self.setObjectName("messageCard")
        self.setFrameShape(QFrame.Shape.NoFrame)
        c = colors()
        accent = {"user": c.out, "assistant": c.incoming}.get(message.role, c.warn)
        self.setStyleSheet(
            f"QFrame#messageCard {{ border-left: 3px solid {accent.name()}; "
            f"background: {_tint(accent)}; border-radius: 4px; }}"
        )
        role = PlainLabel(message.role, selectable=True)
        role.setObjectName("messageRole")
        font = role.font()
        font.setBold(True)
        role.setFont(font)
        role.setStyleSheet(f"color: {accent.name()}; background: transparent;")
        self.blocks = ContentBlocksView()
        self.blocks.set_blocks(message.blocks)
        head = QHBoxLayout()
        head.addWidget(role)
        head.addStretch(1)
        summary = PlainLabel(self.blocks.summary(), selectable=True)
        summary.setStyleSheet(f"color: {c.muted.name()}; background: transparent;")
        head.addWidget(summary)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 8, 8)
        layout.addLayout(head)
        if message.problems:
            problems = PlainLabel(
                "\n".join(f"⚠ {p}" for p in message.problems), wrap=True, selectable=True
            )
            problems.setObjectName("messageProblems")
            problems.setStyleSheet(f"color: {c.warn.name()}; background: transparent;")
            layout.addWidget(problems)
        layout.addWidget(self.blocks)


def _tint(color: Any) -> str:
    """The accent at low opacity: a bubble that works on light and dark backgrounds."""
    return f"rgba({color.red()}, {color.green()}, {color.blue()}, 28)"


class PromptGetView(QWidget):
    def __init__(self, item: CatalogItem, controller: ConnectionController) -> None:
        super().__init__()
        self.setObjectName("promptGetView")
        self.item = item
        self.controller = controller
        self.call: Call | None = None
        self.task: asyncio.Task[Any] | None = None
        self.conversation: Conversation | None = None
        self.cards: list[MessageCard] = []
        self._holders: list[QWidget] = []
        self.gets = 0
        self._busy = False
        self._started = 0.0
        self._sized = False

        schema, declared_problems = arguments_schema(item.raw)
        self.names = list(schema["properties"])
        self.declared = PlainLabel(
            "\n".join(f"⚠ {p}" for p in declared_problems), wrap=True, selectable=True
        )
        self.declared.setObjectName("argumentProblems")
        self.declared.setStyleSheet(f"color: {colors().warn.name()}")
        self.declared.setVisible(bool(declared_problems))
        self.form = SchemaForm()
        self.form.setObjectName("promptForm")
        self.form.set_schema(schema)
        self.form.send_anyway_requested.connect(lambda: self.get(as_typed=True))
        self.completion_note = PlainLabel(wrap=True, selectable=True)
        self.completion_note.setObjectName("completionNote")
        self.completion_note.setStyleSheet(f"color: {colors().muted.name()}")
        self.completion_note.setVisible(False)

        self.get_button = QPushButton("Get")
        self.get_button.setObjectName("getButton")
        self.get_button.setDefault(True)
        self.get_button.clicked.connect(lambda: self.get())
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("cancelGet")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setVisible(False)
        self.copy_button = QPushButton("Copy messages")
        self.copy_button.setToolTip("Copy the messages as JSON")
        self.copy_button.clicked.connect(self.copy_messages)
        self.copy_button.setEnabled(False)
        self.status = ElidedLabel()
        self.status.setObjectName("getStatus")
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.get_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.status, 1)
        row.addWidget(self.copy_button)

        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.declared)
        top_layout.addWidget(self.form, 1)
        top_layout.addWidget(self.completion_note)
        top_layout.addLayout(row)

        self.description = PlainLabel(wrap=True, selectable=True)
        self.description.setObjectName("promptDescription")
        self.description.setStyleSheet(f"color: {colors().muted.name()}")
        self.result_problems = PlainLabel(wrap=True, selectable=True)
        self.result_problems.setObjectName("resultProblems")
        self.result_problems.setStyleSheet(f"color: {colors().warn.name()}")
        self.placeholder = PlainLabel(
            "Fill the arguments, then press Get.", wrap=True, selectable=True
        )
        self.placeholder.setObjectName("conversationPlaceholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setStyleSheet(f"color: {colors().muted.name()}")
        page = QWidget()
        self.messages_layout = QVBoxLayout(page)
        self.messages_layout.setContentsMargins(4, 4, 8, 4)
        self.messages_layout.setSpacing(8)
        self.messages_layout.addWidget(self.description)
        self.messages_layout.addWidget(self.result_problems)
        self.messages_layout.addWidget(self.placeholder)
        self.messages_layout.addStretch(1)
        self.description.setVisible(False)
        self.result_problems.setVisible(False)
        self.conversation_area = QScrollArea()
        self.conversation_area.setObjectName("conversation")
        self.conversation_area.setWidgetResizable(True)
        self.conversation_area.setWidget(page)

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.conversation_area)
        self.splitter.setStretchFactor(0, 0)  # a taller window grows the result, not the form
        self.splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.splitter)

        self._elapsed = QTimer(self)
        self._elapsed.setInterval(100)
        self._elapsed.timeout.connect(
            lambda: self._set_status(f"Getting… {time.monotonic() - self._started:.1f} s", None)
        )
        # Bound slots, not lambdas: Qt drops them when the view is destroyed (evicted).
        controller.state_changed.connect(self._state_changed)
        controller.server_ready.connect(self._server_ready)
        end = self._end_own_work
        self.destroyed.connect(lambda *_: end())
        self._refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            total = max(self.splitter.height(), 400)
            page = self.form.form_area.widget()
            need = (page.sizeHint().height() if page is not None else 60) + 110
            if self.declared.isVisible():
                need += self.declared.sizeHint().height()
            top = min(need, int(total * 0.5))
            self.splitter.setSizes([top, total - top])

    def _end_own_work(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        if self.call is not None:
            self.call.cancel("the view was closed")

    # ---------------------------------------------------------------- state
    def session(self) -> Session | None:
        session = self.controller.session
        return session if session is not None and session.is_ready else None

    def _state_changed(self, _state: str, _detail: str) -> None:
        self._refresh()

    def _server_ready(self, _ready: object) -> None:
        self._refresh()

    def _refresh(self) -> None:
        if not shiboken6.isValid(self):
            return
        session = self.session()
        self.get_button.setEnabled(session is not None and not self._busy)
        self.get_button.setToolTip("" if session is not None else "Connect to get prompts.")
        self.cancel_button.setVisible(self._busy)
        self._update_completer(session)

    def _update_completer(self, session: Session | None) -> None:
        if session is None or not self.names:
            self.form.set_completer(None)
            return
        completer = Completer(session, prompt_ref(self.item.key), self.names)
        ok, why = completer.available
        self.form.set_completer(self._provider(completer) if ok else None)
        self.completion_note.setText("" if ok else f"No suggestions: {why}.")
        self.completion_note.setVisible(not ok)

    def _provider(self, completer: Completer) -> CompletionProvider:
        async def provide(name: str, prefix: str, values: dict[str, Any]) -> list[str]:
            got = await completer.complete(name, prefix, values)  # failures: the form's note
            problems = completer.last.problems if completer.last is not None else []
            self.completion_note.setText("Completion: " + "; ".join(problems))
            self.completion_note.setVisible(bool(problems))
            return got

        return provide

    # ---------------------------------------------------------------- get
    def get(self, *, as_typed: bool = False) -> asyncio.Task[Any] | None:
        session = self.session()
        if session is None or self._busy:
            return None
        if not as_typed and self.form.validation_errors():
            self._set_status("Fix the arguments marked in the form (or Send anyway).", "warn")
            return None
        arguments = arguments_to_send(self.form.values(), as_typed=as_typed)
        self.task = self.controller.start(self._get(session, arguments), f"get {self.item.key}")
        return self.task

    async def _get(self, session: Session, arguments: dict[str, Any]) -> None:
        self._started = time.monotonic()
        try:
            self.call = session.client.start_get_prompt(self.item.key, arguments or None)
        except SessionError as exc:
            self._failed(str(exc))
            return
        self._busy = True
        self._elapsed.start()
        self._refresh()
        try:
            result = await self.call.result()
        except RequestCancelled:
            self._done()
            self._set_status("Cancelled", None)
            return
        except SessionError as exc:
            self._done()
            self._failed(str(exc))
            return
        except asyncio.CancelledError:
            self._done()
            raise
        self._done()
        elapsed = (time.monotonic() - self._started) * 1000
        conversation = parse_get_prompt_result(result)
        self.gets += 1
        self.show_conversation(conversation)
        problems = len(conversation.all_problems)
        count = len(conversation.messages)
        text = f"{count} message{'s' if count != 1 else ''} in {elapsed:.0f} ms"
        if problems:
            text += f" · {problems} problem{'s' if problems != 1 else ''}"
        self._set_status(text, "warn" if problems else "ok")

    def _done(self) -> None:
        self._busy = False
        self.call = None
        if shiboken6.isValid(self):
            self._elapsed.stop()
            self._refresh()

    def _failed(self, message: str) -> None:
        if not shiboken6.isValid(self):
            return
        self._clear_cards()
        self.placeholder.setText(f"prompts/get failed:\n{message}")
        self.placeholder.setStyleSheet(f"color: {colors().error.name()}")
        self.placeholder.setVisible(True)
        self._set_status(message, "error")

    def cancel(self) -> None:
        if self.call is not None:
            self.call.cancel("cancelled by the user")

    def _set_status(self, text: str, tone: str | None) -> None:
        self.status.setText(text)
        self.status.setToolTip(plain_tooltip(text))
        c = colors()
        color = {"ok": c.ok, "warn": c.warn, "error": c.error}.get(tone or "", c.muted)
        self.status.setStyleSheet(f"color: {color.name()}")

    # ---------------------------------------------------------------- conversation
    def _clear_cards(self) -> None:
        for holder in self._holders:
            self.messages_layout.removeWidget(holder)
            holder.deleteLater()
        self._holders = []
        self.cards = []

    def show_conversation(self, conversation: Conversation) -> None:
        self._clear_cards()
        self.conversation = conversation
        self.description.setText(f"Description: {conversation.description or ''}")
        self.description.setVisible(bool(conversation.description))
        problems = conversation.problems
        self.result_problems.setText("\n".join(f"⚠ {p}" for p in problems))
        self.result_problems.setVisible(bool(problems))
        self.placeholder.setVisible(not conversation.messages)
        self.placeholder.setText("The server returned no messages.")
        self.placeholder.setStyleSheet(f"color: {colors().muted.name()}")
        for message in conversation.messages:
            card = MessageCard(message)
            card.blocks.read_resource_requested.connect(self._open_resource)
            holder = QWidget()
            holder_layout = QHBoxLayout(holder)
            holder_layout.setContentsMargins(0, 0, 0, 0)
            if message.role == "assistant":
                holder_layout.addSpacing(_INDENT)
            holder_layout.addWidget(card, 1)
            if message.role == "user":
                holder_layout.addSpacing(_INDENT)
            self.messages_layout.insertWidget(self.messages_layout.count() - 1, holder)
            self._holders.append(holder)
            self.cards.append(card)
        self.copy_button.setEnabled(bool(conversation.messages))

    def _open_resource(self, uri: str) -> None:
        open_resource(self.controller, uri, self)

    def copy_messages(self) -> None:
        if self.conversation is None:
            return
        messages = [{"role": m.role, "content": m.blocks} for m in self.conversation.messages]
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(json.dumps(messages, indent=2, ensure_ascii=False))


def prompt_view(item: CatalogItem, controller: ConnectionController) -> QWidget:
    return PromptGetView(item, controller)
