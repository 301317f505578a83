"""One tool call of a Playground turn on screen: a card from its `ToolCallRecord`.

The card shows the qualified name ("tab__tool"), the arguments the model chose (as it wrote
them when they are not JSON), what the schema check found, the decision, the result (text
blocks as text, other blocks named, structuredContent as JSON) and a link to the call's rows
in its tab's traffic log (by JSON-RPC request id). While the call waits for the person
(`ask`), the card holds the approval: Send (or Send anyway, when the schema check found
problems), Refuse, and Edit arguments (the edited JSON is what is sent). Everything the
server or the model wrote is shown as plain text.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any, Final

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.host.records import ToolCallRecord
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["CardAnswer", "ToolCallCard", "result_text", "tint"]

_MAX_SHOWN: Final = 20_000  # characters of a result shown in the card (the log has it all)

_DECISION_TEXT: Final = {
    "sent": "sent",
    "edited": "sent with edited arguments",
    "refused": "refused",
    "unknown-tool": "unknown tool",
    "invalid-arguments": "invalid arguments",
    "stopped": "stopped before it was sent",
}


@dataclass(frozen=True, slots=True)
class CardAnswer:
    """What the person decided on a call the card asked about."""

    send: bool
    arguments: Any = None  # what to send (the model's, or the edited JSON)
    edited: bool = False


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def tint(widget: QWidget, color: QColor) -> None:
    """Text in `color` through the palette (a style sheet per widget costs several times
    more, and a long conversation has thousands: bench/playground_cards.py)."""
    palette = widget.palette()
    palette.setColor(QPalette.ColorRole.WindowText, color)
    widget.setPalette(palette)


def _elapsed(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def _fit(edit: QPlainTextEdit, most: int) -> None:
    """As tall as its text, up to `most` lines (then it scrolls)."""
    lines = min(max(edit.toPlainText().count("\n") + 1, 1), most)
    height = edit.fontMetrics().lineSpacing() * lines
    edit.setFixedHeight(height + 2 * edit.frameWidth() + 10)


def result_text(result: dict[str, Any] | None) -> str:
    """A CallToolResult as plain text: each text block, other blocks by their kind, then
    structuredContent as JSON."""
    if result is None:
        return ""
    parts: list[str] = []
    content = result.get("content")
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            parts.append(_json(block))
        elif block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        else:
            kind = str(block.get("type", "?"))
            mime = block.get("mimeType")
            uri = block.get("uri") or (block.get("resource") or {}).get("uri")
            parts.append(
                f"[{kind}{' ' + str(mime) if mime else ''}{' ' + str(uri) if uri else ''}]"
            )
    structured = result.get("structuredContent")
    if structured is not None:
        parts.append("structuredContent: " + _json(structured))
    text = "\n".join(parts)
    return text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN] + "\n… (cut; the log has it all)"


class ToolCallCard(QFrame):
    reveal_requested = Signal(str, object)  # the tab's name, the JSON-RPC request id

    def __init__(self, record: ToolCallRecord, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playgroundCallCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.record = record
        self._answer: asyncio.Future[CardAnswer] | None = None
        self.title = PlainLabel(selectable=True)
        self.title.setObjectName("callTitle")
        self.state = PlainLabel(wrap=True)
        self.state.setObjectName("callState")
        self.arguments = QPlainTextEdit()
        self.arguments.setObjectName("callArguments")
        self.arguments.setReadOnly(True)
        self.problems = PlainLabel(wrap=True, selectable=True)
        self.problems.setObjectName("callProblems")
        tint(self.problems, colors().warn)
        self.note = PlainLabel(wrap=True)
        self.note.setObjectName("callNote")
        tint(self.note, colors().muted)
        self.send_button = QPushButton("Send")
        self.send_button.setObjectName("callSend")
        self.edit_button = QPushButton("Edit arguments")
        self.edit_button.setObjectName("callEdit")
        self.edit_button.setToolTip("Change the arguments before they are sent")
        self.refuse_button = QPushButton("Refuse")
        self.refuse_button.setObjectName("callRefuse")
        self.refuse_button.setToolTip("Do not send it; the model is told the call was refused")
        self.approval = QWidget()
        row = QHBoxLayout(self.approval)
        row.setContentsMargins(0, 0, 0, 0)
        for button in (self.send_button, self.edit_button, self.refuse_button):
            row.addWidget(button)
        row.addStretch(1)
        self.approval.hide()
        self.result = QPlainTextEdit()
        self.result.setObjectName("callResult")
        self.result.setReadOnly(True)
        self.reveal_button = QPushButton("Show in traffic log")
        self.reveal_button.setObjectName("callReveal")
        self.reveal_button.setToolTip("Select this call's request in its tab's traffic log")
        self.reveal_button.setFlat(True)
        self.reveal_button.clicked.connect(self._reveal)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.reveal_button)
        layout.addLayout(head)
        layout.addWidget(self.state)
        layout.addWidget(self.arguments)
        layout.addWidget(self.problems)
        layout.addWidget(self.note)
        layout.addWidget(self.approval)
        layout.addWidget(self.result)
        self.send_button.clicked.connect(self._send)
        self.refuse_button.clicked.connect(self._refuse)
        self.edit_button.clicked.connect(self._edit)
        self.show_record(record)

    # ---------------------------------------------------------------- showing
    def show_record(self, record: ToolCallRecord, *, running: bool = False) -> None:
        """Show `record` as it stands (the engine updates it as the call goes)."""
        self.record = record
        self.title.setText(record.qualified or record.tool)
        if record.tab and record.tool:
            self.title.setToolTip(plain_tooltip(f"{record.tool} on {record.tab}"))
        if self._answer is None or self._answer.done():
            self.arguments.setPlainText(
                _json(record.arguments) if record.arguments is not None else record.raw_arguments
            )
            _fit(self.arguments, 8)
        self.problems.setText(
            "Schema check: " + "; ".join(record.schema_problems) if record.schema_problems else ""
        )
        self.problems.setVisible(bool(record.schema_problems))
        self.state.setText(self._state_text(record, running))
        color = colors().error if record.is_error else colors().muted
        tint(self.state, color)
        text = result_text(record.result)
        self.result.setPlainText(text)
        _fit(self.result, 10)
        self.result.setVisible(bool(text))
        self.reveal_button.setVisible(record.request_id is not None and bool(record.tab))

    @staticmethod
    def _state_text(record: ToolCallRecord, running: bool) -> str:
        if running:
            return "Sending…"
        words = _DECISION_TEXT.get(record.decision, record.decision)
        if record.decision in ("sent", "edited") and record.result is None and record.is_error:
            words = "failed"  # no result: a JSON-RPC error, a timeout, a closed connection
        if record.decision in ("sent", "edited") and record.result is not None:
            words += f", answered in {_elapsed(record.elapsed)}"
            if record.is_error:
                words += " (the tool reported an error)"
        if record.error:
            words += f": {record.error}"
        return words[:1].upper() + words[1:]

    # ---------------------------------------------------------------- asking
    def ask(self, why: str) -> asyncio.Future[CardAnswer]:
        """Wait for the person: Send (anyway), Edit arguments, or Refuse. `why` says why the
        call asks (the policy, a destructive tool, a schema problem)."""
        self._answer = asyncio.get_running_loop().create_future()
        self.note.setText(why)
        self.note.show()
        self.send_button.setText("Send anyway" if self.record.schema_problems else "Send")
        self.send_button.setToolTip(
            "Send it although the schema check found problems"
            if self.record.schema_problems
            else "Send the call as shown"
        )
        self.state.setText("Waiting for you: send this call?")
        self.approval.show()
        self.send_button.setFocus()
        return self._answer

    def withdraw(self) -> None:
        """The turn was stopped while the card asked: nothing to answer any more."""
        self._finish_asking()
        if self._answer is not None and not self._answer.done():
            self._answer.set_result(CardAnswer(send=False))

    def _finish_asking(self) -> None:
        self.approval.hide()
        self.note.hide()  # (why it asked: answered now)
        self.arguments.setReadOnly(True)

    def _edit(self) -> None:
        self.arguments.setReadOnly(False)
        _fit(self.arguments, 12)
        self.arguments.setFocus()
        self.edit_button.setEnabled(False)
        self.note.setText("Edit the JSON arguments, then Send.")

    def _send(self) -> None:
        future = self._answer
        if future is None or future.done():
            return
        edited = not self.arguments.isReadOnly()
        arguments = self.record.arguments
        if edited:
            try:
                arguments = json.loads(self.arguments.toPlainText())
            except ValueError as exc:
                self.note.setText(f"The arguments are not JSON: {exc}")
                return
            if not isinstance(arguments, dict):
                self.note.setText("The arguments must be a JSON object.")
                return
            edited = arguments != self.record.arguments
        self._finish_asking()
        self.state.setText("Sending…")
        future.set_result(CardAnswer(send=True, arguments=arguments, edited=edited))

    def _refuse(self) -> None:
        future = self._answer
        if future is None or future.done():
            return
        self._finish_asking()
        self.state.setText("Refused")
        future.set_result(CardAnswer(send=False))

    def _reveal(self) -> None:
        if self.record.request_id is not None:
            self.reveal_requested.emit(self.record.tab, self.record.request_id)
