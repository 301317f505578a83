"""One tool call on screen: status, elapsed time, progress with its message, Cancel, and
the result once it comes.

A tool error (`isError: true`: the tool ran and failed, and says why for the model to read)
is amber; a JSON-RPC error (the call itself was refused: unknown tool, bad params, a crash)
is red, with the code and its meaning. structuredContent is shown as a tree, validated
against the tool's outputSchema and compared with the JSON text in content.
"""

from __future__ import annotations

import json
import time
from typing import Final

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.features.forms.fields import Path
from inspector.features.tool_calls import ToolCallRecord
from inspector.protocol.wire.jsonrpc import error_name
from inspector.ui.content.blocks_view import ContentBlocksView
from inspector.ui.content.json_tree_model import JsonTreeView
from inspector.ui.content.panes import TextPane
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip, short
from inspector.ui.widgets.theme import colors

__all__ = ["CallCard", "format_elapsed"]

_REPAINT_MS: Final = 50  # progress floods are coalesced to at most ~20 repaints a second


def format_elapsed(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} min {rest:02d} s"


class CallCard(QFrame):
    """A call card; it listens to its record (which lives on when the card is closed)."""

    read_resource_requested = Signal(str)
    reuse_requested = Signal(object)  # the arguments of this call, back into the form
    run_again_requested = Signal(object)  # the arguments of this call, to call it again
    close_requested = Signal(object)  # this card
    app_requested = Signal(object)  # this call's record, for the tool's App tab

    def __init__(
        self, record: ToolCallRecord, parent: QWidget | None = None, *, with_app: bool = False
    ) -> None:
        super().__init__(parent)
        self.record = record
        self.setObjectName("callCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 10)
        layout.setSpacing(6)

        header = QHBoxLayout()
        self.status_label = PlainLabel("")
        bold = self.status_label.font()
        bold.setBold(True)
        self.status_label.setFont(bold)
        header.addWidget(self.status_label)
        started = time.strftime("%H:%M:%S", time.localtime(record.started_wall))
        self.title_label = PlainLabel(f"#{record.serial} · {record.tool} · {started}")
        self.title_label.setStyleSheet(f"color: {colors().muted.name()};")
        header.addWidget(self.title_label)
        header.addStretch(1)
        self.elapsed_label = PlainLabel("")
        header.addWidget(self.elapsed_label)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Send notifications/cancelled for this call")
        self.cancel_button.clicked.connect(record.cancel)
        header.addWidget(self.cancel_button)
        self.reuse_button = QToolButton(self)
        self.reuse_button.setText("Reuse")
        self.reuse_button.setToolTip("Put this call's arguments back into the form")
        self.reuse_button.clicked.connect(lambda: self.reuse_requested.emit(record.arguments))
        header.addWidget(self.reuse_button)
        self.raw_button = QToolButton(self)
        self.raw_button.setText("Raw")
        self.raw_button.setCheckable(True)
        self.raw_button.setToolTip("Show the raw result JSON")
        self.raw_button.toggled.connect(self._toggle_raw)
        self.raw_button.setEnabled(False)
        header.addWidget(self.raw_button)
        self.app_button: QToolButton | None = None
        if with_app:  # the tool declares an MCP App: show this call in it
            self.app_button = QToolButton(self)
            self.app_button.setObjectName("showInAppButton")
            self.app_button.setText("Show in App")
            self.app_button.setToolTip("Render this call's input and result in the tool's app")
            self.app_button.clicked.connect(lambda: self.app_requested.emit(record))
            header.addWidget(self.app_button)
        close = QToolButton(self)
        close.setText("✕")
        close.setAutoRaise(True)
        close.setToolTip("Remove this card (a running call keeps running)")
        close.clicked.connect(lambda: self.close_requested.emit(self))
        header.addWidget(close)
        layout.addLayout(header)

        arguments = json.dumps(record.arguments, ensure_ascii=False)
        args_text = f"arguments {short(arguments, 160)}"
        if not record.validated_before_sending:
            args_text += "  · sent without validation (Send anyway)"
        if record.note:
            args_text += f"  · {record.note}"
        self.args_label = PlainLabel(args_text, wrap=True)
        self.args_label.setStyleSheet(f"color: {colors().muted.name()};")
        self.args_label.setToolTip(
            plain_tooltip(json.dumps(record.arguments, ensure_ascii=False, indent=2))
        )
        layout.addWidget(self.args_label)

        progress_row = QHBoxLayout()
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setRange(0, 0)  # busy until the server tells a total
        self.progress_bar.setTextVisible(True)
        self.progress_bar.setMaximumHeight(self.progress_bar.fontMetrics().height() + 8)
        progress_row.addWidget(self.progress_bar, 2)
        self.progress_label = PlainLabel("")
        self.progress_label.setStyleSheet(f"color: {colors().muted.name()};")
        progress_row.addWidget(self.progress_label, 3)
        layout.addLayout(progress_row)

        self.body = QVBoxLayout()
        self.body.setSpacing(6)
        layout.addLayout(self.body)
        self.raw_view: TextPane | None = None
        self.content_view: ContentBlocksView | None = None
        self.tree: JsonTreeView | None = None
        self.error_view: QWidget | None = None
        self.run_again_button: QPushButton | None = None
        self.validation_label = PlainLabel("", wrap=True)
        self.match_label = PlainLabel("", wrap=True)
        self.tool_error_label = PlainLabel("", wrap=True)

        self._dirty = False
        self._shown_result = False
        self._unsubscribe = record.on_change(self._on_record)
        self.destroyed.connect(lambda _obj=None, off=self._unsubscribe: off())
        self._refresh()

    # -- updates ---------------------------------------------------------------------
    def _on_record(self, _record: ToolCallRecord) -> None:
        if not self.record.running:
            self._refresh()
            return
        if not self._dirty:  # a progress flood: repaint at most every _REPAINT_MS
            self._dirty = True
            QTimer.singleShot(_REPAINT_MS, self._refresh)

    def tick(self) -> None:
        """Called by the view every few hundred ms while the call runs."""
        self.elapsed_label.setText(format_elapsed(self.record.elapsed()))

    def _refresh(self) -> None:
        self._dirty = False
        r = self.record
        self.tick()
        self._style_status()
        self.cancel_button.setVisible(r.running)
        fraction = r.fraction
        if r.running:
            if fraction is not None:
                self.progress_bar.setRange(0, 1000)
                self.progress_bar.setValue(round(fraction * 1000))
                self.progress_bar.setFormat(f"{r.progress:g} / {r.total:g}")
            elif r.progress is not None:
                self.progress_bar.setRange(0, 0)
                self.progress_bar.setFormat(f"{r.progress:g}")
        self.progress_bar.setVisible(r.running)
        message = r.progress_message or ""
        if r.running and r.progress_count and not message:
            message = f"{r.progress_count} progress notification(s)"
        if not r.running and r.progress_count:
            message = f"last progress: {message}" if message else ""
        self.progress_label.setText(short(message, 200))
        self.progress_label.setToolTip(plain_tooltip(r.progress_message or ""))
        self.progress_label.setVisible(bool(message))
        if not r.running and not self._shown_result:
            self._shown_result = True
            self._show_outcome()

    def _style_status(self) -> None:
        r = self.record
        c = colors()
        text, color, border = {
            "running": ("Running…", c.out, None),
            "ok": ("OK", c.ok, None),
            "tool_error": ("Tool error (isError)", c.warn, c.warn),
            "rpc_error": ("JSON-RPC error", c.error, c.error),
            "cancelled": ("Cancelled", c.muted, None),
            "timeout": ("Timed out", c.error, None),
            "failed": ("Failed", c.error, c.error),
        }[r.status]
        if r.task_id is not None:
            text = "Task created"
        self.status_label.setText(text)
        self.status_label.setStyleSheet(f"color: {color.name()};")
        edge = border.name() if border is not None else c.muted.name()
        width = 2 if border is not None else 1
        self.setStyleSheet(
            f"QFrame#callCard {{ border: {width}px solid {edge}; border-radius: 5px; }}"
        )

    # -- the outcome -----------------------------------------------------------------
    def _show_outcome(self) -> None:
        r = self.record
        self.raw_button.setEnabled(r.result is not None or r.status == "rpc_error")
        if r.status == "rpc_error":
            self._show_rpc_error()
            return
        if r.status in ("cancelled", "timeout", "failed"):
            label = PlainLabel(r.error_message, wrap=True)
            color = colors().muted if r.status == "cancelled" else colors().error
            label.setStyleSheet(f"color: {color.name()};")
            self.body.addWidget(label)
            self.error_view = label
            if r.not_sent_again:  # the server lost the session: the user decides
                self.run_again_button = QPushButton("Run again in the new session", self)
                self.run_again_button.setToolTip(
                    "The call may have run before the server lost the session; "
                    "call it again with the same arguments"
                )
                self.run_again_button.clicked.connect(
                    lambda: self.run_again_requested.emit(r.arguments)
                )
                self.body.addWidget(self.run_again_button)
            return
        if r.task_id is not None:
            note = PlainLabel(
                f"The server runs this call as task {r.task_id}: follow it in the Tasks panel.",
                wrap=True,
            )
            self.body.addWidget(note)
            self._toggle_raw(True)
            return
        check = r.check
        if check is None:
            return
        if check.is_error:
            self.tool_error_label.setText(
                "The tool reported an error (isError: true). The call itself succeeded; "
                "this text is what a model would read."
            )
            self.tool_error_label.setStyleSheet(f"color: {colors().warn.name()};")
            self.body.addWidget(self.tool_error_label)
        if check.problems:
            problems = PlainLabel("⚠ " + "; ".join(check.problems), wrap=True)
            problems.setStyleSheet(f"color: {colors().warn.name()};")
            self.body.addWidget(problems)
        self.content_view = ContentBlocksView(self)
        self.content_view.read_resource_requested.connect(self.read_resource_requested)
        self.content_view.set_blocks(check.content)
        self.body.addWidget(self.content_view)
        if check.has_structured or check.structured_errors:
            self._show_structured()

    def _show_structured(self) -> None:
        r = self.record
        check = r.check
        assert check is not None
        heading = PlainLabel("structuredContent")
        bold = heading.font()
        bold.setBold(True)
        heading.setFont(bold)
        self.body.addWidget(heading)
        c = colors()
        if check.schema_problem:
            text, color = f"⚠ not validated: {check.schema_problem}", c.warn
        elif check.structured_errors:
            n = len(check.structured_errors)
            lines = [f"✗ {n} problem{'s' if n != 1 else ''} against the outputSchema:"]
            lines += [f"  {short(str(e), 200)}" for e in check.structured_errors[:8]]
            text, color = "\n".join(lines), c.error
        elif r.output_schema is not None:
            text, color = "✓ valid against the outputSchema", c.ok
        else:
            text, color = "the tool declares no outputSchema: not validated", c.muted
        self.validation_label.setText(text)
        self.validation_label.setStyleSheet(f"color: {color.name()};")
        self.body.addWidget(self.validation_label)
        if check.content_match:
            mark = "✓" if check.content_match_ok else "⚠"
            self.match_label.setText(f"{mark} {check.content_match}")
            tone = c.ok if check.content_match_ok else c.warn
            self.match_label.setStyleSheet(f"color: {tone.name()};")
            self.body.addWidget(self.match_label)
        if check.has_structured:
            marks: dict[Path, list[str]] = {}
            for error in check.structured_errors:
                marks.setdefault(error.path, []).append(error.message)
            self.tree = JsonTreeView(self)
            self.tree.set_value(check.structured, marks)
            self.body.addWidget(self.tree)

    def _show_rpc_error(self) -> None:
        r = self.record
        box = QWidget(self)
        error = colors().error.name()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        code = r.error_code
        title = PlainLabel(f"code {code} · {error_name(code)}" if code is not None else "error")
        self.error_title_label = title
        title.setStyleSheet(f"color: {error}; font-weight: bold;")
        layout.addWidget(title)
        message = PlainLabel(r.error_message or "(no message)", wrap=True, selectable=True)
        layout.addWidget(message)
        explain = PlainLabel(
            "The server refused the call (a protocol error, not a tool result): "
            "no content was returned.",
            wrap=True,
        )
        explain.setStyleSheet(f"color: {colors().muted.name()};")
        layout.addWidget(explain)
        if r.error_data is not None:
            data = json.dumps(r.error_data, ensure_ascii=False, indent=2, default=repr)
            layout.addWidget(PlainLabel("data:"))
            layout.addWidget(TextPane(data, "application/json", box))
        self.body.addWidget(box)
        self.error_view = box

    def _toggle_raw(self, on: bool) -> None:
        if on and self.raw_view is None:
            r = self.record
            value: object = r.result
            if value is None:
                value = {"code": r.error_code, "message": r.error_message, "data": r.error_data}
            text = json.dumps(value, ensure_ascii=False, indent=2, default=repr)
            self.raw_view = TextPane(text, "application/json", self)
            self.body.addWidget(self.raw_view)
        if self.raw_view is not None:
            self.raw_view.setVisible(on)
        if self.raw_button.isChecked() != on:
            self.raw_button.setChecked(on)
