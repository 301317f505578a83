"""The Auth panel: each step of the OAuth flow as it happens, and the login controls.

It adapts the controller's Qt-free `ProfileAuth`: its `AuthTimeline` (a table of redacted
events: discovery URLs tried and their results, metadata found, the registration, the
authorization URL, the token exchange, expiry), its `StepGate` ("Step through": the flow
pauses before each step until Next; Stop ends the login) and its state (a login in
progress, the authorization URL waiting for a browser). Errors are shown in a banner in
plain words. Everything is plain text.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.auth import AuthError, AuthEvent
from inspector.settings.profile_auth import ProfileAuthError, uses_oauth
from inspector.settings.profiles import Profile
from inspector.ui.auth.auth_opener import open_in_browser
from inspector.ui.auth.auth_timeline_model import AuthTimelineModel
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.row_table import RowTable
from inspector.ui.widgets.split_panes import split_panes
from inspector.ui.widgets.theme import colors

__all__ = ["AuthPanel"]


class _Bar(QFrame):
    """A tinted strip with a message and buttons (pause, browser wait, error)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.setObjectName(name)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = PlainLabel(wrap=True, selectable=True)
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(8, 4, 8, 4)
        self.row.addWidget(self.label, 1)
        self.tint = "warn"

    def set_tint(self, which: str) -> None:
        self.tint = which
        self.recolor()

    def recolor(self) -> None:
        palette = colors()
        color = {"error": palette.error, "ok": palette.ok}.get(self.tint, palette.warn)
        name = self.objectName()
        self.setStyleSheet(
            f"QFrame#{name} {{ border: 1px solid {color.name()}; border-radius: 3px;"
            f" background: rgba({color.red()}, {color.green()}, {color.blue()}, 40); }}"
        )


class _MiddleElide(QStyledItemDelegate):
    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex) -> None:  # type: ignore[override]
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


class AuthPanel(QWidget):
    attention = Signal()  # a login started, or failed: the window shows this panel

    def __init__(
        self,
        controller: ConnectionController,
        current_profile: Callable[[], Profile | None],
    ) -> None:
        super().__init__()
        self.setObjectName("authPanel")
        self.controller = controller
        self.auth = controller.model.auth
        self.current_profile = current_profile
        self._tasks: set[asyncio.Task[Any]] = set()
        self._was_logging_in = False

        self.status = PlainLabel(wrap=True)
        self.status.setObjectName("authStatus")
        bold = self.status.font()
        bold.setBold(True)
        self.status.setFont(bold)
        self.keyring_note = PlainLabel(wrap=True)
        self.login_button = QPushButton("Log in")
        self.login_button.setToolTip("Log in now (a connect logs in by itself when needed)")
        self.logout_button = QPushButton("Log out")
        self.logout_button.setToolTip(
            "Forget this server's tokens and client registration (disconnects first)"
        )
        self.cancel_button = QPushButton("Cancel login")
        self.step_box = QCheckBox("Step through")
        self.step_box.setToolTip("Pause before each step of the flow until Next")
        self.next_button = QPushButton("Next step")
        self.stop_button = QPushButton("Stop")
        clear = QToolButton()
        clear.setText("Clear")
        clear.clicked.connect(self.clear)
        top = QHBoxLayout()
        for button in (self.login_button, self.logout_button, self.cancel_button):
            top.addWidget(button)
        top.addSpacing(12)
        top.addWidget(self.step_box)
        top.addWidget(self.next_button)
        top.addWidget(self.stop_button)
        top.addStretch(1)
        top.addWidget(clear)

        self.pause_bar = _Bar("authPauseBar")
        self.browser_bar = _Bar("authBrowserBar")
        self.copy_button = QPushButton("Copy URL")
        self.open_button = QPushButton("Open in browser")
        self.browser_bar.row.addWidget(self.copy_button)
        self.browser_bar.row.addWidget(self.open_button)
        self.error_bar = _Bar("authErrorBar")
        self.error_bar.set_tint("error")
        self.error_bar.label.setObjectName("authError")
        dismiss = QToolButton()
        dismiss.setText("Dismiss")
        dismiss.clicked.connect(lambda: self.error_bar.setVisible(False))
        self.error_bar.row.addWidget(dismiss)
        for bar in (self.pause_bar, self.browser_bar, self.error_bar):
            bar.setVisible(False)

        self.model = AuthTimelineModel(self.auth.timeline)
        self.table = RowTable()
        self.table.setObjectName("authTimeline")
        self.table.setModel(self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setItemDelegateForColumn(4, _MiddleElide(self.table))  # URLs: both ends
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(12)
        metrics = self.fontMetrics()
        for column, sample in enumerate(("00:00:00.000", "registration", "⚠")):
            self.table.setColumnWidth(column, metrics.horizontalAdvance(sample) + 14)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnWidth(4, metrics.horizontalAdvance("x" * 22))
        self.table.selectionModel().currentRowChanged.connect(self._selected)
        self.details = QPlainTextEdit()
        self.details.setObjectName("authDetails")
        self.details.setReadOnly(True)
        self.details.setPlaceholderText(
            "Select a step to read it in full: the URL, and what was sent and received "
            "(token values are redacted)."
        )
        self.splitter = split_panes(
            Qt.Orientation.Horizontal, [self.table, self.details], stretch=(7, 3)
        )

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status)
        layout.addLayout(top)
        layout.addWidget(self.keyring_note)
        layout.addWidget(self.pause_bar)
        layout.addWidget(self.browser_bar)
        layout.addWidget(self.error_bar)
        layout.addWidget(self.splitter, 1)

        self.login_button.clicked.connect(self.log_in)
        self.logout_button.clicked.connect(self.log_out)
        self.cancel_button.clicked.connect(self.cancel_login)
        self.step_box.toggled.connect(self.auth.gate.set_enabled)
        self.next_button.clicked.connect(self.auth.gate.advance)
        self.stop_button.clicked.connect(lambda: self.auth.gate.stop("stopped by the user"))
        self.copy_button.clicked.connect(self.copy_url)
        self.open_button.clicked.connect(self.open_url)
        self.auth.on_changed(self.refresh)
        self.auth.timeline.add_listener(self._event)
        controller.state_changed.connect(lambda _s, _d: self.refresh())
        self._status_timer = QTimer(self)  # the expiry countdown in the status line
        self._status_timer.setInterval(1000)
        self._status_timer.timeout.connect(self._tick)
        self._status_timer.start()
        self.refresh()

    # ---------------------------------------------------------------- state
    def refresh(self) -> None:
        auth = self.auth
        profile = self.current_profile()
        oauth = uses_oauth(profile)
        busy = auth.logging_in
        status = auth.status(profile)
        if busy:
            who = auth.login_profile.name if auth.login_profile else "?"
            status = f"Logging in for “{who}”…"
        self.status.setText(status)
        note = auth.keyring_note
        self.keyring_note.setText(f"⚠ {note}" if note else "")
        self.keyring_note.setVisible(bool(note))
        self.login_button.setEnabled(oauth and not busy)
        self.logout_button.setEnabled(oauth and not busy)
        self.cancel_button.setEnabled(busy)
        waiting = auth.gate.waiting
        self.next_button.setEnabled(waiting is not None)
        self.stop_button.setEnabled(waiting is not None)
        if waiting is not None:
            where = f"\n{waiting.url}" if waiting.url else ""
            self.pause_bar.label.setText(
                f"Paused before: {waiting.description}.{where}\n"
                "Next step runs it; Stop ends the login."
            )
        self.pause_bar.setVisible(waiting is not None)
        prompt = auth.prompt
        if prompt is not None:
            self.browser_bar.label.setText(
                "Waiting for the browser to come back to "
                f"{prompt.redirect_uri} (listening only during this login)."
            )
        self.browser_bar.setVisible(prompt is not None)
        if busy and not self._was_logging_in:
            self.error_bar.setVisible(False)
            self.attention.emit()
        self._was_logging_in = busy

    def _tick(self) -> None:
        if self.isVisible() and not self.auth.logging_in:
            self.status.setText(self.auth.status(self.current_profile()))

    def _event(self, event: AuthEvent) -> None:
        if event.level == "error":
            self.show_error(event.message)
        elif event.step == "error":  # a login the user stopped: said, but not as an error
            self.show_error(event.message, tint="warn")
        elif event.step == "login" and event.level == "ok":
            self.error_bar.setVisible(False)
        QTimer.singleShot(0, self.table.scrollToBottom)
        QTimer.singleShot(0, self._tick)

    def show_error(self, message: str, tint: str = "error") -> None:
        self.error_bar.label.setText(("✖ " if tint == "error" else "⚠ ") + message)
        self.error_bar.set_tint(tint)
        self.error_bar.setVisible(True)
        self.attention.emit()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:  # light/dark switch
            for bar in (self.pause_bar, self.browser_bar, self.error_bar):
                bar.recolor()
        super().changeEvent(event)

    def showEvent(self, event: Any) -> None:
        for bar in (self.pause_bar, self.browser_bar, self.error_bar):
            bar.recolor()
        self.refresh()
        super().showEvent(event)

    # ---------------------------------------------------------------- details
    def _selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.details.setPlainText("")
            return
        event = self.model.event(current.row())
        stamp = time.strftime("%H:%M:%S", time.localtime(event.time))
        lines = [f"{stamp}  {event.step}  ({event.level})", "", event.message]
        if event.url:
            lines += ["", f"URL: {event.url}"]
        if event.details:
            lines += ["", json.dumps(event.details, indent=2, ensure_ascii=False, default=str)]
        self.details.setPlainText("\n".join(lines))

    # ---------------------------------------------------------------- intents
    def _start(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.show_error(f"{task.get_name()} failed: {task.exception()}")

    def log_in(self) -> asyncio.Task[None] | None:
        return self._start_for_oauth(self._log_in, "log in")

    def _start_for_oauth(
        self, step: Callable[[Profile], Coroutine[Any, Any, None]], name: str
    ) -> asyncio.Task[None] | None:
        """Start `step` for the current profile; None when it does not use OAuth."""
        profile = self.current_profile()
        if profile is None or not uses_oauth(profile):
            return None
        return self._start(step(profile), name)

    async def _log_in(self, profile: Profile) -> None:
        try:
            await self.auth.login(profile)
        except ProfileAuthError as exc:
            self.show_error(str(exc))
        except AuthError:
            pass  # the timeline has it, and the banner shows it

    def log_out(self) -> asyncio.Task[None] | None:
        return self._start_for_oauth(self._log_out, "log out")

    async def _log_out(self, profile: Profile) -> None:
        c = self.controller
        if (
            c.model.profile is not None
            and c.model.profile.id == profile.id
            and c.model.state in (ConnState.CONNECTED, ConnState.CONNECTING)
        ):
            self.auth.note("logout", "disconnecting first: the connection uses these tokens")
            await c.model.disconnect_server()
        self.auth.logout(profile)
        self.error_bar.setVisible(False)
        self.refresh()

    def cancel_login(self) -> None:
        self.auth.cancel_login()

    def copy_url(self) -> None:
        prompt = self.auth.prompt
        if prompt is not None:
            QGuiApplication.clipboard().setText(prompt.url)

    def open_url(self) -> None:
        prompt = self.auth.prompt
        if prompt is None:
            return
        try:
            opened = open_in_browser(prompt.url)
        except AuthError as exc:
            self.show_error(str(exc))
            return
        if not opened:
            self.show_error("no browser could be opened: use Copy URL instead")

    def clear(self) -> None:
        self.auth.timeline.clear()
        self.model.reset()
        self.details.setPlainText("")
        self.error_bar.setVisible(False)
