"""File ▸ Live Taps: the running taps (found through their owner-only files in the runtime
folder, `inspector.tap.registry`; no socket), and the main view following one of them.

A followed tap is shown in the read-only recorded-session view (`OfflineView`), over the
stores of a `SessionFollower` that grows as the tap's session file does: the traffic log
with pairing and latency, the explorer built from the lists the host asked for, the
server's stderr, the handshake. `LiveFollow` polls the file a few times a second and
updates what the stores do not update by themselves (console, server info, the banner).
When the tap's process is gone, the rest of the file is read and the view says the tap
ended; what is left is the session file, which opens offline like any other.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from typing import Final

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from inspector.recording.follow import SessionFollower
from inspector.recording.offline import OfflineSession
from inspector.recording.reader import SessionFileError
from inspector.recording.timeline import timeline_of
from inspector.tap.registry import TapEntry, list_taps
from inspector.ui.recording.offline_view import OfflineView
from inspector.ui.recording.session_files import SessionFiles
from inspector.ui.recording.timeline_panel import TimelinePanel
from inspector.ui.widgets.plain_text import plain_tooltip

__all__ = ["POLL_MS", "LiveFollow", "LiveTaps"]

POLL_MS: Final = 200
HEADER_WAIT: Final = 5.0
TIMELINE_EVERY: Final = 10  # polls between two rebuilds of the timeline (about 2 s)
_NO_TAPS: Final = "No running taps (start one: mcp-inspector-qt tap -- COMMAND)"


def _since(started: str) -> str:
    try:
        when = dt.datetime.fromisoformat(started)
    except ValueError:
        return started
    return when.astimezone().strftime("%H:%M:%S")


def entry_label(entry: TapEntry) -> str:
    return f"{entry.name} — pid {entry.pid}, since {_since(entry.started)}"


class LiveFollow(QObject):
    """Keeps an OfflineView in step with a growing session file."""

    def __init__(self, view: OfflineView, follower: SessionFollower, entry: TapEntry) -> None:
        super().__init__(view)
        self.view = view
        self.follower = follower
        self.entry = entry
        self.ended = False
        self._stderr_seen = len(view.offline.stderr)
        self._ready_shown = view.offline.ready is not None
        self._ticks = 0
        self._timeline_rows = len(view.offline.traffic)
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.tick)
        self._update_banner()
        self.timer.start()

    @property
    def offline(self) -> OfflineSession:
        return self.view.offline

    def tick(self) -> None:
        alive = self.entry.alive
        if alive:
            self.follower.poll()
        else:
            self.follower.finish()
        self._refresh()
        self._ticks += 1
        if not alive or self._ticks % TIMELINE_EVERY == 0:
            self._refresh_timeline()
        if not alive:
            self.ended = True
            self.timer.stop()
            self._update_banner()

    def _refresh(self) -> None:
        offline = self.offline
        view = self.view
        stderr = offline.stderr
        if len(stderr) > self._stderr_seen:
            for line in stderr[self._stderr_seen :]:
                view.console.append(line)
            self._stderr_seen = len(stderr)
        if not self._ready_shown and offline.ready is not None:
            view.server_panel.show_ready(offline.ready)
            self._ready_shown = True
        tabs = view.bottom
        tabs.setTabText(1, f"Server console ({len(stderr)})")
        tabs.setTabText(2, f"Notifications ({len(offline.messages)})")
        errors = len(offline.errors)
        tabs.setTabText(3, f"Errors ({errors})" if errors else "Errors")
        self._update_banner()

    def _refresh_timeline(self) -> None:
        """The timeline summarises the whole file: rebuilt now and then, not per frame."""
        rows = len(self.offline.traffic)
        if rows == self._timeline_rows:
            return
        self._timeline_rows = rows
        view = self.view
        tabs = view.bottom
        current = tabs.currentIndex()
        old = view.timeline_panel
        view.timeline = timeline_of(self.offline)
        view.timeline_panel = TimelinePanel(view.timeline, self.offline.actions)
        tabs.removeTab(0)
        tabs.insertTab(0, view.timeline_panel, "Timeline")
        tabs.setCurrentIndex(current)
        old.deleteLater()

    def _update_banner(self) -> None:
        banner = self.view.banner
        name = self.entry.name or self.offline.title
        rows = len(self.offline.traffic)
        if self.ended:
            banner.title.setText(f"Read-only: the tap of “{name}” ended")
            facts = [str(self.entry.session_file), f"{rows:,} rows", "its session file stays"]
        else:
            banner.title.setText(f"Live tap (read-only): the host's session with “{name}”")
            facts = [
                f"following {self.entry.session_file}",
                (
                    f"tap pid {self.entry.pid}, relaying to {self.entry.command}"
                    if self.entry.transport == "http"
                    else f"tap pid {self.entry.pid}, server pid {self.entry.server_pid}"
                ),
                f"{rows:,} rows",
                "the host talks to the server; nothing is sent from here",
            ]
        problem = self.follower.problem
        if problem:
            facts.append(f"⚠ {problem}")
        banner.detail.setText(" · ".join(facts))


class LiveTaps(QObject):
    """The File ▸ Live Taps menu and opening a tap in the main view."""

    def __init__(self, files: Callable[[], SessionFiles], parent: QWidget) -> None:
        """`files()`: the current tab's session files (a followed tap opens where their
        `target()` says: a tab of its own)."""
        super().__init__(parent)
        self._files = files
        self.menu = QMenu("Live &Taps", parent)
        self.menu.setObjectName("liveTapsMenu")
        self.menu.setToolTipsVisible(True)
        self.menu.aboutToShow.connect(self.fill)
        self.follow: LiveFollow | None = None
        self.fill()

    @property
    def files(self) -> SessionFiles:
        return self._files()

    def fill(self) -> list[TapEntry]:
        self.menu.clear()
        taps = list_taps()
        if not taps:
            empty = QAction(_NO_TAPS, self.menu)
            empty.setEnabled(False)
            self.menu.addAction(empty)
        for entry in taps:
            action = self.menu.addAction(entry_label(entry))
            command = " ".join([entry.command, *entry.args])
            action.setToolTip(plain_tooltip(f"{command}\nrecording to {entry.session_file}"))
            action.triggered.connect(lambda _c=False, e=entry: self.open(e))
        return taps

    def open(self, entry: TapEntry) -> asyncio.Task[object]:
        return self.files.controller.model.start(self._open(entry), f"follow tap {entry.name}")

    async def _open(self, entry: TapEntry) -> None:
        follower = SessionFollower(entry.session_file)
        # A tap that just started may not have written its header yet: wait a moment.
        deadline = asyncio.get_running_loop().time() + HEADER_WAIT
        try:
            while True:
                # The first read may be big (a tap running for hours): off the UI thread.
                await asyncio.to_thread(follower.poll)
                if follower.started or asyncio.get_running_loop().time() > deadline:
                    break
                await asyncio.sleep(0.1)
        except SessionFileError as exc:
            self.files.show_error("Cannot follow the tap", str(exc))
            return
        offline = follower.offline
        if offline is None:
            why = follower.problem or f"{entry.session_file} has no session header yet"
            self.files.show_error("Cannot follow the tap", why)
            return
        target = self.files.target()
        view = target.show_offline(offline)
        self.follow = LiveFollow(view, follower, entry)
        target.status_bar.showMessage(f"Following the tap of {entry.name} (read-only)", 8000)
