"""The client side of the conversation, wired into the main window in one place.

What the server asks (dialogs through the GuiResponder: the controller creates one per
connection with this window as the dialogs' parent and the canned sampling replies),
the roots editor, MRTR rounds marked in the traffic log with their whole conversation
on demand, and the Tasks panel (a bottom tab, shown when the server offers tasks).
The main window makes one `ClientFeatures(self)`; everything else stays in here.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from inspector.features.asks.canned_replies import CannedReplies
from inspector.features.tasks import TaskClient, TaskStore
from inspector.protocol.events import NotificationReceived, RequestCompleted, SessionReady
from inspector.protocol.jsonrpc import RequestId
from inspector.session import Session
from inspector.settings.connect import roots_for
from inspector.settings.profiles import Profile, RootEntry
from inspector.traffic.rounds import RequestRounds
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.dialogs.roots import RootsDialog
from inspector.ui.panels.tasks_panel import TasksPanel
from inspector.ui.traffic.conversation_dialog import ConversationDialog

if TYPE_CHECKING:
    from inspector.ui.window.main_window import MainWindow

__all__ = ["ClientFeatures"]

_TASK_NOTIFICATIONS = frozenset({"notifications/tasks/status", "notifications/tasks"})


def _round_key(session: Session, serial: int, wire_id: RequestId) -> Hashable | None:
    """The group of an outgoing request: the core's key, unique per session and connection
    (a re-initialize starts a new connection whose keys start again)."""
    key = session.conn.key_of_wire_id(wire_id)
    return None if key is None else (serial, id(session.conn), key)


class ClientFeatures:
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        controller = self.controller = window.controller
        controller.dialog_parent = window
        self.canned = CannedReplies(window.store.path.parent / "canned-replies.json")
        controller.canned_replies = self.canned
        # MRTR rounds in the log
        self.rounds = RequestRounds(window.traffic)
        model = window.log_panel.model
        self.rounds.on_change(model.refresh_entries)
        model.set_marker(self.rounds.mark)
        detail = window.log_panel.detail
        detail.set_conversation_lookup(self.rounds.conversation)
        detail.conversation_requested.connect(self.show_conversation)
        self.conversation: ConversationDialog | None = None
        # Tasks
        self.task_store = TaskStore()
        self.tasks = TaskClient(
            self.task_store, lambda: controller.session, lambda: controller.responder
        )
        self.tasks_panel = TasksPanel(controller, self.tasks)
        window.bottom.addTab(self.tasks_panel, "Tasks")
        self.task_store.on_change(lambda _id: self._update_tasks_tab())
        self._update_tasks_tab()
        # Sessions
        self._serial = itertools.count(1)
        controller.session_hooks.append(self._new_session)
        controller.state_changed.connect(self._state_changed)
        self.roots_dialog: RootsDialog | None = None
        self._build_menu()
        self.canned.on_changed(self._update_menu)

    # ---------------------------------------------------------------- menu
    def _build_menu(self) -> None:
        w = self.window
        bar = w.menuBar()
        help_menu = next((a for a in bar.actions() if a.text() == "&Help"), None)
        menu = QMenu("&Client", bar)
        if help_menu is not None:
            bar.insertMenu(help_menu, menu)
        else:
            bar.addMenu(menu)
        self.roots_action = QAction("&Roots…", w)
        self.roots_action.setToolTip("The folders this client exposes to the server")
        self.roots_action.triggered.connect(self.open_roots)
        self.auto_action = QAction("&Auto-answer sampling with the saved reply", w)
        self.auto_action.setCheckable(True)
        self.auto_action.toggled.connect(self._auto_toggled)
        self.forget_action = QAction("&Forget the saved sampling reply", w)
        self.forget_action.triggered.connect(self._forget_reply)
        self.tasks_action = QAction("&Tasks", w)
        self.tasks_action.triggered.connect(self.show_tasks)
        menu.addAction(self.roots_action)
        menu.addSeparator()
        menu.addAction(self.auto_action)
        menu.addAction(self.forget_action)
        menu.addSeparator()
        menu.addAction(self.tasks_action)
        menu.aboutToShow.connect(self._update_menu)
        self.menu = menu
        self._update_menu()

    def _profile_id(self) -> str | None:
        profile = self.current_profile()
        return profile.id if profile is not None else None

    def _update_menu(self) -> None:
        pid = self._profile_id()
        reply = self.canned.get(pid) if pid is not None else None
        self.auto_action.blockSignals(True)
        self.auto_action.setChecked(reply is not None and reply.enabled)
        self.auto_action.blockSignals(False)
        self.auto_action.setEnabled(reply is not None)
        self.auto_action.setToolTip(
            "Tick “Answer this profile's next sampling requests…” in a sampling dialog first"
            if reply is None
            else "Answer sampling requests with the saved reply, without a dialog"
        )
        self.forget_action.setEnabled(reply is not None)
        self.roots_action.setEnabled(self.current_profile() is not None)

    def _auto_toggled(self, on: bool) -> None:
        pid = self._profile_id()
        if pid is not None:
            self.canned.set_enabled(pid, on)
            state = "on" if on else "off"
            self.window.statusBar().showMessage(f"Auto-answer sampling is {state}.", 5000)

    def _forget_reply(self) -> None:
        pid = self._profile_id()
        if pid is not None:
            self.canned.forget(pid)

    # ---------------------------------------------------------------- roots
    def current_profile(self) -> Profile | None:
        """The connected profile, else the one chosen in the connection bar."""
        c = self.controller
        if c.profile is not None and c.state in (ConnState.CONNECTED, ConnState.CONNECTING):
            return c.profile
        return self.window.profile_by_id(self.window.bar.current_profile_id()) or c.profile

    def open_roots(self) -> RootsDialog | None:
        profile = self.current_profile()
        if profile is None:
            return None
        if profile.builtin:
            where = "The demo profile is built in: these roots apply to this run only."
        elif profile.id in self.window.adhoc:
            where = "This profile came from the command line: roots apply to this run only."
        else:
            where = f"Saved in the profile “{profile.name}”."
        roots = self._live_roots(profile)
        dialog = RootsDialog(
            roots, functools.partial(self.apply_roots, profile.id), where, self.window
        )
        self.roots_dialog = dialog
        dialog.open()
        return dialog

    def _live_roots(self, profile: Profile) -> list[RootEntry]:
        c = self.controller
        if c.responder is not None and c.profile is not None and c.profile.id == profile.id:
            return [
                RootEntry(uri=str(r.get("uri", "")), name=r.get("name") or None)
                for r in c.responder.roots
            ]
        return [r.model_copy() for r in profile.roots]

    def apply_roots(self, profile_id: str, roots: list[RootEntry]) -> str:
        """Keep the roots in the profile (saved unless built in or from the command line),
        then answer roots/list with them and tell the server. Raises ValueError when the
        profile cannot be saved."""
        w, c = self.window, self.controller
        base = w.profile_by_id(profile_id) or (
            c.profile if c.profile and c.profile.id == profile_id else None
        )
        if base is None:
            raise ValueError("The profile no longer exists.")
        updated = base.model_copy(deep=True, update={"roots": list(roots)})
        if not base.builtin and profile_id in w.adhoc:
            w.adhoc[profile_id] = updated
        elif not base.builtin:
            w.store.put(updated)
        if c.profile is not None and c.profile.id == profile_id:
            c.profile = c.profile.model_copy(deep=True, update={"roots": list(roots)})
            return c.set_roots(roots_for(c.profile))
        return "Roots saved; they are sent when a server asks."

    # ---------------------------------------------------------------- MRTR
    def show_conversation(self, index: int) -> ConversationDialog | None:
        if not self.rounds.conversation(index):
            return None
        if self.conversation is not None:
            self.conversation.close()
        dialog = ConversationDialog(
            self.rounds, index, self.window.log_panel.select_entry, self.window
        )
        self.conversation = dialog
        dialog.finished.connect(lambda _code: setattr(self, "conversation", None))
        dialog.show()
        return dialog

    # ---------------------------------------------------------------- sessions
    def _new_session(self, session: Session) -> None:
        serial = next(self._serial)
        self.rounds.set_key_lookup(functools.partial(_round_key, session, serial))
        session.add_listener(functools.partial(self._on_item, session))

    def _on_item(self, session: Session, item: Any) -> None:
        if session is not self.controller.session:
            return
        if isinstance(item, NotificationReceived):
            note = item.notification
            if note.method in _TASK_NOTIFICATIONS and isinstance(note.params, dict):
                self.tasks.on_status_notification(note.params)
        elif isinstance(item, RequestCompleted):
            if item.method == "tools/call" and ("task" in item.result or "taskId" in item.result):
                self.tasks.adopt(item.result, "tools/call")
        elif isinstance(item, SessionReady):
            self.tasks.attach(item.era, item.capabilities)
            self.tasks_panel.update_mode()

    def _state_changed(self, state: str, _detail: str) -> None:
        if state in (ConnState.DISCONNECTED, ConnState.LOST, ConnState.FAILED):
            self.tasks.stop()
        self.tasks_panel.update_mode()
        self._update_menu()

    # ---------------------------------------------------------------- tasks
    def _update_tasks_tab(self) -> None:
        bottom = self.window.bottom
        index = bottom.indexOf(self.tasks_panel)
        if index >= 0:
            count = len(self.task_store)
            bottom.setTabText(index, f"Tasks ({count})" if count else "Tasks")
            bottom.setTabVisible(index, self.task_store.mode is not None or count > 0)

    def show_tasks(self) -> None:
        bottom = self.window.bottom
        index = bottom.indexOf(self.tasks_panel)
        bottom.setTabVisible(index, True)
        bottom.setCurrentIndex(index)
