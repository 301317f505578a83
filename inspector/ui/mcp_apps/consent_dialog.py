"""Asks the user whether an app may call a tool or open a link (non-modal to the event loop:
the dialog is opened and awaited, so the session keeps running)."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget
from shiboken6 import isValid

from inspector.features.mcp_apps.consent import ConsentQuestion, Decision

__all__ = ["ask_consent"]


async def ask_consent(question: ConsentQuestion, parent: QWidget | None) -> Decision:
    box = QMessageBox(parent)
    box.setObjectName("appConsentDialog")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(question.title)
    box.setTextFormat(Qt.TextFormat.PlainText)  # the URL, the tool name: app text
    box.setText(question.text)
    allow = box.addButton("Allow once", QMessageBox.ButtonRole.AcceptRole)
    always = (
        box.addButton("Always for this app", QMessageBox.ButtonRole.YesRole)
        if question.kind == "tool"
        else None
    )
    deny = box.addButton("Deny", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(deny)
    box.setEscapeButton(deny)
    future: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()

    def finished(_code: int) -> None:
        clicked = box.clickedButton()
        decision = (
            Decision.ONCE
            if clicked is allow
            else Decision.ALWAYS
            if always is not None and clicked is always
            else Decision.DENY
        )
        if not future.done():
            future.set_result(decision)
        box.deleteLater()

    box.finished.connect(finished)
    box.open()
    try:
        return await future
    finally:
        if not future.done() and isValid(box):  # cancelled (the view went): no answer
            box.close()
