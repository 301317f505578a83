"""Watch mode in the window: a toggle per connection (stdio: restart the server when its
files change; HTTP: re-run on demand), "Re-run now" (F5), the settings of the profile's
watch mode, the results strip under the connection bar and the results dialog.

Self-contained: it is given the connection's controller and what it shows things with
(the status bar, the Server console tab); the window places `menu` and `toolbar`. The
work is `inspector.watch.WatchSupervisor`'s, over the same ConnectionModel, so a restart
keeps the traffic log and the workspace, and marks itself in the log.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QToolBar, QWidget

from inspector.core.connection_state import ConnState
from inspector.core.server_connection import ServerConnection
from inspector.settings.profiles import Profile
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.watch.watch_dialogs import (
    WatchResultsDialog,
    WatchSettings,
    WatchSettingsDialog,
)
from inspector.ui.watch.watch_strip import WatchStrip
from inspector.ui.widgets.actions import make_action

if TYPE_CHECKING:  # the watch machinery (watchfiles, compare, collections) loads on first use
    from inspector.collections.results import CallResult
    from inspector.watch.report import RunReport
    from inspector.watch.supervisor import CollectionStep, WatchSupervisor

__all__ = ["WatchMode"]

TOGGLE_KEY = "Ctrl+Shift+W"
RERUN_KEY = "F5"


def _short(text: str, limit: int = 48) -> str:
    """A watched path for the strip: its tail when long (the tooltip has it all)."""
    return text if len(text) <= limit else "…" + text[-(limit - 1) :]


class WatchMode:
    def __init__(
        self,
        controller: ConnectionController,
        chosen_profile: Callable[[], Profile | None],
        settings: QSettings,
        show_message: Callable[[str, int], None],
        show_console: Callable[[], None],
        parent: QWidget,
        tab_collection: Callable[[], Path | None] | None = None,
        collection_ran: Callable[[Path, Sequence[CallResult]], object] | None = None,
    ) -> None:
        """`chosen_profile()`: the profile picked in the connection bar; `show_message`:
        the status bar; `show_console()`: brings the Server console tab forward (a start
        that failed); `parent`: the window its actions and dialogs belong to;
        `tab_collection()`: the collection file the tab has open (its Collections panel),
        asked at each run and re-run when the profile's watch settings name none (call
        `collection_opened` when it changes); `collection_ran(path, results)`: each run
        of a collection, for the panel to show."""
        self.tab_collection = tab_collection
        self.collection_ran = collection_ran
        self.controller = controller
        self.chosen_profile = chosen_profile
        self.settings = settings
        self.show_message = show_message
        self.show_console = show_console
        self.parent = parent
        self.supervisor: WatchSupervisor | None = None
        self._task: asyncio.Task[object] | None = None
        self._rerun_task: asyncio.Task[object] | None = None
        self.results: WatchResultsDialog | None = None
        self._watching = ""
        self.strip = WatchStrip()
        self.strip.details_requested.connect(self.show_results)
        self.toggle_action = self._action("&Watch mode", self._toggled, TOGGLE_KEY)
        self.toggle_action.setCheckable(True)
        self.toggle_action.setToolTip(
            "Restart the server when its files change, then show what changed (stdio servers)"
        )
        self.rerun_action = self._action("&Re-run now", self.rerun, RERUN_KEY)
        self.rerun_action.setToolTip("List the catalog again and re-run the collection")
        self.settings_action = self._action("Watch &settings…", self.open_settings)
        self.results_action = self._action("Watch r&esults…", self.show_results)
        self.menu = QMenu("&Watch", parent)
        self.menu.addActions([self.toggle_action, self.rerun_action])
        self.menu.addSeparator()
        self.menu.addActions([self.results_action, self.settings_action])
        self.toolbar = QToolBar("Watch mode")
        self.toolbar.setObjectName("watchToolbar")
        self.toolbar.setMovable(False)
        self.toolbar.addAction(self.toggle_action)
        self.toolbar.addAction(self.rerun_action)
        self.toolbar.addWidget(self.strip)
        self.toolbar.addAction(self.settings_action)
        # The row shows while watch mode is on or re-runs have results: the default layout
        # keeps its room for the workspace (the Watch menu is always there).
        self.toolbar.setVisible(False)
        controller.state_changed.connect(self._state_changed)
        controller.session_started.connect(self._session_started)
        self._state_changed(controller.model.state.value, "")

    def _action(self, text: str, slot: Callable[[], object], key: str | None = None) -> QAction:
        # Added to the window: the shortcut works with the menu bar hidden.
        return make_action(text, slot, self.parent, key, add_to_parent=True)

    # -- settings per profile ---------------------------------------------------------------
    def load_settings(self, profile: Profile) -> WatchSettings:
        raw = self.settings.value(f"watch/{profile.id}", "")
        try:
            data = json.loads(raw) if isinstance(raw, str) and raw else {}
            return WatchSettings(
                [str(p) for p in data.get("paths", [])],
                float(data.get("debounce", 0.5)),
                str(data.get("collection", "")),
            )
        except (ValueError, TypeError, AttributeError):
            return WatchSettings([])

    def save_settings(self, profile: Profile, value: WatchSettings) -> None:
        data = {"paths": value.paths, "debounce": value.debounce, "collection": value.collection}
        self.settings.setValue(f"watch/{profile.id}", json.dumps(data))

    def _profile(self) -> Profile | None:
        c = self.controller
        if c.model.profile is not None and c.model.state is not ConnState.DISCONNECTED:
            return c.model.profile
        return self.chosen_profile()

    def open_settings(self) -> None:
        profile = self._profile()
        if profile is None:
            self.show_message("Choose a server first: watch settings belong to its profile.", 6000)
            return
        from inspector.watch.target import watch_base

        base = watch_base(profile) if profile.transport == "stdio" else Path.cwd()
        dialog = WatchSettingsDialog(self.load_settings(profile), base, self.parent)
        dialog.setObjectName("watchSettings")
        dialog.accepted.connect(lambda: self._settings_saved(profile, dialog.value()))
        dialog.open()

    def _settings_saved(self, profile: Profile, value: WatchSettings) -> None:
        self.save_settings(profile, value)
        if self.supervisor is not None and self.toggle_action.isChecked():
            self.stop("")
            self.start()  # the new paths from now on

    # -- on and off -------------------------------------------------------------------------
    def _toggled(self) -> None:
        if self.toggle_action.isChecked():
            self.start()
        else:
            self.stop("Watch mode is off")

    def _uncheck(self, why: str) -> None:
        self.toggle_action.setChecked(False)
        self.show_message(why, 8000)

    def start(self) -> WatchSupervisor | None:
        """Turn watch mode on for the connected (else the chosen) profile."""
        from inspector.watch.changes import ChangeFeed
        from inspector.watch.paths import WatchSpecError
        from inspector.watch.supervisor import WatchOptions, WatchSupervisor
        from inspector.watch.target import spec_for

        c = self.controller
        profile = self._profile()
        if profile is None:
            self._uncheck("Choose a server first.")
            return None
        live = (
            c.model.connected and c.model.profile is not None and c.model.profile.id == profile.id
        )
        if profile.transport != "stdio" and not live:
            self._uncheck(
                "Watch mode restarts stdio servers. For an HTTP server, connect and "
                f"press {RERUN_KEY} (Re-run now) after each change."
            )
            return None
        value = self.load_settings(profile)
        step = self._collection(value)
        feed = None
        if profile.transport == "stdio":
            collection = self.collection_path(value)
            ignore = [collection] if collection is not None else []
            recording = c.model.recording
            if recording is not None:
                ignore.append(recording.recorder.folder())
            try:
                resolved = spec_for(profile, value.paths, ignore).resolve()
            except WatchSpecError as exc:
                self._uncheck(f"Watch mode: {exc}")
                return None
            feed = ChangeFeed(resolved, quiet=value.debounce)
            self._watching = _short(resolved.describe())
            self.strip.set_state(f"Watching {self._watching}")
        else:
            self.strip.set_state(f"Re-run with {RERUN_KEY}")
        self._drop()
        sup = WatchSupervisor(
            c.model,
            profile if feed is not None else None,
            feed=feed,
            collection=step,
            options=WatchOptions(quiet=value.debounce),
        )
        sup.reports.add(self._report)
        sup.status.add(self._status)
        self.supervisor = sup
        self.toggle_action.setChecked(True)
        self.toolbar.setVisible(True)
        self._task = c.model.start(sup.run(connect=not live), "watch mode")
        return sup

    def collection_path(self, value: WatchSettings) -> Path | None:
        """The collection to re-run: the profile's watch settings', else the tab's."""
        if value.collection:
            return Path(value.collection)
        return self.tab_collection() if self.tab_collection is not None else None

    def _collection(self, value: WatchSettings) -> CollectionStep | None:
        """The settings' collection file, else the one open in the tab at each run."""
        from inspector.watch.collection_step import (
            CollectionFileError,
            FileCollectionStep,
            OpenCollectionStep,
        )

        if not value.collection:
            if self.tab_collection is None:
                return None
            return OpenCollectionStep(self.tab_collection, on_results=self._collection_ran)
        try:
            return FileCollectionStep(Path(value.collection), on_results=self._collection_ran)
        except CollectionFileError as exc:
            self.show_message(f"Watch mode runs without its collection: {exc}", 12000)
            return None

    def _collection_ran(self, path: Path, results: Sequence[CallResult]) -> None:
        if self.collection_ran is not None:
            self.collection_ran(path, results)

    def collection_opened(self, path: Path) -> None:
        """The tab opened another collection: writing into it (a snapshot updated) never
        restarts the server; the next run runs it."""
        sup = self.supervisor
        if sup is not None and sup.feed is not None:
            sup.feed.watch = sup.feed.watch.ignoring(path)

    def stop(self, why: str) -> None:
        """Watch mode off (the connection stays as it is)."""
        self._drop()
        self.toggle_action.setChecked(False)
        self.strip.set_state(why or "Watch mode is off")
        self.strip.clear()
        self.toolbar.setVisible(False)
        if why:
            self.show_message(why, 6000)

    def _drop(self) -> None:
        if self.supervisor is not None:
            self.supervisor.halt()  # the watcher thread ends even if the loop stops now
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()  # its `finally` stops the file watcher
        self.supervisor = None

    # -- re-run on demand -------------------------------------------------------------------
    def rerun(self) -> None:
        """List and re-run on the live connection, no restart (any transport)."""
        c = self.controller
        if not c.model.connected:
            self.show_message("Re-run needs a connected server.", 5000)
            return
        sup = self.supervisor
        if sup is None:  # re-runs without watch mode keep their own history
            from inspector.watch.supervisor import WatchSupervisor

            sup = WatchSupervisor(c.model, None, collection=self._collection_of_current())
            sup.reports.add(self._report)
            sup.status.add(self._status)
            self.supervisor = sup
            self.strip.set_state(f"Re-run with {RERUN_KEY}")
        self.toolbar.setVisible(True)
        self._rerun_task = c.model.start(sup.rerun(), "watch re-run")

    def _collection_of_current(self) -> CollectionStep | None:
        profile = self.controller.model.profile
        return self._collection(self.load_settings(profile)) if profile is not None else None

    # -- what happens -----------------------------------------------------------------------
    def _report(self, report: RunReport) -> None:
        self.strip.show_report(report)
        if self.results is not None and self.results.isVisible() and self.supervisor is not None:
            self.results.set_reports(self.supervisor.history)
        if not report.ok:
            self.show_console()  # the server's stderr
        self.show_message(report.summary(), 10000)

    def _status(self, text: str) -> None:
        if self.supervisor is not None and self.supervisor.feed is not None:
            self.strip.set_state(f"Watching {self._watching}: {text}")

    def show_results(self) -> None:
        if self.results is None:
            self.results = WatchResultsDialog(self.parent)
        self.results.set_reports(self.supervisor.history if self.supervisor else [])
        self.results.show()
        self.results.raise_()

    def _state_changed(self, state_value: str, _detail: str) -> None:
        state = ConnState(state_value)
        self.rerun_action.setEnabled(state is ConnState.CONNECTED)
        sup = self.supervisor
        # Disconnected is never a restart's doing: the user, or the window closing.
        if state is ConnState.DISCONNECTED and sup is not None:
            if sup.feed is not None:
                self.stop("Watch mode is off: the server was disconnected.")
            else:
                self._drop()

    def _session_started(self, _session: ServerConnection) -> None:
        sup = self.supervisor
        profile = self.controller.model.profile
        if sup is None or sup.busy or profile is None:
            return
        watched = sup.profile
        if watched is not None and watched.id != profile.id:
            self.stop(f"Watch mode is off: {profile.name or 'another server'} was connected.")
        elif watched is None and sup.feed is None:
            self._drop()  # re-runs compare within one connection only
