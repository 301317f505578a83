"""The replay window: replay a recorded session against a server, then read the drift.

Where: a saved profile, a command or URL the user types, or the command recorded in the
file, which may come from someone else: it runs only after a confirmation that shows the
exact command, its folder and its environment (DESIGN.md, Security). Then a progress bar,
and per request a side-by-side diff of the recorded and the new answer, the handshake
drift, a summary, and "Save report…" (the JSON of `replay --report`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QCloseEvent, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from inspector.core.replays import connect_and_replay
from inspector.core.server_connection import ConnectError, ServerConnection
from inspector.recording.diff import DEFAULT_IGNORES, IgnoreRules
from inspector.recording.reader import RecordedSession
from inspector.recording.replay import CallOutcome, ReplayReport, extract_calls
from inspector.recording.replay_target import (
    ReplayTarget,
    recorded_target,
    target_for_profile,
    target_from_text,
)
from inspector.settings.profiles import Profile
from inspector.storage.secrets import SecretStore
from inspector.transports.base import TransportError
from inspector.ui.recording.diff_view import SideBySideView
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.screen_fit import fit_to_screen
from inspector.ui.widgets.split_panes import split_panes
from inspector.ui.widgets.theme import colors

__all__ = ["ReplayWindow"]

log = logging.getLogger(__name__)

_OUTCOME_ROLE: Final = Qt.ItemDataRole.UserRole + 1
_HANDSHAKE: Final = "handshake"
_STATUS_TEXT: Final = {
    "same": "same",
    "drift": "DRIFT",
    "now-fails": "now fails",
    "newly-succeeds": "newly succeeds",
    "error-changed": "error changed",
    "breaks-schema": "breaks its outputSchema",
    "skipped": "skipped",
}


class ReplayWindow(QWidget):
    def __init__(
        self,
        recorded: RecordedSession,
        profiles: list[Profile],
        secrets: SecretStore | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("replayWindow")
        self.setWindowTitle(f"Replay — {recorded.path.name}")
        self.recorded = recorded
        self.profiles = profiles
        self.secrets = secrets
        self.task: asyncio.Task[None] | None = None
        self.report: ReplayReport | None = None
        self.target: ReplayTarget | None = None
        self.new_ready: dict[str, Any] | None = None
        self.confirm_box: QMessageBox | None = None
        self.total = len(extract_calls(recorded))
        self._build()
        fit_to_screen(self, 1180, 760)

    # ---------------------------------------------------------------- building
    def _build(self) -> None:
        source = PlainLabel(
            f"{self.recorded.path}\n{self.total} request(s) to re-send; "
            f"the server's asks are answered with the recorded answers.",
            selectable=True,
            wrap=True,  # a long path must not widen the window past the screen
        )

        # A long path or command (one unbreakable word) must not widen the window past the
        # screen: these labels take the width they are given; the full text is selectable.
        source.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.group = QButtonGroup(self)
        self.use_profile = QRadioButton("A saved profile:")
        self.profile_combo = QComboBox()
        # Long profile names and commands must not squeeze the ignore list.
        self.profile_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.profile_combo.setMinimumContentsLength(12)
        for profile in self.profiles:
            self.profile_combo.addItem(f"{profile.name} — {profile.target}", profile.id)
        self.use_typed = QRadioButton("This command or URL:")
        self.typed = QLineEdit()
        self.typed.setObjectName("replayTyped")
        self.typed.setPlaceholderText(
            "e.g. node dist/index.js stdio   or   http://127.0.0.1:3001/mcp"
        )
        self.use_recorded = QRadioButton("The command recorded in the file:")
        self.recorded_label = PlainLabel(wrap=True, selectable=True)
        try:
            shown = recorded_target(self.recorded).describe()
            self.recorded_label.setText(f"{shown}\n(asks for confirmation before it runs)")
        except (ValueError, TransportError) as exc:
            self.recorded_label.setText(f"not usable: {exc}")
            self.use_recorded.setEnabled(False)
        self.recorded_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.recorded_label.setToolTip(plain_tooltip(self.recorded_label.text()))
        for i, button in enumerate((self.use_profile, self.use_typed, self.use_recorded)):
            self.group.addButton(button, i)
        grid = QGridLayout()
        grid.addWidget(self.use_profile, 0, 0)
        grid.addWidget(self.profile_combo, 0, 1)
        grid.addWidget(self.use_typed, 1, 0)
        grid.addWidget(self.typed, 1, 1)
        grid.addWidget(self.use_recorded, 2, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.recorded_label, 2, 1, Qt.AlignmentFlag.AlignTop)
        grid.setColumnStretch(1, 1)
        target_box = QGroupBox("Replay against")
        target_box.setLayout(grid)
        self._default_target()
        self.typed.textEdited.connect(lambda _t: self.use_typed.setChecked(True))
        self.profile_combo.activated.connect(lambda _i: self.use_profile.setChecked(True))

        self.ignores = QListWidget()
        self.ignores.setObjectName("ignorePaths")
        self.ignores.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.reset_ignores()
        add = QPushButton("Add")
        add.clicked.connect(self._add_ignore)
        remove = QPushButton("Remove")
        remove.clicked.connect(self._remove_ignore)
        defaults = QPushButton("Defaults")
        defaults.clicked.connect(self.reset_ignores)
        ignore_buttons = QVBoxLayout()
        for b in (add, remove, defaults):
            ignore_buttons.addWidget(b)
        ignore_buttons.addStretch(1)
        ignore_row = QHBoxLayout()
        ignore_row.addWidget(self.ignores, 1)
        ignore_row.addLayout(ignore_buttons)
        ignore_help = PlainLabel(
            "JSON Pointers into each result not compared: * is one segment, ** any number; "
            "list items by name=…, uri=…. Double-click to edit.",
            wrap=True,
        )
        ignore_box = QGroupBox("Ignore paths")
        ignore_layout = QVBoxLayout(ignore_box)
        ignore_layout.addLayout(ignore_row)
        ignore_layout.addWidget(ignore_help)
        self.ignores.setMaximumHeight(self.ignores.sizeHintForRow(0) * 7 + 8)
        # Wide enough to read a pattern such as /result/content/*/annotations/lastModified.
        self.ignores.setMinimumWidth(self.ignores.fontMetrics().horizontalAdvance("x" * 30))

        self.start_button = QPushButton("Replay")
        self.start_button.setObjectName("replayStart")
        self.start_button.setDefault(True)
        self.start_button.clicked.connect(self.start_clicked)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        self.save_button = QPushButton("Save report…")
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(self._save_clicked)
        self.progress = QProgressBar()
        self.progress.setRange(0, max(1, self.total))
        self.progress.setValue(0)
        self.progress.setFormat("%v / %m requests")
        self.status = PlainLabel("Choose where to replay, then Replay.", wrap=True)
        self.status.setObjectName("replayStatus")
        run_row = QHBoxLayout()
        run_row.addWidget(self.start_button)
        run_row.addWidget(self.stop_button)
        run_row.addWidget(self.progress, 1)
        run_row.addWidget(self.save_button)
        self.close_button = QPushButton("Close")
        self.close_button.setToolTip("Close this window (Esc); a replay running stops")
        self.close_button.clicked.connect(self.close)
        run_row.addWidget(self.close_button)

        self.results = QListWidget()
        self.results.setObjectName("replayResults")
        self.results.currentItemChanged.connect(self._result_selected)
        self.diff = SideBySideView()
        split = split_panes(
            Qt.Orientation.Horizontal, [self.results, self.diff], stretch=(1, 3), sizes=(300, 880)
        )

        top = QHBoxLayout()
        top.addWidget(target_box, 3)
        top.addWidget(ignore_box, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(source)
        layout.addLayout(top)
        layout.addLayout(run_row)
        layout.addWidget(self.status)
        layout.addWidget(split, 1)

    def _default_target(self) -> None:
        """A profile of the same name if there is one, else a typed target. Never the
        recorded command: it takes an explicit choice (and a confirmation)."""
        name = self.recorded.connection.get("name")
        index = next(
            (i for i, p in enumerate(self.profiles) if isinstance(name, str) and p.name == name),
            -1,
        )
        if index >= 0:
            self.profile_combo.setCurrentIndex(index)
            self.use_profile.setChecked(True)
        else:
            self.use_typed.setChecked(True)
        self.use_profile.setEnabled(bool(self.profiles))
        self.profile_combo.setEnabled(bool(self.profiles))

    # ---------------------------------------------------------------- ignore paths
    def reset_ignores(self) -> None:
        self.ignores.clear()
        for pattern in DEFAULT_IGNORES:
            self._ignore_item(pattern)

    def _ignore_item(self, pattern: str) -> QListWidgetItem:
        item = QListWidgetItem(pattern)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self.ignores.addItem(item)
        return item

    def _add_ignore(self) -> None:
        item = self._ignore_item("/")
        self.ignores.setCurrentItem(item)
        self.ignores.editItem(item)

    def _remove_ignore(self) -> None:
        for item in self.ignores.selectedItems():
            self.ignores.takeItem(self.ignores.row(item))

    def ignore_patterns(self) -> list[str]:
        items = (self.ignores.item(i) for i in range(self.ignores.count()))
        return [text for item in items if item is not None and (text := item.text().strip())]

    def set_ignore_patterns(self, patterns: list[str]) -> None:
        self.ignores.clear()
        for pattern in patterns:
            self._ignore_item(pattern)

    # ---------------------------------------------------------------- starting
    def chosen_target(self) -> ReplayTarget:
        """The target as chosen. Raises ValueError (or TransportError) with a sentence."""
        if self.use_recorded.isChecked():
            return recorded_target(self.recorded)
        if self.use_profile.isChecked():
            profile_id = self.profile_combo.currentData()
            profile = next((p for p in self.profiles if p.id == profile_id), None)
            if profile is None:
                raise ValueError("choose a profile")
            return target_for_profile(profile, self.secrets)
        return target_from_text(self.typed.text())

    def start_clicked(self) -> None:
        if self.running:
            return
        try:
            rules = IgnoreRules(self.ignore_patterns())
            target = self.chosen_target()
        except (ValueError, TransportError) as exc:
            self._say(f"Cannot replay: {exc}", error=True)
            return
        if self.use_recorded.isChecked():
            self._confirm(target, rules)
        else:
            self.start(target, rules)

    def _confirm(self, target: ReplayTarget, rules: IgnoreRules) -> None:
        box = QMessageBox(self)
        box.setObjectName("confirmRecordedCommand")
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Run the recorded command?")
        box.setTextFormat(Qt.TextFormat.PlainText)
        if target.kind == "stdio":
            where = target.cwd or f"{Path.cwd()} (the app's current folder)"
            env = "\n".join(f"  {k}={v}" for k, v in target.env.items()) or "  (none)"
            words = "\n".join(f"  {word}" for word in target.argv[1:]) or "  (none)"
            box.setText(
                "The session file asks to start this command on your computer:\n\n"
                f"{target.describe()}\n\n"
                f"program: {target.argv[0]}\narguments, one per line:\n{words}\n"
                f"in the folder: {where}\n"
                f"environment set by the file (besides PATH, HOME and the like):\n{env}"
            )
        else:
            box.setText(f"The session file asks to connect to:\n\n{target.describe()}")
        box.setInformativeText(
            "A session file may come from someone else. Run it only if you trust the command."
        )
        run = box.addButton("Run it", QMessageBox.ButtonRole.AcceptRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)

        def done(_result: int) -> None:
            self.confirm_box = None
            if box.clickedButton() is run:
                self.start(target, rules)
            else:
                self._say("The recorded command was not run.")

        box.finished.connect(done)
        self.confirm_box = box
        box.open()

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def start(self, target: ReplayTarget, rules: IgnoreRules) -> asyncio.Task[None]:
        self.target = target
        self.report = None
        self.new_ready = None
        self.results.clear()
        self.diff.clear()
        self.progress.setValue(0)
        self.start_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.save_button.setEnabled(False)
        self._say(f"Connecting to {target.describe()}…")
        self.task = asyncio.get_running_loop().create_task(self._run(target, rules), name="replay")
        return self.task

    def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()

    async def _run(self, target: ReplayTarget, rules: IgnoreRules) -> None:
        def on_session(session: ServerConnection) -> None:
            def seen(item: object) -> None:
                ready = session.ready_info
                if ready is not None and self.new_ready is None:
                    self.new_ready = {
                        "capabilities": ready.capabilities,
                        "serverInfo": ready.server_info,
                    }
                    self._say(f"Connected; replaying {self.total} request(s)…")

            session.add_listener(seen)

        try:
            report = await connect_and_replay(
                self.recorded,
                target.transport(),
                ignore=rules,
                timeout=30.0,
                on_progress=self._progress,
                on_session=on_session,
            )
        except asyncio.CancelledError:
            self._finished()
            self._say("Stopped.", error=True)
            raise
        except (ConnectError, TransportError, OSError) as exc:
            self._finished()
            self._say(f"Could not connect: {exc}", error=True)
            return
        except Exception as exc:  # a replay bug must not take the window down
            log.exception("replay failed")
            self._finished()
            self._say(f"The replay failed: {exc!r}", error=True)
            return
        for note in target.notes:
            report.problems.append(note)
        self.report = report
        self._finished()
        self._show_report(report)

    def _finished(self) -> None:
        self.start_button.setEnabled(True)
        self.stop_button.setEnabled(False)

    # ---------------------------------------------------------------- results
    def _progress(self, done: int, total: int, outcome: CallOutcome) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)
        self._add_outcome(outcome)
        self._say(f"[{done}/{total}] {outcome.call.label}: {_STATUS_TEXT[outcome.status]}")

    def _add_outcome(self, outcome: CallOutcome) -> QListWidgetItem:
        text = f"{outcome.call.label} — {_STATUS_TEXT[outcome.status]}"
        if outcome.changes:
            text += f" ({len(outcome.changes)})"
        item = QListWidgetItem(text)
        item.setData(_OUTCOME_ROLE, outcome)
        c = colors()
        if outcome.status in (
            "drift",
            "now-fails",
            "newly-succeeds",
            "error-changed",
            "breaks-schema",
        ):
            item.setForeground(QBrush(c.error))
        elif outcome.status == "skipped":
            item.setForeground(QBrush(c.muted))
        self.results.addItem(item)
        return item

    def _show_report(self, report: ReplayReport) -> None:
        c = colors()
        changes = report.handshake_changes
        head = QListWidgetItem(
            "Handshake (capabilities, serverInfo) — "
            + (f"DRIFT ({len(changes)})" if changes else "same")
        )
        head.setData(_OUTCOME_ROLE, _HANDSHAKE)
        if changes:
            head.setForeground(QBrush(c.error))
        self.results.insertItem(0, head)
        first_drift = next(
            (
                i
                for i in range(self.results.count())
                if (it := self.results.item(i)) is not None and it.foreground().color() == c.error
            ),
            0,
        )
        self.results.setCurrentRow(first_drift)
        lines = report.summary().splitlines()
        summary = f"{lines[0]}  —  {report.verdict}"
        notes = [line for line in lines if line.startswith("note:")]
        self._say("\n".join([summary, *notes]), error=report.drifted)
        self.save_button.setEnabled(True)

    def _result_selected(self, current: QListWidgetItem | None, _prev: object) -> None:
        data = current.data(_OUTCOME_ROLE) if current is not None else None
        if data == _HANDSHAKE and self.report is not None:
            ready = self.recorded.ready or {}
            old = {
                "capabilities": ready.get("capabilities"),
                "serverInfo": ready.get("server_info"),
            }
            self.diff.show_diff(
                old,
                self.new_ready,
                self.report.handshake_changes,
                message="The initialize / server/discover result: capabilities and serverInfo.",
            )
        elif isinstance(data, CallOutcome):
            self._show_outcome(data)
        else:
            self.diff.clear()

    def _show_outcome(self, outcome: CallOutcome) -> None:
        call = outcome.call
        old: Any = call.result if call.result is not None else {"error": call.error}
        new: Any = outcome.new_result
        if new is None and outcome.new_error is not None:
            new = {"error": outcome.new_error}
        params = json.dumps(call.params or {}, ensure_ascii=False)
        message = f"{call.label}: {_STATUS_TEXT[outcome.status]}  params {params[:300]}"
        if outcome.message:
            message += f"\n{outcome.message}"
        self.diff.show_diff(old, new, outcome.changes, message=message)

    def _say(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(f"color: {colors().error.name()}" if error else "")

    # ---------------------------------------------------------------- report
    def report_json(self) -> dict[str, Any]:
        assert self.report is not None
        data = self.report.to_dict()
        data["file"] = str(self.recorded.path)
        data["target"] = self.target.describe() if self.target is not None else None
        data["ignore"] = self.ignore_patterns()
        return data

    def save_report(self, path: Path) -> None:
        path.write_text(json.dumps(self.report_json(), indent=2, default=str), encoding="utf-8")

    def _save_clicked(self) -> None:
        if self.report is None:
            return
        suggested = str(self.recorded.path.with_suffix(".replay.json"))
        name, _ = QFileDialog.getSaveFileName(
            self, "Save replay report", suggested, "JSON (*.json)"
        )
        if not name:
            return
        try:
            self.save_report(Path(name))
        except OSError as exc:
            self._say(f"Could not save the report: {exc}", error=True)
            return
        self._say(f"Saved the report to {name}")

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Esc closes the window (unless a field or a list open in it took the key)."""
        if event.key() == Qt.Key.Key_Escape and event.modifiers() == Qt.KeyboardModifier.NoModifier:
            self.close()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Stop the replay (its task closes the server), then go away once it has."""
        task = self.task
        self.stop()
        if task is not None and not task.done():
            task.add_done_callback(lambda _t: self.deleteLater())
        else:
            self.deleteLater()
        super().closeEvent(event)
