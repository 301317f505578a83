"""The profile editor's "Server Card (draft)" tab: for an HTTP profile, the card that
describes the server before anyone connects (SEP-2127, a draft proposal), fetched when the
user asks (`registry.server_card`: no header or token is sent; size and time capped), shown
as plain text with what is wrong with it. No card is said plainly, not as an error."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from inspector.registry.server_card import CardFetch, CardState, fetch_server_card, summary_lines
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["DRAFT_NOTE", "ServerCardTab"]

DRAFT_NOTE = (
    "Draft: Server Cards are a proposal (SEP-2127), not part of the protocol yet. A card is "
    "advisory; once connected, what the server reports wins (Check server compares them)."
)
_RAW_SHOWN = 20_000  # characters of the card's JSON shown


class ServerCardTab(QWidget):
    def __init__(self, url: Callable[[], str]) -> None:
        super().__init__()
        self._url = url
        self.task: asyncio.Task[Any] | None = None
        self.result: CardFetch | None = None
        self.draft = PlainLabel(DRAFT_NOTE, wrap=True)
        self.draft.setObjectName("serverCardDraft")
        self.draft.setStyleSheet(f"color: {colors().warn.name()}")
        self.fetch_button = QPushButton("Fetch Server Card")
        self.fetch_button.setObjectName("fetchServerCard")
        self.fetch_button.setToolTip(
            "GET <URL>/server-card, then /.well-known/mcp/server-card on the same host "
            "(no headers or tokens are sent: a card is public)"
        )
        self.fetch_button.clicked.connect(self.fetch)
        self.status = PlainLabel("Not fetched yet.", wrap=True)
        self.status.setObjectName("serverCardStatus")
        self.text = QPlainTextEdit()
        self.text.setObjectName("serverCardText")
        self.text.setReadOnly(True)
        bar = QHBoxLayout()
        bar.addWidget(self.fetch_button)
        bar.addWidget(self.status, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.draft)
        layout.addLayout(bar)
        layout.addWidget(self.text, 1)

    def reset(self) -> None:
        """Another profile is shown: forget the last card (a fetch under way is dropped)."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
        self.result = None
        self.fetch_button.setEnabled(True)
        self.status.setText("Not fetched yet.")
        self.status.setStyleSheet("")  # not the last answer's green or orange
        self.text.clear()

    def fetch(self) -> asyncio.Task[Any] | None:
        url = self._url().strip()
        if not url:
            self.status.setText("Enter the server's URL first (Server tab).")
            return None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.status.setText("Cannot fetch now (no event loop).")
            return None
        self.reset()
        self.fetch_button.setEnabled(False)
        self.status.setText(f"Fetching the card of {url}…")
        self.task = loop.create_task(self._fetch(url), name="fetch server card")
        return self.task

    async def _fetch(self, url: str) -> None:
        try:
            result = await fetch_server_card(url)
        finally:
            self.fetch_button.setEnabled(True)
        self.task = None
        self.show_result(result)

    def show_result(self, result: CardFetch) -> None:
        self.result = result
        c = colors()
        color = {CardState.FOUND: c.ok, CardState.MISSING: c.muted}.get(result.state, c.warn)
        if result.state is CardState.FOUND and result.problems:
            color = c.warn
        self.status.setText(result.describe())
        self.status.setStyleSheet(f"color: {color.name()}")
        lines: list[str] = []
        if result.card is not None:
            lines += summary_lines(result.card)
        if result.problems:
            lines += ["", "Findings:", *(f"  {p}" for p in result.problems)]
        if result.tried:
            lines += ["", "Looked at: " + ", ".join(result.tried)]
        if result.card is not None:
            raw = json.dumps(result.card, indent=2, ensure_ascii=False)
            lines += ["", "The card as sent:", raw[:_RAW_SHOWN]]
        self.text.setPlainText("\n".join(lines))
