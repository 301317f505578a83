"""One saved call's result in the Collections panel: the headline (pass or fail, outcome,
time), each assertion with its message (the failed ones first), and for a failed snapshot
the snapshot and this run's result side by side with the changes listed (the replay's
diff view)."""

from __future__ import annotations

import json
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget

from inspector.collections.collection import InputSchemaAssertion, SavedCall, SnapshotAssertion
from inspector.collections.results import AssertionResult, CallResult
from inspector.ui.recording.diff_view import SideBySideView
from inspector.ui.widgets.code_view import code_view
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.split_panes import split_panes
from inspector.ui.widgets.theme import colors

__all__ = ["CallResultView", "assertion_lines"]

_REQUEST_LIMIT: Final = 20_000


def assertion_lines(result: CallResult) -> list[str]:
    """✗ lines for the failed assertions (with their first changes), then ✓ lines."""
    lines: list[str] = []
    if result.outcome.kind == "not-run":
        lines.append(f"✗ not run: {result.outcome.message}")
    if result.cancelled:
        lines.append(
            f"⊘ cancelled ({result.outcome.message or 'the run stopped'}): the request was "
            "cancelled, nothing was judged"
        )
    for failed in result.failures:
        if failed.changes:  # the changes are listed (and shown side by side) below
            count = len(failed.changes)
            lines.append(f"✗ {failed.label}: {count} change(s), listed under Drift")
        else:
            lines.append(f"✗ {failed.label}: {failed.message}")
    lines.extend(f"✓ {a.label}: {a.message}" for a in result.assertions if a.passed)
    lines.extend(f"note: {n}" for n in result.notes)
    return lines


def _failed_diff(result: CallResult) -> AssertionResult | None:
    return next(
        (
            a
            for a in result.failures
            if isinstance(a.assertion, SnapshotAssertion | InputSchemaAssertion)
        ),
        None,
    )


class CallResultView(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("collectionResult")
        self.headline = PlainLabel(wrap=True, selectable=True)
        self.headline.setObjectName("resultHeadline")
        font = self.headline.font()
        font.setBold(True)
        self.headline.setFont(font)
        self.assertions = code_view("assertionLines")
        self.assertions.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.diff = SideBySideView()
        self.diff.setObjectName("snapshotDiff")
        self.split = split_panes(
            Qt.Orientation.Vertical, [self.assertions, self.diff], stretch=(1, 3)
        )
        self.split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.headline)
        layout.addWidget(self.split, 1)
        self.show_nothing("Select a call to see its result.")

    def show_nothing(self, text: str) -> None:
        self.headline.setText(text)
        self.headline.setStyleSheet(f"color: {colors().muted.name()}")
        self.assertions.setPlainText("")
        self.diff.hide()

    def show_call(self, call: SavedCall, result: CallResult | None, stale: bool) -> None:
        """`stale`: the call changed in the file since `result` ran."""
        if result is None:
            self.headline.setText(f"{call.name}: not run yet ({call.method} {call.target})")
            self.headline.setStyleSheet(f"color: {colors().muted.name()}")
            lines = [f"• {a.describe()}" for a in call.assertions] or ["• outcome is ok"]
            request = json.dumps(call.params(), indent=2, ensure_ascii=False)
            if len(request) > _REQUEST_LIMIT:
                request = request[:_REQUEST_LIMIT] + "\n…"
            self.assertions.setPlainText(
                "Assertions:\n" + "\n".join(lines) + f"\n\n{call.method}:\n{request}"
            )
            self.diff.hide()
            return
        ms = f"{result.ms:.0f} ms" if result.ms is not None else "not sent"
        failures = len(result.failures)
        verdict = "✓ passed" if result.passed else f"✗ {failures} assertion(s) failed"
        if result.outcome.kind == "not-run":
            verdict = "✗ not run"
        if result.cancelled:
            verdict = "⊘ cancelled"
        text = f"{call.name}: {verdict} · outcome {result.outcome.describe()} · {ms}"
        if stale:
            text += " · the call changed in the file since this run"
        c = colors()
        self.headline.setText(text)
        color = c.ok if result.passed else c.error
        color = c.muted if stale or result.cancelled else color
        self.headline.setStyleSheet(f"color: {color.name()}")
        self.assertions.setPlainText("\n".join(assertion_lines(result)))
        failed = _failed_diff(result)
        if failed is None:
            self.diff.hide()
            return
        assertion = failed.assertion
        if isinstance(assertion, SnapshotAssertion):
            old, new = assertion.snapshot, result.result
            titles = ("Snapshot", "This run")
        else:
            assert isinstance(assertion, InputSchemaAssertion)
            tool = result.tool or {}
            old, new = assertion.schema, tool.get("inputSchema")
            titles = ("Saved inputSchema", "Listed now")
        self.diff.show_diff(
            old,
            new,
            list(failed.changes),
            left_title=titles[0],
            right_title=titles[1],
        )
        self.diff.show()
