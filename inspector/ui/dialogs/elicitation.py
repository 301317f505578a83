"""The elicitation dialogs: a form built from requestedSchema, or a URL to visit.

Form mode: the message, a form with the schema's defaults applied, and Accept
(validated first; "Accept anyway" sends what the form holds, to test the server's own
checks), Decline and Cancel (also Esc). URL mode: the URL as plain text (http and https
only; anything else is refused with the reason), an explicit "Open in browser" and "Done".
"""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QFontDatabase
from PySide6.QtWidgets import QPushButton, QScrollArea, QWidget

from inspector.elicitation import ElicitForm, check_url, parse_form, validate_content
from inspector.protocol.asks import ServerAsk
from inspector.ui.dialogs.ask_dialog import AskDialog, plain
from inspector.ui.dialogs.elicitation_form import ElicitationForm

__all__ = ["ElicitationDialog", "UrlElicitationDialog", "elicitation_dialog"]


def _message(ask: ServerAsk) -> str:
    message = ask.params.get("message")
    return message if isinstance(message, str) else "(the server sent no message)"


class ElicitationDialog(AskDialog):
    title = "The server asks for information"

    def __init__(self, ask: ServerAsk, parent: QWidget | None = None) -> None:
        super().__init__(ask, parent)
        self.spec: ElicitForm = parse_form(ask.params.get("requestedSchema"))
        problems = list(self.spec.problems)
        if not isinstance(ask.params.get("message"), str):
            problems.insert(0, "message is missing or not a string")
        if ask.elicitation_mode != "form":
            problems.insert(0, f"unknown mode {ask.params.get('mode')!r}; shown as a form")
        self.set_problems(problems)
        self.message = plain(_message(ask))
        self.body.addWidget(self.message)
        self.form = ElicitationForm(self.spec)
        self.form.changed.connect(self._edited)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)
        self.add_content(scroll, 1)
        self.accept_button = QPushButton("Accept")
        self.accept_button.setDefault(True)
        self.accept_button.clicked.connect(self.accept_form)
        self.anyway_button = QPushButton("Accept anyway")
        self.anyway_button.setToolTip("Send what the form holds, unchecked (tests the server)")
        self.anyway_button.clicked.connect(self.accept_unchecked)
        self.anyway_button.hide()
        self.decline_button = QPushButton("Decline")
        self.decline_button.setToolTip("An explicit no: action 'decline'")
        self.decline_button.clicked.connect(lambda: self.finish({"action": "decline"}))
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Dismissed without a choice: action 'cancel' (also Esc)")
        self.cancel_button.clicked.connect(lambda: self.finish({"action": "cancel"}))
        self.add_buttons(
            self.cancel_button, self.decline_button, self.anyway_button, self.accept_button
        )
        self.resize(560, min(220 + 70 * max(1, len(self.spec.fields)), 640))

    def errors(self) -> dict[str, str]:
        content, errors = self.form.values()
        if errors:
            return errors
        return validate_content(self.spec, content)

    def _edited(self) -> None:
        if self.anyway_button.isVisible():
            self.form.show_errors(self.errors())

    def accept_form(self) -> None:
        errors = self.errors()
        self.form.show_errors(errors)
        if errors:
            whole = errors.get("")
            self.anyway_button.show()
            self.notice.show_text(
                "Fix the marked fields, or send the form as it is with “Accept anyway”."
                + (f"\n{whole}" if whole else "")
            )
            return
        content, _ = self.form.values()
        self.finish({"action": "accept", "content": content})

    def accept_unchecked(self) -> None:
        content, _ = self.form.values()
        self.finish({"action": "accept", "content": content})

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
        self.message = plain(_message(ask))
        self.body.addWidget(self.message)
        self.url_label = plain(self.url or "(no URL)")
        self.url_label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.body.addWidget(plain("URL:", wrap=False))
        self.body.addWidget(self.url_label)
        elicitation_id = ask.params.get("elicitationId")
        if isinstance(elicitation_id, str):
            ident = plain(f"elicitationId: {elicitation_id}")
            ident.setEnabled(False)
            self.body.addWidget(ident)
        self.body.addStretch(1)
        if self.refusal:
            self.notice.show_text(f"This URL will not be opened: {self.refusal}.", "error")
        else:
            self.body.addWidget(
                plain(
                    "Check the address before you open it: it comes from the server. "
                    "Press Done when you have finished there."
                )
            )
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
        self.resize(560, 300)

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
