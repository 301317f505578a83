"""The workspace's "Get" view for a prompt: its arguments as a form, then prompts/get
shown as a conversation (one card per message, every content type).

Arguments get completions from completion/complete (ref/prompt, with the arguments
already filled as context) when the server offers them. Required arguments are checked
before sending; "Send anyway" sends what is typed, to test the server's own validation.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from inspector.collections.call_draft import CallDraft, completion_draft
from inspector.core.server_connection import (
    Call,
    RequestCancelled,
    RequestTimeout,
    ServerConnection,
    ServerError,
    SessionError,
)
from inspector.features.catalog.lists import CatalogItem
from inspector.features.completion import Completer, prompt_ref
from inspector.features.prompts import (
    Conversation,
    arguments_schema,
    arguments_to_send,
    parse_get_prompt_result,
)
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.forms.form_splitter import FormSplitter
from inspector.ui.forms.schema_form import SchemaForm
from inspector.ui.forms.server_completions import ServerCompletions
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.run_bar import RunBar
from inspector.ui.widgets.theme import colors
from inspector.ui.workspace.message_card import MessageCard
from inspector.ui.workspace.resource_reader import open_resource
from inspector.ui.workspace.save_menu import (
    add_completion_saves,
    hand_on_draft,
    save_call_button,
)

__all__ = ["PromptGetView", "prompt_view"]

_INDENT = 48  # how far a message leans to its side, chat-like
_FIX_HINT = "Fix the arguments marked in the form (or Send anyway)."


class PromptGetView(QWidget):
    save_call_requested = Signal(object)  # a CallDraft: "Save call…"

    def __init__(self, item: CatalogItem, controller: ConnectionController) -> None:
        super().__init__()
        self.setObjectName("promptGetView")
        self.item = item
        self.controller = controller
        self.call: Call | None = None
        self.last: CallDraft | None = None  # the last get that ended, for "Save call…"
        self.task: asyncio.Task[Any] | None = None
        self.conversation: Conversation | None = None
        self.cards: list[MessageCard] = []
        self._holders: list[QWidget] = []
        self.gets = 0

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
        self.form.problems_changed.connect(self._on_problems)
        self.completions = ServerCompletions(self.form)
        self.completion_note = self.completions.note

        self.bar = RunBar("Get", busy_text="Getting…", on_run=self.get, on_cancel=self.cancel)
        self.bar.name_parts("getButton", "cancelGet", "getStatus")
        self.get_button = self.bar.run_button
        self.cancel_button = self.bar.cancel_button
        self.status = self.bar.status_label
        self.copy_button = QPushButton("Copy messages")
        self.copy_button.setToolTip("Copy the messages as JSON")
        self.copy_button.clicked.connect(self.copy_messages)
        self.copy_button.setEnabled(False)
        self.bar.add_trailing(self.copy_button)
        self.save_button = save_call_button(self.request_save)
        self.save_button.setToolTip("Save this prompts/get (and its last result) into a collection")
        self.bar.add_trailing(self.save_button)
        add_completion_saves(
            self.save_button,
            "prompts/get…",
            self.request_save,
            self.names,
            self.request_completion_save,
        )

        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.declared)
        top_layout.addWidget(self.form, 1)
        top_layout.addWidget(self.completion_note)
        top_layout.addWidget(self.bar)

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

        self.splitter = FormSplitter(
            top, self.conversation_area, wanted=self._form_height, share=0.5
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.splitter)

        # Bound slots, not lambdas: Qt drops them when the view is destroyed (evicted).
        controller.state_changed.connect(self._state_changed)
        controller.server_ready.connect(self._server_ready)
        end = self._end_own_work
        self.destroyed.connect(lambda *_: end())
        self._refresh()

    def _form_height(self) -> int:
        """The form's rows, the bars around them, and the declared problems if any."""
        page = self.form.form_area.widget()
        need = (page.sizeHint().height() if page is not None else 60) + 110
        if not self.declared.isHidden():
            need += self.declared.sizeHint().height()
        if not self.form.banner.isHidden():
            need += self.form.banner.sizeHint().height() + 6
        return need

    def _on_problems(self, count: int) -> None:
        """The form's problems came, changed or went: the hint goes with them, and the
        form is refitted for its banner (unless the user placed the split)."""
        if count == 0 and self.status.text() == _FIX_HINT:
            self.bar.set_status("")
        if not self.splitter.user_split:
            QTimer.singleShot(0, self.splitter.fit)  # once the banner's layout is done

    def _end_own_work(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        if self.call is not None:
            self.call.cancel("the view was closed")

    # ---------------------------------------------------------------- state
    def session(self) -> ServerConnection | None:
        return self.controller.model.ready_server()

    def _state_changed(self, _state: str, _detail: str) -> None:
        self._refresh()

    def _server_ready(self, _ready: object) -> None:
        self._refresh()

    def _refresh(self) -> None:
        if not shiboken6.isValid(self):
            return
        session = self.session()
        self.bar.set_can_run(session is not None, "" if session else "Connect to get prompts.")
        self.completions.use(
            Completer(session, prompt_ref(self.item.key), self.names)
            if session is not None and self.names
            else None
        )

    # ---------------------------------------------------------------- get
    def get(self, *, as_typed: bool = False) -> asyncio.Task[Any] | None:
        session = self.session()
        if session is None or self.bar.busy:
            return None
        if not as_typed and self.form.validation_errors():
            self.bar.set_status(_FIX_HINT, "warn")
            return None
        arguments = arguments_to_send(self.form.values(), as_typed=as_typed)
        self.task = self.controller.model.start(
            self._get(session, arguments), f"get {self.item.key}"
        )
        return self.task

    async def _get(self, client: ServerConnection, arguments: dict[str, Any]) -> None:
        try:
            self.call = client.start_get_prompt(self.item.key, arguments or None)
        except SessionError as exc:
            self._failed(str(exc))
            return
        self.bar.set_busy(True)
        self._refresh()
        try:
            result = await self.call.result()
        except RequestCancelled:
            self._done()
            self.bar.set_status("Cancelled")
            return
        except SessionError as exc:
            elapsed = self.bar.elapsed * 1000
            self._done()
            self.last = CallDraft(
                "prompts/get",
                self._params(arguments),
                error_code=exc.code if isinstance(exc, ServerError) else None,
                error_message=str(exc),
                timed_out=isinstance(exc, RequestTimeout),
                latency_ms=elapsed,
            )
            self._failed(str(exc))
            return
        except asyncio.CancelledError:
            self._done()
            raise
        self._done()
        elapsed = self.bar.elapsed * 1000
        self.last = CallDraft("prompts/get", self._params(arguments), result, latency_ms=elapsed)
        conversation = parse_get_prompt_result(result)
        self.gets += 1
        self.show_conversation(conversation)
        problems = len(conversation.all_problems)
        count = len(conversation.messages)
        text = f"{count} message{'s' if count != 1 else ''} in {elapsed:.0f} ms"
        if problems:
            text += f" · {problems} problem{'s' if problems != 1 else ''}"
        self.bar.set_status(text, "warn" if problems else "ok")

    # ---------------------------------------------------------------- saving
    def _params(self, arguments: dict[str, Any]) -> dict[str, Any]:
        params: dict[str, Any] = {"name": self.item.key}
        if arguments:
            params["arguments"] = arguments
        return params

    def draft(self) -> CallDraft | None:
        """The get as the form (or the JSON editor) has it, with the last answer when it
        was for these arguments; None when the JSON editor's text is not an object."""
        if self.form.json_problem() is not None:
            return None
        params = self._params(arguments_to_send(self.form.values()))
        last = self.last
        if last is not None and last.params == params:
            return last
        return CallDraft("prompts/get", params)

    def request_save(self) -> CallDraft | None:
        return hand_on_draft(
            self.draft(), self._json_problem, self.bar, self.save_call_requested.emit
        )

    def _json_problem(self) -> str:
        return f"Fix the JSON first: {self.form.json_problem()}"

    def request_completion_save(self, name: str) -> CallDraft:
        """Save the completion/complete the form would send for argument `name`."""
        session = self.session()
        draft = completion_draft(
            prompt_ref(self.item.key),
            name,
            self.form.values(),
            self.names,
            session.protocol_version if session is not None else None,
        )
        self.save_call_requested.emit(draft)
        return draft

    def _done(self) -> None:
        self.call = None
        if shiboken6.isValid(self):
            self.bar.set_busy(False)
            self._refresh()

    def _failed(self, message: str) -> None:
        if not shiboken6.isValid(self):
            return
        self._clear_cards()
        self.placeholder.setText(f"prompts/get failed:\n{message}")
        self.placeholder.setStyleSheet(f"color: {colors().error.name()}")
        self.placeholder.setVisible(True)
        self.bar.set_status(message, "error")

    def cancel(self) -> None:
        if self.call is not None:
            self.call.cancel("cancelled by the user")

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
