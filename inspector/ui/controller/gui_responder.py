"""How the GUI answers what the server asks, in both eras: dialogs, one at a time.

A legacy server request (sampling/createMessage, elicitation/create, roots/list) and a
modern `inputRequests` entry reach `respond` alike (the Responder protocol). Roots are
answered at once from the profile (kept live: the roots editor changes them). Sampling
and elicitation open a window-modal dialog with `open()` (never `exec()`: the qasync loop
keeps running and traffic keeps flowing in the log) and `respond` awaits its answer.

Several asks queue: one dialog at a time, the next opening when it closes, and the open
dialog shows how many more are waiting. When the server withdraws an ask (the session
cancels the `respond` task with the reason), its dialog is disabled, shows the reason
and closes by itself; a queued ask that was never shown is dropped with a notice.

Sampling can be answered without asking, with a canned reply per profile (the
`CannedReplies` store), for long sessions.

`GuiResponders` is the factory the connection model is given: one responder per session,
its dialogs modal to the window that shows the connection.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from inspector.app.front_end import AskNotice
from inspector.features.asks.canned_replies import CannedReplies
from inspector.protocol.asks import ServerAsk
from inspector.session import AskRejected
from inspector.settings.profiles import Profile
from inspector.ui.dialogs.ask_dialog import WITHDRAW_DELAY_MS, AskDialog
from inspector.ui.dialogs.elicitation_dialog import elicitation_dialog
from inspector.ui.dialogs.sampling_dialog import SamplingDialog

__all__ = ["GuiResponder", "GuiResponders"]

log = logging.getLogger(__name__)


@dataclass(eq=False)
class _Waiting:
    ask: ServerAsk
    future: asyncio.Future[dict[str, Any]]
    dialog: AskDialog | None = None
    reason: str | None = None  # why it was withdrawn


class GuiResponder:
    def __init__(
        self,
        roots: Sequence[dict[str, Any]],
        on_notice: Callable[[str, bool], None],
        *,
        parent: QWidget | None = None,
        profile_id: str | None = None,
        canned: CannedReplies | None = None,
    ) -> None:
        """`on_notice(text, to_errors)`: a sentence for the user (the status bar; the Errors
        tab too when `to_errors`). `parent`: the window the dialogs are modal to."""
        self.roots: list[dict[str, Any]] = list(roots)
        self._on_notice = on_notice
        self.parent = parent
        self.profile_id = profile_id
        self.canned = canned
        self.withdraw_delay_ms = WITHDRAW_DELAY_MS
        self._queue: list[_Waiting] = []
        self._current: _Waiting | None = None
        self.answered = 0  # asks answered (any outcome), for tests and the status bar
        self.on_dialog: Callable[[AskDialog], None] | None = None  # a dialog just opened

    # ---------------------------------------------------------------- Responder
    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        if ask.kind == "roots":
            self._on_notice(
                f"The server asked for roots ({ask.origin}); answered with the profile's "
                f"{len(self.roots)} root(s).",
                False,
            )
            self.answered += 1
            return {"roots": [dict(r) for r in self.roots]}
        if ask.kind == "sampling" and self.canned is not None and self.profile_id is not None:
            canned = self.canned.active(self.profile_id)
            if canned is not None:
                self._on_notice(
                    f"Sampling request ({ask.origin}) answered with the saved reply "
                    "(auto-answer is on: Client ▸ Auto-answer sampling).",
                    False,
                )
                self.answered += 1
                return canned
        waiting = _Waiting(ask, asyncio.get_running_loop().create_future())
        self._queue.append(waiting)
        self._pump()
        self._update_counts()
        try:
            result = await waiting.future
        except asyncio.CancelledError as exc:
            reason = str(exc.args[0]) if exc.args and exc.args[0] else "the request ended"
            self._withdraw(waiting, reason)
            raise
        except AskRejected:
            self.answered += 1
            self._on_notice(f"{_what(ask)} ({ask.origin}) rejected.", False)
            raise
        self.answered += 1
        self._on_notice(f"{_what(ask)} ({ask.origin}) answered.", False)
        return result

    def how_answered(self, ask: ServerAsk) -> str:
        """How this responder answers `ask`, in words (a recording's action lines)."""
        if ask.kind == "roots":
            return "with the profile's roots"
        if ask.kind == "sampling" and self.canned is not None and self.profile_id is not None:
            try:
                if self.canned.active(self.profile_id) is not None:
                    return "automatically (canned reply)"
            except Exception:  # a store problem must not break answering
                log.exception("canned replies lookup failed")
        return "by hand"

    # ---------------------------------------------------------------- state
    @property
    def dialog(self) -> AskDialog | None:
        """The dialog on screen (None when no ask is being shown)."""
        return self._current.dialog if self._current is not None else None

    @property
    def waiting(self) -> int:
        """Asks queued behind the one on screen."""
        return len(self._queue)

    # ---------------------------------------------------------------- queue
    def _pump(self) -> None:
        if self._current is not None or not self._queue:
            return
        waiting = self._queue.pop(0)
        self._current = waiting
        dialog = self._make_dialog(waiting.ask)
        dialog.withdraw_delay_ms = self.withdraw_delay_ms
        waiting.dialog = dialog
        dialog.finished.connect(functools.partial(self._closed, waiting))
        dialog.set_waiting(len(self._queue))
        dialog.open()
        dialog.raise_()
        if self.on_dialog is not None:
            self.on_dialog(dialog)

    def _make_dialog(self, ask: ServerAsk) -> AskDialog:
        if ask.kind == "sampling":
            can_auto = self.canned is not None and self.profile_id is not None
            return SamplingDialog(ask, self.parent, can_auto_answer=can_auto)
        return elicitation_dialog(ask, self.parent)

    def _closed(self, waiting: _Waiting, _code: int = 0) -> None:
        """The dialog closed: hand its answer (or refusal) to the waiting `respond`."""
        dialog = waiting.dialog
        if dialog is not None:
            self._take_answer(waiting, dialog)
        if self._current is waiting:
            self._current = None
            if dialog is not None:
                dialog.deleteLater()
            waiting.dialog = None
            # Next one after the event loop turns (the closing dialog has gone away).
            QTimer.singleShot(0, self._next)

    def _take_answer(self, waiting: _Waiting, dialog: AskDialog) -> None:
        answer = dialog.answer
        if waiting.future.done() or not answer.done():
            return  # withdrawn: nothing to send
        if answer.cancelled():
            waiting.future.cancel()
            return
        exc = answer.exception()
        if exc is not None:
            waiting.future.set_exception(exc)
            return
        result = answer.result()
        if (
            isinstance(dialog, SamplingDialog)
            and dialog.auto_answer.isChecked()
            and self.canned is not None
            and self.profile_id is not None
        ):
            self.canned.put(self.profile_id, result, enabled=True)
        waiting.future.set_result(result)

    def _next(self) -> None:
        self._pump()
        self._update_counts()

    def _withdraw(self, waiting: _Waiting, reason: str) -> None:
        waiting.reason = reason
        if not waiting.future.done():
            waiting.future.cancel()
        if waiting in self._queue:
            self._queue.remove(waiting)
            self._on_notice(
                f"{_what(waiting.ask)} ({waiting.ask.origin}) was withdrawn by the server "
                f"before it was shown: {reason}.",
                False,
            )
            self._update_counts()
            return
        if waiting is self._current and waiting.dialog is not None:
            waiting.dialog.withdraw(reason)
            self._on_notice(
                f"{_what(waiting.ask)} ({waiting.ask.origin}) was withdrawn by the server: "
                f"{reason}.",
                False,
            )

    def _update_counts(self) -> None:
        dialog = self.dialog
        if dialog is not None:
            dialog.set_waiting(len(self._queue))


class GuiResponders:
    """Makes the `GuiResponder` of each new session (a `ResponderFactory`)."""

    def __init__(self, parent: QWidget | None, canned: CannedReplies | None) -> None:
        self.parent = parent  # the window the dialogs are modal to
        self.canned = canned

    def __call__(
        self, profile: Profile, roots: list[dict[str, Any]], notice: AskNotice
    ) -> GuiResponder:
        return GuiResponder(
            roots, notice, parent=self.parent, profile_id=profile.id, canned=self.canned
        )


def _what(ask: ServerAsk) -> str:
    if ask.kind == "sampling":
        return "Sampling request"
    if ask.kind == "elicitation":
        return "URL elicitation" if ask.elicitation_mode == "url" else "Elicitation"
    return "Roots request"
