"""Collections in the window, wired in one place: "Save call…" from the workspace views
and from the traffic log's rows, the Collections tab (a bottom tab, beside the server's
console and errors: a test run is watched while the workspace stays in view, as in an
IDE's test runner), and File ▸ Save Session as Test Collection.

The window hands over what it has (the connection's controller, the workspace, the log
panel, the bottom tabs, the session files) and places `session_action` in its File menu.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import QObject, QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox, QTabWidget, QWidget

from inspector.collections.call_draft import CallDraft
from inspector.collections.drafts import (
    SAVABLE_METHODS,
    DraftError,
    draft_from_entry,
    with_answer,
)
from inspector.collections.file import save_collection
from inspector.collections.from_session import collection_from_session
from inspector.core.connection_state import profile_in_use
from inspector.core.inspector_model import InspectorModel
from inspector.recording.reader import RecordedSession, SessionFileError
from inspector.settings.profiles import Profile
from inspector.traffic.log import TrafficEntry
from inspector.ui.collections.memory import CollectionMemory, default_file_name, default_folder
from inspector.ui.collections.panel import CollectionsPanel
from inspector.ui.collections.save_dialog import SaveCallDialog
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.recording.session_files import SessionFiles
from inspector.ui.traffic.log_panel import TrafficLogPanel
from inspector.ui.widgets.message_box import open_warning
from inspector.ui.workspace.workspace import Workspace

__all__ = ["CollectionsFeature"]

_FILTER: Final = "Collections (*.json);;All files (*)"


class CollectionsFeature(QObject):
    def __init__(
        self,
        app: InspectorModel,
        controller: ConnectionController,
        workspace: Workspace,
        log_panel: TrafficLogPanel,
        bottom: QTabWidget,
        session_files: SessionFiles,
        chosen_profile: Callable[[], Profile | None],
        settings: QSettings,
        show_message: Callable[[str, int], None],
        parent: QWidget,
    ) -> None:
        """`bottom`: where the Collections tab goes. `chosen_profile()`: the profile in the
        connection bar. `show_message(text, ms)`: the status bar. `parent`: the window."""
        super().__init__(parent)
        self.app = app
        self.controller = controller
        self.log_panel = log_panel
        self.bottom = bottom
        self.session_files = session_files
        self.chosen_profile = chosen_profile
        self.show_message = show_message
        self.parent_widget = parent
        self.memory = CollectionMemory(settings)
        self.dialog: SaveCallDialog | None = None
        self.message_box: QMessageBox | None = None  # the last one shown (tests read it)
        self.panel = CollectionsPanel(controller, self.run_env, self._choose_to_open)
        bottom.addTab(self.panel, "Collections")
        self.panel.run_finished.connect(self._run_finished)
        workspace.save_call_requested.connect(self.save_call)
        log_panel.add_row_action("Save call…", self._row_savable, self.save_row)
        self.session_action = QAction("Save Session as &Test Collection…", parent)
        self.session_action.setObjectName("saveSessionAsCollection")
        self.session_action.setToolTip(
            "Every call of the shown (or latest) session as a saved call, with its recorded "
            "result as the snapshot"
        )
        self.session_action.triggered.connect(self.choose_and_convert_session)
        controller.state_changed.connect(self._state_changed)

    # ---------------------------------------------------------------- context
    def current_profile(self) -> Profile | None:
        c = self.controller
        return profile_in_use(c.model.profile, c.model.state, self.chosen_profile)

    def _profile_id(self) -> str | None:
        profile = self.current_profile()
        return profile.id if profile is not None else None

    def run_env(self) -> dict[str, str]:
        """What `${env:NAME}` resolves from: this process's environment, then the plain
        (non-secret) variables of the connected profile."""
        env = dict(os.environ)
        profile = self.controller.model.profile
        if profile is not None:
            env.update({v.name: v.value for v in profile.stdio.env if not v.secret and v.value})
        return env

    def _state_changed(self, state: str, _detail: str) -> None:
        """Connecting to a server opens its last collection, unless one is open."""
        profile = self.controller.model.profile
        if state != ConnState.CONNECTING.value or profile is None or self.panel.path is not None:
            return
        last = self.memory.last(profile.id)
        if last is not None and last.exists():
            self.panel.open_file(last)

    def _new_file(self) -> Path:
        profile = self.current_profile()
        return default_folder(profile) / default_file_name(profile)

    def _tool(self, name: object) -> dict[str, Any] | None:
        for tool in self.controller.model.tools or []:
            if isinstance(tool, dict) and tool.get("name") == name:
                return tool
        return None

    # ---------------------------------------------------------------- save call
    def save_call(self, draft: object) -> SaveCallDialog | None:
        if not isinstance(draft, CallDraft):
            return None
        if self.dialog is not None:
            self.dialog.close()
        draft = with_answer(self.controller.model.traffic, draft, self.controller.model.rounds)
        tool = None
        if draft.method == "tools/call":
            tool = self._tool(draft.params.get("name"))
        schema = tool.get("inputSchema") if tool is not None else None
        files = self.memory.choices(self._profile_id())
        if self.panel.path is not None and self.panel.path not in files:
            files.append(self.panel.path)
        dialog = SaveCallDialog(
            draft,
            files,
            self._new_file(),
            self.parent_widget,
            schema=schema if isinstance(schema, dict) else None,
            secret_names=self.app.arguments.secret_names,
            tool=tool,
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.saved.connect(self._saved)
        dialog.destroyed.connect(lambda _o=None: setattr(self, "dialog", None))
        self.dialog = dialog
        dialog.open()
        return dialog

    def _saved(self, path: object, name: str) -> None:
        if not isinstance(path, Path):
            return
        self.memory.used(path, self._profile_id())
        if self.panel.path != path.absolute():
            self.panel.open_file(path)
        else:
            self.panel.reload()
        self.panel.select(name)
        self.show_message(f"Saved “{name}” to {path}", 8000)

    @staticmethod
    def _row_savable(entry: TrafficEntry) -> bool:
        return entry.kind in ("request", "response", "error") and entry.method in SAVABLE_METHODS

    def save_row(self, entry: TrafficEntry) -> SaveCallDialog | None:
        try:
            draft = draft_from_entry(
                self.controller.model.traffic, entry, self.controller.model.rounds
            )
        except DraftError as exc:
            self.show_message(f"Cannot save this row: {exc}", 8000)
            return None
        return self.save_call(draft)

    # ---------------------------------------------------------------- the panel
    def _choose_to_open(self) -> Path | None:
        start = self.panel.path or self._new_file()
        name, _ = QFileDialog.getOpenFileName(
            self.parent_widget, "Open collection", str(start.parent), _FILTER
        )
        if not name:
            return None
        self.memory.used(Path(name), self._profile_id())
        return Path(name)

    def show_panel(self) -> None:
        self.bottom.setCurrentWidget(self.panel)

    def _run_finished(self, passed: int, failed: int) -> None:
        self.show_message(f"Collection run: {passed} passed, {failed} failed", 8000)
        index = self.bottom.indexOf(self.panel)
        self.bottom.setTabText(index, f"Collections ({failed} ✗)" if failed else "Collections")

    # ---------------------------------------------------------------- session → collection
    def choose_and_convert_session(self) -> None:
        try:
            recorded = self.session_files.current_recording()
        except (SessionFileError, OSError, ValueError) as exc:
            self.show_error("Cannot save the session as a collection", str(exc))
            return
        suggested = default_folder(self.current_profile()) / (
            recorded.path.stem + ".collection.json"
        )
        name, _ = QFileDialog.getSaveFileName(
            self.parent_widget, "Save session as test collection", str(suggested), _FILTER
        )
        if name:
            self.convert_session(recorded, Path(name))

    def convert_session(self, recorded: RecordedSession, target: Path) -> str | None:
        """Write the session's calls as a collection to `target`, open it in the panel and
        say what was left out. Returns the sentence shown (None on an error)."""
        conversion = collection_from_session(recorded, target.name.split(".")[0])
        collection = conversion.collection
        if not collection.calls:
            self.show_error(
                "Nothing to save",
                f"{recorded.path.name} has no calls that a collection can hold "
                "(tools/call, resources/read, prompts/get, completion/complete, tools/list)."
                + "".join(f"\n• {n}" for n in conversion.notes[:20]),
            )
            return None
        try:
            save_collection(target, collection)
        except OSError as exc:
            self.show_error("Cannot write the collection", f"{target}: {exc.strerror or exc}")
            return None
        self.memory.used(target, self._profile_id())
        self.panel.open_file(target)
        self.show_panel()
        text = f"Wrote {len(collection.calls)} saved call(s) to {target}"
        if conversion.notes:
            text += f" ({len(conversion.notes)} note(s): {conversion.notes[0]})"
        self.show_message(text, 15000)
        return text

    def show_error(self, title: str, text: str) -> QMessageBox:
        self.message_box = open_warning(self.parent_widget, "collectionMessage", title, text)
        return self.message_box
