"""The tool Call view (the workspace's "Call" tab for a tool).

The form for the tool's inputSchema (remembered arguments per profile and tool), Run
(Ctrl+Enter), then one card per call, newest first: several calls can be in flight at
once, each with progress, Cancel and its elapsed time. A tool excluded by the session (an
invalid x-mcp-header) says why, and is called only when "Call anyway" is ticked.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from inspector.collections.call_draft import CallDraft
from inspector.core.server_connection import SessionError, tool_call_params
from inspector.features.catalog.lists import CatalogItem
from inspector.features.mcp_apps.meta import app_resource_uri
from inspector.features.tasks import tasks_mode
from inspector.features.tool_calls import ToolCallRecord, follow_call
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.forms.form_splitter import FormSplitter
from inspector.ui.forms.schema_form import SchemaForm
from inspector.ui.tasks.run_as_task import RunAsTaskOption, tool_task_support
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip, short
from inspector.ui.widgets.run_bar import RunBar
from inspector.ui.widgets.theme import colors
from inspector.ui.workspace.call_card import CallCard
from inspector.ui.workspace.resource_reader import open_resource
from inspector.ui.workspace.save_menu import hand_on_draft, save_call_button

__all__ = ["ToolCallView", "tool_view"]

log = logging.getLogger(__name__)

_TICK_MS: Final = 200
_FIX_HINT: Final = "Fix the arguments, or use Send anyway."
_MAX_CARDS: Final = 50


class ToolCallView(QWidget):
    call_started = Signal(object)  # ToolCallRecord: the App tab follows the latest call
    app_requested = Signal(object)  # ToolCallRecord: a card's "Show in App"
    save_call_requested = Signal(object)  # a CallDraft: "Save call…"

    def __init__(self, item: CatalogItem, controller: ConnectionController) -> None:
        super().__init__()
        self.setObjectName("toolCallView")
        self.item = item
        self.app_uri = app_resource_uri(item.raw)
        self.controller = controller
        self.memory = controller.arguments
        self.records: list[ToolCallRecord] = []
        self.cards: list[CallCard] = []
        raw_schema = item.raw.get("inputSchema")
        self.input_schema: dict[str, Any] = raw_schema if isinstance(raw_schema, dict) else {}
        output = item.raw.get("outputSchema")
        self.output_schema: dict[str, Any] | None = output if isinstance(output, dict) else None

        top = QWidget()
        self.top = top
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(8, 6, 8, 4)
        top_layout.setSpacing(6)
        if item.description:
            description = PlainLabel(short(item.description, 300), wrap=True)
            description.setStyleSheet(f"color: {colors().muted.name()};")
            description.setToolTip(plain_tooltip(item.description))
            top_layout.addWidget(description)
        if not isinstance(raw_schema, dict):
            what = (
                "no inputSchema" if raw_schema is None else "an inputSchema that is not an object"
            )
            warn = PlainLabel(f"⚠ The tool has {what}; arguments are sent as typed.", wrap=True)
            warn.setStyleSheet(f"color: {colors().warn.name()};")
            top_layout.addWidget(warn)
        self.anyway_box: QCheckBox | None = None
        if item.excluded:
            box = QFrame()
            box.setObjectName("excludedBox")
            box.setStyleSheet(
                f"QFrame#excludedBox {{ border: 1px solid {colors().error.name()}; "
                "border-radius: 4px; }"
            )
            box_layout = QVBoxLayout(box)
            why = PlainLabel(
                f"This tool was left out of tools/list for the client: {item.excluded}. "
                "A conforming client must not call it.",
                wrap=True,
            )
            why.setStyleSheet(f"color: {colors().error.name()};")
            box_layout.addWidget(why)
            self.anyway_box = QCheckBox("Call anyway (to test how the server reacts)")
            self.anyway_box.toggled.connect(self._update_run)
            box_layout.addWidget(self.anyway_box)
            top_layout.addWidget(box)

        self.form = SchemaForm()
        self.form.send_anyway_requested.connect(lambda: self.send(validated=False))
        self.form.problems_changed.connect(self._on_problems)
        top_layout.addWidget(self.form, 1)
        # Which values are never remembered for the next call, and why (issue 18.6).
        self.memory_note = PlainLabel(wrap=True)
        self.memory_note.setObjectName("memoryNote")
        self.memory_note.setStyleSheet(f"color: {colors().muted.name()};")
        top_layout.addWidget(self.memory_note)
        self.update_memory_note()

        # Calls run side by side, each cancelled from its card: the bar never turns busy.
        self.bar = RunBar("Run", run_tip="Call the tool (Ctrl+Enter)", cancellable=False)
        self.bar.run_requested.connect(self.run)
        self.run_button = self.bar.run_button
        self.status_label = self.bar.status_label
        self.bar.align_status_right()
        self.task_option = RunAsTaskOption()
        self.bar.add_control(self.task_option)
        self.clear_button = QPushButton("Clear results")
        self.clear_button.clicked.connect(self.clear_finished)
        self.clear_button.setEnabled(False)
        self.bar.add_trailing(self.clear_button)
        self.save_button = save_call_button(self.request_save)
        self.save_button.setToolTip(
            "Save this call (the arguments in the form or the JSON editor, the last result) "
            "into a collection"
        )
        self.bar.add_trailing(self.save_button)
        top_layout.addWidget(self.bar)

        self.results = QWidget()
        self.results_layout = QVBoxLayout(self.results)
        self.results_layout.setContentsMargins(8, 4, 8, 8)
        self.results_layout.setSpacing(8)
        self.placeholder = PlainLabel("Results appear here, newest first.")
        self.placeholder.setStyleSheet(f"color: {colors().muted.name()};")
        self.results_layout.addWidget(self.placeholder)
        self.results_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.results)
        self.results_scroll = scroll

        self.splitter = FormSplitter(
            top,
            scroll,
            wanted=self._form_height,
            share=0.33,
            stretch=(2, 3),
            empty=lambda: not self.cards,
            result_wanted=lambda: self.results.sizeHint().height(),
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(self.run)
        self._ticker = QTimer(self)
        self._ticker.setInterval(_TICK_MS)
        self._ticker.timeout.connect(self._tick)

        self.form.set_schema(self.input_schema, self._recalled())
        controller.state_changed.connect(self._on_state)
        self._on_state()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.update_memory_note()  # the secret names may have changed meanwhile

    def update_memory_note(self) -> None:
        skipped = self.memory.not_remembered(self.input_schema)
        if skipped:
            parts = "; ".join(f"{path} ({why})" for path, why in skipped)
            self.memory_note.setText(
                f"Not remembered for the next call: {parts}. "
                "The names are listed in Client ▸ Secret field names…"
            )
        self.memory_note.setVisible(bool(skipped))

    def fit_form(self) -> None:
        """Give the form the height it needs (at most a third once there are results, 80 %
        before), the results the rest."""
        self.splitter.fit()

    def _form_height(self) -> int:
        """The whole form without scrolling, plus the description, notes and the bar."""
        chrome = self.top.sizeHint().height() - self.form.sizeHint().height()
        return self.form.preferred_height() + max(chrome, 60)

    # ------------------------------------------------------------------ state
    def _profile_id(self) -> str | None:
        profile = self.controller.model.profile
        return profile.id if profile is not None else None

    def _recalled(self) -> dict[str, Any] | None:
        pid = self._profile_id()
        return self.memory.recall(pid, self.item.key) if pid is not None else None

    def _on_state(self, *_args: object) -> None:
        session = self.controller.model.ready_server()
        mode = None
        if session is not None:
            mode = tasks_mode(session.era, session.server_capabilities)
        self.task_option.configure(mode, tool_task_support(self.item.raw))
        self._update_run()

    def _update_run(self) -> None:
        connected = self.controller.model.state is ConnState.CONNECTED
        allowed = not self.item.excluded or (
            self.anyway_box is not None and self.anyway_box.isChecked()
        )
        self.bar.set_can_run(connected and allowed)
        self.form.send_anyway_button.setEnabled(connected and allowed)
        if not connected:
            self.bar.set_status("Connect to call this tool.")
        elif not allowed:
            self.bar.set_status("Tick “Call anyway” to call an excluded tool.")
        else:
            running = sum(1 for r in self.records if r.running)
            self.bar.set_status(f"{running} running" if running else "")

    # ------------------------------------------------------------------ calling
    def run(self) -> ToolCallRecord | None:
        """Validate, then call; with problems, the form shows them and offers Send anyway."""
        if not self.run_button.isEnabled():
            return None
        self.form.flush()
        if self.form.validation_errors():
            self.bar.set_status(_FIX_HINT)
            return None
        return self.send(validated=True)

    def _on_problems(self, count: int) -> None:
        """The form's problems came, changed or went: the hint goes with them, and the
        form is refitted for its banner (unless the user placed the split)."""
        if count == 0 and self.status_label.text() == _FIX_HINT:
            self._update_run()
        if not self.splitter.user_split:
            QTimer.singleShot(0, self.fit_form)  # once the banner's layout is done

    def send(self, validated: bool = True) -> ToolCallRecord | None:
        if not self.run_button.isEnabled():
            return None
        self.form.flush()
        arguments = self.form.values()
        record = ToolCallRecord(self.item.key, arguments, self.output_schema)
        record.validated_before_sending = validated
        if self.item.excluded:
            record.note = "called although excluded"
        extra = self.task_option.extra_params()
        if self.task_option.wanted:
            record.note = (record.note + "; " if record.note else "") + "run as task"
        try:
            server = self.controller.model.ready_server()
            if server is None:
                raise SessionError("not connected")
            call = server.start_tool_call(
                self.item.key, arguments, on_progress=record.on_progress, extra=extra
            )
        except SessionError as exc:
            self.bar.set_status(f"Could not call: {exc}")
            self.controller.model.errors.add("request failed", f"tools/call {self.item.key}: {exc}")
            return None
        record.call = call
        self._remember(arguments)
        self.form.clear_errors()
        self.controller.model.start(
            follow_call(record, call, self._adopt_task), f"tools/call {self.item.key}"
        )
        self._add_card(record)
        self.call_started.emit(record)
        return record

    # ------------------------------------------------------------------ saving
    def draft(self) -> CallDraft | None:
        """The call as it stands: the form's (or the JSON editor's) arguments, and the
        newest finished call with these arguments (its result or error, its time).
        None when the JSON editor holds text that is not a JSON object."""
        self.form.flush()
        if self.form.json_problem() is not None:
            return None
        arguments = self.form.values()
        params = tool_call_params(self.item.key, arguments)
        done = next((r for r in self.records if not r.running and r.arguments == arguments), None)
        if done is None or done.task_id is not None:
            return CallDraft("tools/call", params)
        latency = (done.finished - done.started) * 1000 if done.finished is not None else None
        return CallDraft(
            "tools/call",
            params,
            result=done.result if done.status in ("ok", "tool_error") else None,
            error_code=done.error_code if done.status == "rpc_error" else None,
            error_message=done.error_message,
            timed_out=done.status == "timeout",
            latency_ms=latency,
        )

    def request_save(self) -> CallDraft | None:
        return hand_on_draft(
            self.draft(), self._json_problem, self.bar, self.save_call_requested.emit
        )

    def _json_problem(self) -> str:
        return f"Fix the JSON first: {self.form.json_problem()}"

    def _run_again(self, arguments: dict[str, Any]) -> None:
        """One click: the same arguments, sent again (after the server lost the session)."""
        self.form.set_values(arguments)
        self.send(validated=True)

    def _remember(self, arguments: dict[str, Any]) -> None:
        pid = self._profile_id()
        if pid is not None:
            self.memory.remember(pid, self.item.key, arguments, self.input_schema)

    def _adopt_task(self, result: dict[str, Any]) -> str | None:
        try:
            task = self.controller.model.tasks.adopt(result, f"tools/call {self.item.key}")
        except Exception:  # the Tasks panel is a separate feature: never lose the result
            log.exception("could not hand the task to the Tasks panel")
            return None
        return str(task.task_id) if task is not None else None

    # ------------------------------------------------------------------ cards
    def _add_card(self, record: ToolCallRecord) -> None:
        self.records.insert(0, record)
        card = CallCard(record, self.results, with_app=self.app_uri is not None)
        card.app_requested.connect(self.app_requested)
        card.read_resource_requested.connect(self._read_resource)
        card.reuse_requested.connect(self.form.set_values)
        card.run_again_requested.connect(self._run_again)
        card.close_requested.connect(self._close_card)
        off = record.on_change(lambda _r: self._record_changed(card))
        self.destroyed.connect(lambda _obj=None, off=off: off())
        self.cards.insert(0, card)
        self.results_layout.insertWidget(0, card)
        self.placeholder.hide()
        self.clear_button.setEnabled(True)
        self._ticker.start()
        self._trim()
        self._update_run()
        self.results_scroll.verticalScrollBar().setValue(0)
        if len(self.cards) == 1 and not self.splitter.user_split:
            self.fit_form()  # the first result: make room for it

    def _record_changed(self, card: CallCard) -> None:
        self._update_run()
        if self.cards == [card] and not card.record.running and not self.splitter.user_split:
            # The first result is in: once its card has its size, give it the room.
            QTimer.singleShot(0, self.fit_form)

    def _trim(self) -> None:
        while len(self.cards) > _MAX_CARDS:
            old = next((c for c in reversed(self.cards) if not c.record.running), None)
            if old is None:
                break
            self._close_card(old)

    def _close_card(self, card: object) -> None:
        if not isinstance(card, CallCard) or card not in self.cards:
            return
        self.cards.remove(card)
        if card.record in self.records and not card.record.running:
            self.records.remove(card.record)
        self.results_layout.removeWidget(card)
        card.hide()
        card.deleteLater()
        self.placeholder.setVisible(not self.cards)
        self.clear_button.setEnabled(bool(self.cards))

    def clear_finished(self) -> None:
        for card in [c for c in self.cards if not c.record.running]:
            self._close_card(card)

    def _tick(self) -> None:
        running = [c for c in self.cards if c.record.running]
        for card in running:
            card.tick()
        if not running:
            self._ticker.stop()

    def _read_resource(self, uri: str) -> None:
        open_resource(self.controller, uri, self)


def tool_view(item: CatalogItem, controller: ConnectionController) -> QWidget:
    return ToolCallView(item, controller)
