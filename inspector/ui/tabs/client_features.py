"""The client side of the conversation, as the window shows it: the Client menu (roots,
the canned sampling reply), MRTR rounds marked in the traffic log with their whole
conversation on demand, and the Tasks panel (a bottom tab, shown when the server offers
tasks).

The connection model owns the data (its task store and client, its rounds, its roots);
this object only shows it, with the widgets and stores it is given: the log panel to
mark, the bottom tabs to add the Tasks tab to, the app's canned replies and profiles.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMenu, QTabWidget, QWidget

from inspector.core.connection_state import profile_in_use
from inspector.core.inspector_model import InspectorModel
from inspector.features.providers.providers import ModelSettings
from inspector.features.tasks import TaskClient, TaskStore
from inspector.settings.profiles import Profile, RootEntry
from inspector.storage.secrets import SecretStore
from inspector.traffic.rounds import RequestRounds
from inspector.ui.asks.model_providers_dialog import ModelProvidersDialog
from inspector.ui.asks.roots_dialog import RootsDialog
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.tasks.tasks_panel import TasksPanel
from inspector.ui.traffic.conversation_dialog import ConversationDialog
from inspector.ui.traffic.log_panel import TrafficLogPanel

__all__ = ["ClientFeatures"]


class ClientFeatures:
    def __init__(
        self,
        app: InspectorModel,
        controller: ConnectionController,
        log_panel: TrafficLogPanel,
        bottom: QTabWidget,
        chosen_profile: Callable[[], Profile | None],
        show_message: Callable[[str, int], None],
        parent: QWidget,
    ) -> None:
        """`bottom`: where the Tasks tab goes. `chosen_profile()`: the profile picked in the
        connection bar. `show_message(text, ms)`: the status bar. `parent`: the window its
        dialogs and actions belong to. The window places `menu` in its menu bar."""
        self.app = app
        self.canned = app.canned
        self.controller = controller
        self.log_panel = log_panel
        self.bottom = bottom
        self.chosen_profile = chosen_profile
        self.show_message = show_message
        self.parent = parent
        # MRTR rounds in the log
        model = log_panel.model
        self.rounds.on_change(model.refresh_entries)
        model.set_marker(self.rounds.mark)
        detail = log_panel.detail
        detail.set_conversation_lookup(self.rounds.conversation)
        detail.set_operation_lookup(self.rounds.describe)
        detail.conversation_requested.connect(self.show_conversation)
        self.conversation: ConversationDialog | None = None
        # Tasks
        self.tasks_panel = TasksPanel(controller, self.tasks)
        bottom.addTab(self.tasks_panel, "Tasks")
        self.task_store.on_change(self._tasks_changed)
        self._update_tasks_tab()
        controller.state_changed.connect(self._state_changed)
        self.roots_dialog: RootsDialog | None = None
        self.models_dialog: ModelProvidersDialog | None = None
        self.menu = self._build_menu()
        self._stop_canned = self.canned.on_changed(self._update_menu)

    def close(self) -> None:
        """Its tab is closing: stop hearing the app-wide canned replies."""
        self._stop_canned()

    @property
    def rounds(self) -> RequestRounds:
        return self.controller.model.rounds

    @property
    def task_store(self) -> TaskStore:
        return self.controller.model.task_store

    @property
    def tasks(self) -> TaskClient:
        return self.controller.model.tasks

    # ---------------------------------------------------------------- menu
    def _build_menu(self) -> QMenu:
        parent = self.parent
        menu = QMenu("&Client", parent)
        self.roots_action = QAction("&Roots…", parent)
        self.roots_action.setToolTip("The folders this client exposes to the server")
        self.roots_action.triggered.connect(self.open_roots)
        self.auto_action = QAction("&Auto-answer sampling with the saved reply", parent)
        self.auto_action.setCheckable(True)
        self.auto_action.toggled.connect(self._auto_toggled)
        self.forget_action = QAction("&Forget the saved sampling reply", parent)
        self.forget_action.triggered.connect(self._forget_reply)
        self.models_action = QAction("&Model providers…", parent)
        self.models_action.setToolTip(
            "The models that draft sampling replies (OpenAI-compatible or Anthropic), and this "
            "profile's hint mapping"
        )
        self.models_action.triggered.connect(self.open_model_providers)
        self.tasks_action = QAction("&Tasks", parent)
        self.tasks_action.triggered.connect(self.show_tasks)
        self.secret_names_action = QAction("Secret &field names…", parent)
        self.secret_names_action.setToolTip(
            "Argument names whose values are never remembered between calls"
        )
        self.secret_names_action.triggered.connect(self.edit_secret_names)
        menu.addAction(self.roots_action)
        menu.addSeparator()
        menu.addAction(self.auto_action)
        menu.addAction(self.forget_action)
        menu.addAction(self.models_action)
        menu.addSeparator()
        menu.addAction(self.tasks_action)
        menu.addSeparator()
        menu.addAction(self.secret_names_action)
        menu.aboutToShow.connect(self._update_menu)
        self.menu = menu
        self._update_menu()
        return menu

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
            self.show_message(f"Auto-answer sampling is {state}.", 5000)

    def _forget_reply(self) -> None:
        pid = self._profile_id()
        if pid is not None:
            self.canned.forget(pid)

    def open_model_providers(self) -> ModelProvidersDialog:
        profile = self.current_profile()
        secrets = self.app.secrets or SecretStore()
        dialog = ModelProvidersDialog(
            ModelSettings.load(),
            secrets,
            profile_id=profile.id if profile is not None else None,
            profile_name=profile.name if profile is not None else "",
            parent=self.parent,
        )
        dialog.open()
        self.models_dialog = dialog
        return dialog

    # ---------------------------------------------------------------- argument memory
    def edit_secret_names(self) -> QInputDialog:
        """A list of names, one a line: a field with one of these names (case, "_" and "-"
        aside) is never remembered. `format: password` and `writeOnly` always count."""
        memory = self.app.arguments
        dialog = QInputDialog(self.parent)
        dialog.setWindowTitle("Secret field names")
        dialog.setLabelText(
            "Values of arguments with these names are never remembered between calls\n"
            "(one name a line; whole names: “token” does not match “maxTokens”).\n"
            "Fields marked format: password or writeOnly are never remembered either."
        )
        dialog.setOption(QInputDialog.InputDialogOption.UsePlainTextEditForTextInput)
        dialog.setTextValue("\n".join(memory.secret_names))
        dialog.textValueSelected.connect(self.set_secret_names)
        dialog.open()
        return dialog

    def set_secret_names(self, text: str) -> None:
        self.app.arguments.set_secret_names(text.splitlines())
        self.show_message("Secret field names saved.", 5000)

    # ---------------------------------------------------------------- roots
    def current_profile(self) -> Profile | None:
        """The connected profile, else the one chosen in the connection bar."""
        c = self.controller
        return profile_in_use(c.model.profile, c.model.state, self.chosen_profile)

    def open_roots(self) -> RootsDialog | None:
        profile = self.current_profile()
        if profile is None:
            return None
        if profile.builtin:
            where = "The demo profile is built in: these roots apply to this run only."
        elif self.app.profiles.is_adhoc(profile.id):
            where = "This profile came from the command line: roots apply to this run only."
        else:
            where = f"Saved in the profile “{profile.name}”."
        roots = self._live_roots(profile)
        dialog = RootsDialog(
            roots, functools.partial(self.apply_roots, profile.id), where, self.parent
        )
        self.roots_dialog = dialog
        dialog.open()
        return dialog

    def _live_roots(self, profile: Profile) -> list[RootEntry]:
        c = self.controller
        if (
            c.responder is not None
            and c.model.profile is not None
            and c.model.profile.id == profile.id
        ):
            return [
                RootEntry(uri=str(r.get("uri", "")), name=r.get("name") or None)
                for r in c.responder.roots
            ]
        return [r.model_copy() for r in profile.roots]

    def apply_roots(self, profile_id: str, roots: list[RootEntry]) -> str:
        """Keep the roots in the profile, then answer roots/list with them and tell the
        server (`InspectorModel.apply_roots`). Raises ValueError when the profile cannot be
        saved."""
        return self.app.apply_roots(self.controller.model, profile_id, roots)

    # ---------------------------------------------------------------- MRTR
    def show_conversation(self, index: int) -> ConversationDialog | None:
        if not self.rounds.conversation(index):
            return None
        if self.conversation is not None:
            self.conversation.close()
        dialog = ConversationDialog(self.rounds, index, self.log_panel.select_entry, self.parent)
        self.conversation = dialog
        dialog.finished.connect(lambda _code: setattr(self, "conversation", None))
        dialog.show()
        return dialog

    # ---------------------------------------------------------------- tasks
    def _state_changed(self, _state: str, _detail: str) -> None:
        self.tasks_panel.update_mode()
        self._update_menu()

    def _tasks_changed(self, task_id: str | None) -> None:
        if task_id is None:  # a new session's tasks (or none): the panel's mode may change
            self.tasks_panel.update_mode()
        self._update_tasks_tab()

    def _update_tasks_tab(self) -> None:
        bottom = self.bottom
        index = bottom.indexOf(self.tasks_panel)
        if index >= 0:
            count = len(self.task_store)
            bottom.setTabText(index, f"Tasks ({count})" if count else "Tasks")
            bottom.setTabVisible(index, self.task_store.mode is not None or count > 0)

    def show_tasks(self) -> None:
        bottom = self.bottom
        index = bottom.indexOf(self.tasks_panel)
        bottom.setTabVisible(index, True)
        bottom.setCurrentIndex(index)
