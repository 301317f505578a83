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
`CannedReplies` store), for long sessions. With model providers set up (`ModelSettings`),
the sampling dialog drafts with a model; "Auto-approve the model's drafts" (off by default,
for this session only) then answers the next sampling requests through the model without a
dialog, with a banner on the window while it is on. A model that fails then opens the
dialog with the reason.

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

from inspector.common.listeners import Listeners
from inspector.core.front_end import AskNotice
from inspector.core.server_connection import AskRejected
from inspector.features.asks.canned_replies import CannedReplies
from inspector.features.asks.sampling import parse_sampling_request
from inspector.features.providers.drafter import Drafter
from inspector.features.providers.providers import ModelSettings, provider_key
from inspector.features.providers.types import ModelError, ModelExchange
from inspector.protocol.machine.asks import ServerAsk
from inspector.settings.profiles import Profile
from inspector.storage.secrets import SecretStore
from inspector.ui.asks.ask_dialog import WITHDRAW_DELAY_MS, AskDialog
from inspector.ui.asks.auto_approve_banner import AutoApproveBanner
from inspector.ui.asks.elicitation_dialog import elicitation_dialog
from inspector.ui.asks.model_providers_dialog import ModelProvidersDialog
from inspector.ui.asks.sampling_dialog import SamplingDialog

__all__ = ["GuiResponder", "GuiResponders"]

log = logging.getLogger(__name__)

MAX_RATE_LIMIT_WAIT = 5.0  # seconds: a longer retry-after is the person's call (Retry)


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
        models: Callable[[], ModelSettings] | None = None,
        banner: AutoApproveBanner | None = None,
        secrets: SecretStore | None = None,
        label: Callable[[], str] | None = None,
        on_asks: Callable[[int], None] | None = None,
    ) -> None:
        """`label()`: the name of the tab the asks come from (in each dialog's title).
        `on_asks(count)`: how many asks wait for an answer (shown or queued), on each change.
        `on_notice(text, to_errors)`: a sentence for the user (the status bar; the Errors
        tab too when `to_errors`). `parent`: the window the dialogs are modal to.
        `models()`: the model providers as they are now (read at each ask). `banner`: shown
        while model drafts are auto-approved."""
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
        self.models = models
        self.banner = banner
        self.auto_approve = False  # model drafts answer sampling without a dialog
        self.model_exchanges: Listeners[[ModelExchange]] = Listeners("model exchange")
        self.secrets = secrets or SecretStore()
        self._pending_error: str | None = None  # why auto-approve fell back to the dialog
        self.providers_dialog: ModelProvidersDialog | None = None
        self.label = label
        self.on_asks = on_asks

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
        if ask.kind == "sampling" and self.auto_approve:
            result = await self._auto_draft(ask)
            if result is not None:
                return result
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

    # ---------------------------------------------------------------- models
    def drafter(self) -> Drafter | None:
        """A drafter over the providers as they are now (None: no model settings here)."""
        if self.models is None:
            return None
        try:
            settings = self.models()
        except Exception:  # a broken settings file must not stop answering by hand
            log.exception("model settings could not be read")
            return None
        secrets = self.secrets
        return Drafter(
            settings.providers,
            lambda provider: provider_key(secrets, provider),
            rules=settings.rules_for(self.profile_id),
            on_exchange=self._exchange,
            max_wait=MAX_RATE_LIMIT_WAIT,
        )

    def _exchange(self, exchange: ModelExchange) -> None:
        self.model_exchanges.emit(exchange)

    async def _auto_draft(self, ask: ServerAsk) -> dict[str, Any] | None:
        """Auto-approve is on: the model's answer, or None (with the reason kept for the
        dialog that opens instead)."""
        drafter = self.drafter()
        if drafter is None:
            return None
        try:
            draft = await drafter.draft(parse_sampling_request(ask.params))
        except ModelError as exc:
            self._pending_error = str(exc)
            self._on_notice(
                f"Sampling request ({ask.origin}): auto-approve could not draft ({exc}); "
                "opening the dialog.",
                True,
            )
            return None
        self.answered += 1
        self._on_notice(
            f"Sampling request ({ask.origin}) answered by {draft.choice.label} without asking "
            f"(auto-approve is on): {draft.summary()}.",
            False,
        )
        return draft.result

    def _providers_for_dialog(self) -> None:
        """The sampling dialog's "Model providers…": edit them, then draft with the result."""
        dialog = self.dialog
        if self.models is None or not isinstance(dialog, SamplingDialog):
            return
        editor = ModelProvidersDialog(
            self.models(), self.secrets, profile_id=self.profile_id, parent=dialog
        )
        editor.finished.connect(
            lambda code: dialog.model_panel.set_drafter(self.drafter()) if code else None
        )
        editor.open()
        self.providers_dialog = editor

    def set_auto_approve(self, on: bool) -> None:
        self.auto_approve = on
        if self.banner is None:
            return
        if on:
            self.banner.show_for(
                "Auto-approve is ON for this session: sampling requests are answered by the "
                "model without asking."
            )
        else:
            self.banner.hide()

    def how_answered(self, ask: ServerAsk) -> str:
        """How this responder answers `ask`, in words (a recording's action lines)."""
        if ask.kind == "roots":
            return "with the profile's roots"
        if ask.kind == "sampling" and self.auto_approve:
            return "through the model (auto-approve)"
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
        if self.label is not None:  # whose ask: in the title, and in the dialog itself
            # (a window-modal dialog is a title-less sheet on macOS)
            tab = self.label()
            dialog.setWindowTitle(f"{tab} — {dialog.windowTitle()}")
            dialog.heading.setText(f"{dialog.heading.text()} from the tab “{tab}”")
        dialog.open()
        dialog.raise_()
        if self.on_dialog is not None:
            self.on_dialog(dialog)

    def _make_dialog(self, ask: ServerAsk) -> AskDialog:
        if ask.kind == "sampling":
            can_auto = self.canned is not None and self.profile_id is not None
            dialog = SamplingDialog(
                ask,
                self.parent,
                can_auto_answer=can_auto,
                drafter=self.drafter(),
                on_providers=self._providers_for_dialog,
            )
            if self._pending_error is not None:
                dialog.notice.show_text(
                    f"Auto-approve could not draft this one: {self._pending_error}. Retry, "
                    "answer by hand, or reject.",
                    "error",
                )
                self._pending_error = None
            return dialog
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
        if (
            isinstance(dialog, SamplingDialog)
            and dialog.model_panel.auto_approve.isChecked()
            and dialog.model_panel.draft is not None
        ):
            self.set_auto_approve(True)
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
        if self.on_asks is not None:
            self.on_asks(len(self._queue) + (1 if self._current is not None else 0))


class GuiResponders:
    """Makes the `GuiResponder` of each new session (a `ResponderFactory`)."""

    def __init__(
        self,
        parent: QWidget | None,
        canned: CannedReplies | None,
        models: Callable[[], ModelSettings] | None = ModelSettings.load,
        secrets: SecretStore | None = None,
        *,
        label: Callable[[], str] | None = None,
        on_asks: Callable[[int], None] | None = None,
    ) -> None:
        """`secrets`: the app's store (so a key kept for this session only, with no keyring,
        is found by every dialog that needs it). `label()`: the tab the dialogs belong to
        (named in their titles); `on_asks(count)`: asks waiting, on each change."""
        self.label = label
        self.on_asks = on_asks
        self.parent = parent  # the window the dialogs are modal to
        self.canned = canned
        self.models = models
        self.secrets = secrets or SecretStore()
        self.current: GuiResponder | None = None
        self.banner = AutoApproveBanner(parent, self._turn_off) if parent is not None else None

    def __call__(
        self, profile: Profile, roots: list[dict[str, Any]], notice: AskNotice
    ) -> GuiResponder:
        # Auto-approve is for one session: a new session starts with it off.
        if self.current is not None:
            self.current.set_auto_approve(False)
        self.current = GuiResponder(
            roots,
            notice,
            parent=self.parent,
            profile_id=profile.id,
            canned=self.canned,
            models=self.models,
            banner=self.banner,
            secrets=self.secrets,
            label=self.label,
            on_asks=self.on_asks,
        )
        return self.current

    def _turn_off(self) -> None:
        if self.current is not None:
            self.current.set_auto_approve(False)


def _what(ask: ServerAsk) -> str:
    if ask.kind == "sampling":
        return "Sampling request"
    if ask.kind == "elicitation":
        return "URL elicitation" if ask.elicitation_mode == "url" else "Elicitation"
    return "Roots request"
