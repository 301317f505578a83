"""The selected message in full: pretty (highlighted), raw, and details (parse error, raw
bytes, HTTP exchange). Only this one message is ever pretty-printed or highlighted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.lint.finding import Finding, LintStore, describe
from inspector.protocol.wire.jsonrpc import Request
from inspector.recording.request_to_cli import CliCommandError, cli_command_for
from inspector.traffic.format import DIRECTION_ARROWS, detail_text
from inspector.traffic.log import TrafficEntry
from inspector.ui.traffic.traffic_model import went_wrong
from inspector.ui.widgets.code_view import code_view
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.highlighter import JsonHighlighter
from inspector.ui.widgets.plain_text import plain_tooltip

__all__ = ["DetailPane"]

_PRETTY_LIMIT: Final = 1024 * 1024  # bigger messages are shown raw (head only)
_HIGHLIGHT_LIMIT: Final = 256 * 1024
_RAW_SHOWN: Final = 1024 * 1024
# The head of a message too big to pretty-print, in the Pretty tab: a megabyte on one line
# takes Qt about a second to lay out (a 10,000-tool listing is two).
_HEAD_SHOWN: Final = 64 * 1024


def _text_view() -> QPlainTextEdit:
    """A code view the keyboard can select in too (to copy part of a message)."""
    view = code_view()
    view.setTextInteractionFlags(
        Qt.TextInteractionFlag.TextSelectableByMouse
        | Qt.TextInteractionFlag.TextSelectableByKeyboard
    )
    return view


class DetailPane(QWidget):
    jump_to_pair = Signal(int)  # the traffic index of the partner
    conversation_requested = Signal(int)  # show every round of this entry's request
    notice = Signal(str)  # what a button did ("Copied …"), for the status bar

    def __init__(self) -> None:
        super().__init__()
        self.entry: TrafficEntry | None = None
        self._connection: dict[str, Any] | None = None  # a recorded connection (header form)
        self._era = "legacy"
        self.cli_problem = ""  # why the selected message cannot be a CLI command
        self._pair_of: Callable[[TrafficEntry], TrafficEntry | None] | None = None
        self.header = ElidedLabel("Select a message to see it in full.")
        self.pair_button = QPushButton("Jump to pair")
        self.pair_button.setToolTip("Select the request or response this message pairs with")
        self.copy_json_button = QPushButton("Copy JSON")
        self.copy_cli_button = QPushButton("Copy CLI")
        self.copy_cli_button.setToolTip("A mcp-inspector-qt cli command that re-sends this request")
        self.pair_button.clicked.connect(self._jump)
        self.conversation_button = QPushButton("Show conversation")
        self.conversation_button.setToolTip(
            "Every round of this request (MRTR retries) in one window"
        )
        self.conversation_button.clicked.connect(self._conversation)
        self.conversation_button.hide()
        self._conversation_of: Callable[[int], list[int]] | None = None
        self._operation_of: Callable[[int], str] | None = None
        self.copy_json_button.clicked.connect(self.copy_json)
        self.copy_cli_button.clicked.connect(self.copy_cli)
        buttons = QHBoxLayout()
        for button in (
            self.pair_button,
            self.conversation_button,
            self.copy_json_button,
            self.copy_cli_button,
        ):
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.feedback = ElidedLabel()  # what the last button did, next to the buttons
        self.feedback.setObjectName("detailFeedback")
        self._feedback_timer = QTimer(self)
        self._feedback_timer.setSingleShot(True)
        self._feedback_timer.setInterval(6000)
        self._feedback_timer.timeout.connect(lambda: self.feedback.setText(""))
        self.pretty = _text_view()
        self.raw = _text_view()
        self.raw.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.details = _text_view()
        self.highlighter = JsonHighlighter(self.pretty.document())
        self.tabs = QTabWidget()
        self.tabs.addTab(self.pretty, "Pretty")
        self.tabs.addTab(self.raw, "Raw")
        self._raw_shown = True
        self.tabs.currentChanged.connect(lambda _index: self._fill_raw())
        self.tabs.addTab(self.details, "Details")
        self.lint_view = _text_view()
        self.lint_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._lint: LintStore | None = None
        self._lint_now: Callable[[int], None] | None = None
        self._shown_busy = False  # the Lint tab shows a big listing's lint in progress
        # ... and follows it a few times a second (not after every slice of it)
        self._lint_timer = QTimer(self)
        self._lint_timer.setSingleShot(True)
        self._lint_timer.setInterval(250)
        self._lint_timer.timeout.connect(lambda: self._show_lint(self.entry))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addLayout(buttons)
        layout.addWidget(self.feedback)
        layout.addWidget(self.tabs, 1)
        self.show_entry(None)

    def set_lint(self, store: LintStore, lint_now: Callable[[int], None] | None = None) -> None:
        """Show the lint findings of the selected message in a Lint tab; `lint_now(index)`
        lints a huge message that was left for when it is viewed."""
        self._lint, self._lint_now = store, lint_now
        if self.tabs.indexOf(self.lint_view) < 0:
            self.tabs.addTab(self.lint_view, "Lint")
        store.on_add(self._linted)
        store.on_change(self._lint_moved)
        store.on_clear(lambda: self._show_lint(self.entry))

    def _linted(self, findings: list[Finding]) -> None:
        entry = self.entry
        if entry is not None and any(f.index == entry.index for f in findings):
            if self._lint is not None and entry.index in self._lint.progress:
                self._lint_moved()  # more to come: followed a few times a second
                return
            self._show_lint(entry)
            self.header.setText(self._headline(entry))

    def _lint_moved(self) -> None:
        """A big listing's lint moved on: the shown row's progress (or its end) shows."""
        store, entry = self._lint, self.entry
        if store is not None and entry is not None:
            if entry.index in store.progress:
                if not self._lint_timer.isActive():
                    self._lint_timer.start()
            elif self._shown_busy:  # done: the findings show at once
                self._show_lint(entry)

    def _show_lint(self, entry: TrafficEntry | None) -> None:
        store = self._lint
        if store is None:
            return
        if entry is not None and entry.index in store.deferred and self._lint_now is not None:
            self._lint_now(entry.index)  # a huge message, linted now that it is looked at
        found = store.at(entry.index) if entry is not None else []
        busy = store.progress_text(entry.index) if entry is not None else ""
        self._shown_busy = bool(busy)
        index = self.tabs.indexOf(self.lint_view)
        self.tabs.setTabText(index, f"Lint ({len(found)})" if found else "Lint")
        if entry is None:
            self.lint_view.setPlainText("")
        elif busy:
            so_far = f"{len(found):,} finding(s) so far." if found else "No findings so far."
            text = f"Still {busy} {so_far}"
            self.lint_view.setPlainText(text + ("\n\n" + describe(found) if found else ""))
        elif found:
            self.lint_view.setPlainText(describe(found))
        elif entry.direction == "in" and entry.index in store.deferred:
            self.lint_view.setPlainText("Not linted yet (a huge message).")
        else:
            self.lint_view.setPlainText(
                "No lint findings."
                if entry.direction == "in"
                else "Only the server's messages are linted."
            )

    def set_target(self, argv: list[str] | None, url: str | None, era: str) -> None:
        """What "copy as CLI command" should point at: a command line or a URL."""
        if url:
            connection: dict[str, Any] | None = {"transport": "http", "url": url}
        elif argv:
            connection = {"transport": "stdio", "command": argv[0], "args": argv[1:]}
        else:
            connection = None
        self.set_connection(connection, era)

    def set_connection(self, connection: dict[str, Any] | None, era: str) -> None:
        """The server "copy as CLI command" points at, as a recorded connection (command,
        args, env, cwd; or url and header names: `recording.redaction.connection_for_profile`),
        so secret values become shell variables and never reach the clipboard."""
        self._connection, self._era = connection, era
        self._update_buttons()

    def show_entry(self, entry: TrafficEntry | None) -> None:
        self.entry = entry
        if entry is None:
            self.header.setText("Select a message to see it in full.")
            for view in (self.pretty, self.raw, self.details):
                view.setPlainText("")
            self._show_lint(None)
            self._update_buttons()
            return
        self.header.setText(self._headline(entry))
        size = len(entry.raw)
        if size <= _PRETTY_LIMIT:
            pretty = entry.pretty()
        else:
            pretty = (
                f"(too big to pretty-print: {entry.size:,} bytes; the raw head follows, "
                "the Raw tab has more)\n" + entry.text()[:_HEAD_SHOWN] + "\n…"
            )
        # Highlight small documents only; the highlighter runs per block on the GUI thread.
        self.highlighter.setDocument(self.pretty.document() if size <= _HIGHLIGHT_LIMIT else None)
        self.pretty.setPlainText(pretty)
        self._raw_shown = False  # filled when its tab is shown (a long line is slow to lay out)
        if self.tabs.currentWidget() is not self.raw:
            self.raw.clear()
        self._fill_raw()
        self.details.setPlainText(detail_text(entry))
        self._show_lint(entry)
        self.header.setText(self._headline(entry))
        if entry.kind == "invalid":
            self.tabs.setCurrentWidget(self.details)
        self._update_buttons()

    def _fill_raw(self) -> None:
        if self._raw_shown or self.tabs.currentWidget() is not self.raw:
            return
        self._raw_shown = True
        raw = self.entry.text() if self.entry is not None else ""
        self.raw.setPlainText(raw if len(raw) <= _RAW_SHOWN else raw[:_RAW_SHOWN] + "\n…")

    def _headline(self, entry: TrafficEntry) -> str:
        arrow = DIRECTION_ARROWS.get(entry.direction, "")
        parts = [f"#{entry.index}", arrow, entry.kind]
        if entry.method:
            parts.append(entry.method)
        if entry.msg_id is not None:
            parts.append(f"id {entry.msg_id!r}")
        if entry.latency is not None:
            parts.append(f"{entry.latency * 1000:.1f} ms")
        line = " ".join(p for p in parts if p)
        if entry.note:
            line += f"\n{'⚠' if went_wrong(entry) else 'ℹ'} {entry.note}"
        operation = self._operation_of(entry.index) if self._operation_of is not None else ""
        if operation:
            line += f"\n⟳ {operation}"
        found = self._lint.at(entry.index) if self._lint is not None else []
        if found:
            rules = ", ".join(dict.fromkeys(f.rule for f in found))
            line += f"\n⚑ {len(found)} lint finding(s): {rules} (see the Lint tab)"
        return line

    def _update_buttons(self) -> None:
        entry = self.entry
        self.pair_button.setEnabled(entry is not None and entry.pair >= 0)
        self.copy_json_button.setEnabled(entry is not None)
        self.copy_cli_button.setEnabled(entry is not None and self.cli_text() is not None)
        self.copy_cli_button.setToolTip(
            plain_tooltip(
                f"Not as a CLI command: {self.cli_problem}"
                if self.cli_problem
                else "A mcp-inspector-qt cli command that re-sends this request"
            )
        )
        lookup = self._conversation_of
        self.conversation_button.setVisible(
            entry is not None and lookup is not None and bool(lookup(entry.index))
        )

    def set_conversation_lookup(self, lookup: Callable[[int], list[int]] | None) -> None:
        """`lookup(index)`: the entries of the conversation `index` belongs to ([] if none)."""
        self._conversation_of = lookup
        self._update_buttons()

    def set_operation_lookup(self, lookup: Callable[[int], str] | None) -> None:
        """`lookup(index)`: a line on the operation `index` is a round of (its rounds, whole
        duration, server and user times), "" when it is a single round."""
        self._operation_of = lookup

    def _conversation(self) -> None:
        if self.entry is not None:
            self.conversation_requested.emit(self.entry.index)

    def say(self, text: str) -> None:
        """Tell the user what just happened (here and in the status bar)."""
        self.feedback.setText(text)
        self._feedback_timer.start()
        self.notice.emit(text)

    def _jump(self) -> None:
        if self.entry is None:
            self.say("Select a message first.")
        elif self.entry.pair < 0:
            self.say(f"#{self.entry.index} has no pair (no request or response with its id).")
        else:
            self.jump_to_pair.emit(self.entry.pair)

    def set_pair_lookup(self, lookup: Callable[[TrafficEntry], TrafficEntry | None]) -> None:
        self._pair_of = lookup

    def cli_text(self) -> str | None:
        """The CLI command for the selected request, or for the request a response answers."""
        entry = self.entry
        self.cli_problem = ""
        if entry is None:
            return None
        if entry.kind != "request" and entry.pair >= 0 and self._pair_of is not None:
            entry = self._pair_of(entry)
            if entry is None:
                return None
        if entry.kind != "request" or entry.direction != "out" or self._connection is None:
            return None
        frame = entry.parse()
        if not isinstance(frame, Request):
            return None
        try:
            return cli_command_for(frame.method, frame.params, self._connection, era=self._era)
        except CliCommandError as exc:
            self.cli_problem = str(exc)
            return None

    def copy_json(self) -> None:
        if self.entry is None:
            self.say("Select a message to copy.")
            return
        text = self.entry.pretty() if len(self.entry.raw) <= _PRETTY_LIMIT else self.entry.text()
        QGuiApplication.clipboard().setText(text)
        self.say(f"Copied #{self.entry.index} as JSON ({len(text):,} characters).")

    def copy_cli(self) -> None:
        text = self.cli_text()
        if text is None:
            why = self.cli_problem or "only a request this client sent can be re-sent"
            self.say(f"Not copied as a CLI command: {why}.")
            return
        QGuiApplication.clipboard().setText(text)
        self.say("Copied the CLI command that re-sends this request.")
