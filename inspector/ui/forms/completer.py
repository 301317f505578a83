"""Suggestions from the server while typing (completion/complete), debounced.

The form calls the provider with (field name, typed prefix, all current values) a moment
after the user stops typing, drops answers that arrive after the text changed, and shows
them in a QCompleter popup. The provider is async; its task is kept and a failure is shown
as a short note, never raised into Qt.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias

from PySide6.QtCore import QObject, QStringListModel, Qt, QTimer, Signal
from PySide6.QtWidgets import QCompleter, QLineEdit

__all__ = ["CompletionProvider", "FieldCompleter"]

log = logging.getLogger(__name__)

CompletionProvider: TypeAlias = Callable[[str, str, dict[str, Any]], Awaitable[list[str]]]

_DEBOUNCE_MS = 250
_MAX_SHOWN = 100


class FieldCompleter(QObject):
    """Completion for the line edits of one form."""

    failed = Signal(str)

    def __init__(self, values: Callable[[], dict[str, Any]], parent: QObject | None = None):
        super().__init__(parent)
        self._values = values
        self.provider: CompletionProvider | None = None
        self._edits: dict[QLineEdit, tuple[str, QCompleter, QStringListModel]] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(_DEBOUNCE_MS)
        self._timer.timeout.connect(self._fire)
        self._pending: QLineEdit | None = None
        self.task: asyncio.Task[None] | None = None
        self.requests = 0  # how many times the provider was asked (tests, status)

    def attach(self, name: str, edit: QLineEdit) -> None:
        model = QStringListModel(self)
        completer = QCompleter(model, edit)
        completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        edit.setCompleter(completer)
        self._edits[edit] = (name, completer, model)
        edit.textEdited.connect(lambda _text, e=edit: self._typed(e))
        edit.destroyed.connect(lambda _obj=None, e=edit: self._edits.pop(e, None))

    def clear(self) -> None:
        self._edits.clear()
        self._timer.stop()
        if self.task is not None and not self.task.done():
            self.task.cancel()

    def _typed(self, edit: QLineEdit) -> None:
        if self.provider is None:
            return
        self._pending = edit
        self._timer.start()

    def _fire(self) -> None:
        edit = self._pending
        if edit is None or self.provider is None or edit not in self._edits:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no asyncio loop (a test without qasync): nothing to ask
        if self.task is not None and not self.task.done():
            self.task.cancel()
        name = self._edits[edit][0]
        prefix = edit.text()
        self.requests += 1
        self.task = loop.create_task(self._ask(edit, name, prefix), name=f"complete {name}")

    async def _ask(self, edit: QLineEdit, name: str, prefix: str) -> None:
        provider = self.provider
        if provider is None:
            return
        try:
            suggestions = await provider(name, prefix, self._values())
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the server's answer is untrusted; say so, do not raise
            log.info("completion for %s failed: %s", name, exc)
            self.failed.emit(f"suggestions for {name} unavailable: {exc}")
            return
        entry = self._edits.get(edit)
        if entry is None or edit.text() != prefix:
            return  # the user typed on: a newer request is (or will be) under way
        _name, completer, model = entry
        shown = [s for s in suggestions if isinstance(s, str)][:_MAX_SHOWN]
        model.setStringList(shown)
        if shown and edit.hasFocus():
            completer.complete()
