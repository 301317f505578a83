"""The elicitation dialogs: a form built from requestedSchema, or a URL to visit.

Form mode: the message, a form built from the schema (the shared SchemaForm: defaults
applied, errors next to the fields, a JSON view), and Accept (validated first; "Send
anyway" sends what the form holds, to test the server's own checks), Decline and Cancel
(also Esc). URL mode: the URL as plain text (http and https
only; anything else is refused with the reason), an explicit "Open in browser" and "Done".
"""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QFontDatabase
from PySide6.QtWidgets import QFrame, QPushButton, QVBoxLayout, QWidget

from inspector.features.asks.elicitation import ElicitForm, check_url, parse_form
from inspector.protocol.machine.asks import ServerAsk
from inspector.ui.asks.ask_dialog import AskDialog
from inspector.ui.forms.schema_form import SchemaForm
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["ElicitationDialog", "UrlElicitationDialog", "elicitation_dialog"]


def _message(ask: ServerAsk) -> str:
    message = ask.params.get("message")
    return message if isinstance(message, str) else "(the server sent no message)"


class ElicitationDialog(AskDialog):
    title = "The server asks for information"

    def __init__(self, ask: ServerAsk, parent: QWidget | None = None) -> None:
        super().__init__(ask, parent)
        schema = ask.params.get("requestedSchema")
        self.spec: ElicitForm = parse_form(schema)  # the elicitation subset, checked
        problems = list(self.spec.problems)
        if not isinstance(ask.params.get("message"), str):
            problems.insert(0, "message is missing or not a string")
        if ask.elicitation_mode != "form":
            problems.insert(0, f"unknown mode {ask.params.get('mode')!r}; shown as a form")
        self.set_problems(problems)
        self.message = PlainLabel(_message(ask), wrap=True, selectable=True)
        self.body.addWidget(self.message)
        self.form = SchemaForm()
        self.form.set_noun("fields")  # what the server asks for: not a call's arguments
        # Defaults applied by the form; a field it cannot express is edited as JSON.
        self.form.set_schema(schema if isinstance(schema, dict) else {"type": "object"})
        self.form.send_anyway_requested.connect(self.accept_unchecked)
        self.add_content(self.form, 1)
        self.accept_button = QPushButton("Accept")
        self.accept_button.setDefault(True)
        self.accept_button.setToolTip("Send the form (checked against the schema first)")
        self.accept_button.clicked.connect(self.accept_form)
        self.decline_button = QPushButton("Decline")
        self.decline_button.setToolTip("An explicit no: action 'decline'")
        self.decline_button.clicked.connect(lambda: self.finish({"action": "decline"}))
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Dismissed without a choice: action 'cancel' (also Esc)")
        self.cancel_button.clicked.connect(lambda: self.finish({"action": "cancel"}))
        self.add_buttons(self.cancel_button, self.decline_button, self.accept_button)
        self.resize(600, min(220 + 56 * max(1, len(self.spec.fields)), 680))

    def accept_form(self) -> None:
        """Validated first: problems go next to their fields, with "Send anyway" below."""
        if self.form.validation_errors():
            return
        self.finish({"action": "accept", "content": self.form.values()})

    def accept_unchecked(self) -> None:
        self.finish({"action": "accept", "content": self.form.values()})

    def dismissed(self) -> None:
        self.finish({"action": "cancel"})


class UrlElicitationDialog(AskDialog):
    title = "The server asks you to visit a URL"

    def __init__(self, ask: ServerAsk, parent: QWidget | None = None) -> None:
        super().__init__(ask, parent)
        url = ask.params.get("url")
        self.url = url if isinstance(url, str) else ""
        self.refusal = check_url(url)
        problems = []
        if not isinstance(ask.params.get("elicitationId"), str):
            problems.append("elicitationId is missing or not a string")
        self.set_problems(problems)
        self.message = PlainLabel(_message(ask), wrap=True, selectable=True)
        self.body.addWidget(self.message)
        box = QFrame()
        box.setFrameShape(QFrame.Shape.StyledPanel)
        inner = QVBoxLayout(box)
        self.url_label = PlainLabel(self.url or "(no URL)", wrap=True, selectable=True)
        self.url_label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        inner.addWidget(self.url_label)
        elicitation_id = ask.params.get("elicitationId")
        if isinstance(elicitation_id, str):
            ident = PlainLabel(f"elicitationId: {elicitation_id}", wrap=True, selectable=True)
            ident.setStyleSheet(f"color: {colors().muted.name()};")
            inner.addWidget(ident)
        self.body.addWidget(box)
        if self.refusal:
            self.notice.show_text(f"This URL will not be opened: {self.refusal}.", "error")
        else:
            self.body.addWidget(
                PlainLabel(
                    "Check the address before you open it: it comes from the server. "
                    "Press Done when you have finished there.",
                    wrap=True,
                    selectable=True,
                )
            )
        self.body.addStretch(1)
        self.open_button = QPushButton("Open in browser")
        self.open_button.setEnabled(self.refusal is None)
        self.open_button.clicked.connect(self.open_url)
        self.done_button = QPushButton("Done")
        self.done_button.setDefault(True)
        self.done_button.setEnabled(self.refusal is None)
        self.done_button.setToolTip("Tell the server you went there: action 'accept'")
        self.done_button.clicked.connect(lambda: self.finish({"action": "accept"}))
        self.decline_button = QPushButton("Decline")
        self.decline_button.clicked.connect(lambda: self.finish({"action": "decline"}))
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(lambda: self.finish({"action": "cancel"}))
        self.add_buttons(
            self.cancel_button, self.decline_button, self.open_button, self.done_button
        )
        self.opened = False
        self.resize(580, 260)

    def open_url(self) -> bool:
        """Open the URL with the system browser (http/https only, checked again here)."""
        if check_url(self.url) is not None:
            return False
        self.opened = QDesktopServices.openUrl(QUrl(self.url.strip()))
        if not self.opened:
            self.notice.show_text("The system could not open a browser; copy the URL instead.")
        return self.opened

    def dismissed(self) -> None:
        self.finish({"action": "cancel"})


def elicitation_dialog(ask: ServerAsk, parent: QWidget | None = None) -> AskDialog:
    if ask.elicitation_mode == "url":
        return UrlElicitationDialog(ask, parent)
    return ElicitationDialog(ask, parent)
