""" "Run on both": a tool call, resource read or prompt get, its arguments entered once (as
JSON), sent to both servers at once; the two answers side by side with their semantic
diff (the replay diff's view and its volatile ignore paths). Each side's outcome is said
on its own line, so a side that fails never hides the other's answer."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any, Final

from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.compare import BothResult, RunKind, run_on_both
from inspector.session import Session
from inspector.ui.recording.diff_view import SideBySideView
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["RunBothPanel", "argument_skeleton"]

log = logging.getLogger(__name__)

SessionPair = Callable[[], tuple[Session | None, Session | None]]
_KINDS: Final[list[tuple[RunKind, str]]] = [
    ("tool", "Tool call"),
    ("resource", "Resource read"),
    ("prompt", "Prompt get"),
]
_PLACEHOLDER: Final = {
    "tool": 'Arguments as a JSON object, e.g. {"text": "hello"}',
    "resource": "A resource read takes no arguments: give its URI above.",
    "prompt": 'Arguments as a JSON object of strings, e.g. {"name": "Ada"}',
}


def argument_skeleton(definition: dict[str, Any] | None, kind: RunKind) -> str:
    """A starting point for the arguments: the required ones (a default where given)."""
    if definition is None or kind == "resource":
        return ""
    if kind == "prompt":
        args = definition.get("arguments")
        names = [
            a["name"]
            for a in (args if isinstance(args, list) else [])
            if isinstance(a, dict) and isinstance(a.get("name"), str) and a.get("required")
        ]
        return json.dumps({n: "" for n in names}, indent=2) if names else "{}"
    schema = definition.get("inputSchema")
    props = schema.get("properties") if isinstance(schema, dict) else None
    required = schema.get("required") if isinstance(schema, dict) else None
    out: dict[str, Any] = {}
    if isinstance(props, dict) and isinstance(required, list):
        blank = {"string": "", "integer": 0, "number": 0, "boolean": False, "array": []}
        for name in required:
            spec = props.get(name) if isinstance(name, str) else None
            if isinstance(spec, dict):
                kind_word = spec.get("type")
                out[name] = spec.get(
                    "default", blank.get(kind_word) if isinstance(kind_word, str) else None
                )
    return json.dumps(out, indent=2, ensure_ascii=False)


class RunBothPanel(QWidget):
    def __init__(
        self,
        sessions: SessionPair,
        titles: tuple[str, str],
        definition: Callable[[RunKind, str], dict[str, Any] | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("runBothPanel")
        self._sessions = sessions
        self._titles = titles
        self._definition = definition
        self._names: dict[RunKind, list[str]] = {"tool": [], "resource": [], "prompt": []}
        self.task: asyncio.Task[None] | None = None
        self.result: BothResult | None = None

        self.kind = QComboBox()
        self.kind.setObjectName("runBothKind")
        for value, label in _KINDS:
            self.kind.addItem(label, value)
        self.name = QComboBox()
        self.name.setObjectName("runBothName")
        self.name.setEditable(True)
        self.name.setMinimumWidth(260)
        self.arguments = QPlainTextEdit()
        self.arguments.setObjectName("runBothArguments")
        self.arguments.setMaximumHeight(self.arguments.fontMetrics().height() * 7)
        self.button = QPushButton("Run on both")
        self.button.setObjectName("runBothButton")
        self.button.setToolTip("Send this call to both servers at once and compare the answers")
        self.status = PlainLabel(wrap=True)
        self.status.setObjectName("runBothStatus")
        self.left_status = PlainLabel(wrap=True, selectable=True)
        self.right_status = PlainLabel(wrap=True, selectable=True)
        self.view = SideBySideView(
            "Differences between the answers", "No difference: the two answers are the same."
        )

        top = QHBoxLayout()
        top.addWidget(self.kind)
        top.addWidget(self.name, 1)
        top.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.arguments)
        layout.addWidget(self.status)
        layout.addWidget(self.left_status)
        layout.addWidget(self.right_status)
        layout.addWidget(self.view, 1)

        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.name.currentTextChanged.connect(self._name_changed)
        self.button.clicked.connect(self.start)
        self._kind_changed()

    # -- what can be run ----------------------------------------------------------------------
    def set_names(self, names: dict[RunKind, list[str]]) -> None:
        self._names = {k: list(v) for k, v in names.items()}
        self._fill_names()

    def current_kind(self) -> RunKind:
        value = self.kind.currentData()
        return value if value in ("tool", "resource", "prompt") else "tool"

    def _kind_changed(self) -> None:
        kind = self.current_kind()
        self.arguments.setPlaceholderText(_PLACEHOLDER[kind])
        self.arguments.setEnabled(kind != "resource")
        self._fill_names()

    def _fill_names(self) -> None:
        text = self.name.currentText()
        self.name.blockSignals(True)
        self.name.clear()
        self.name.addItems(self._names.get(self.current_kind(), []))
        self.name.setEditText(text if text else self.name.itemText(0))
        self.name.blockSignals(False)
        self._name_changed(self.name.currentText())

    def _name_changed(self, name: str) -> None:
        self.arguments.setPlainText(
            argument_skeleton(self._definition(self.current_kind(), name), self.current_kind())
        )

    def choose(self, kind: RunKind, name: str, arguments: dict[str, Any] | None = None) -> None:
        """Set what to run (the window's item context, and tests)."""
        self.kind.setCurrentIndex(self.kind.findData(kind))
        self.name.setEditText(name)
        if arguments is not None:
            self.arguments.setPlainText(json.dumps(arguments, indent=2, ensure_ascii=False))

    # -- running ------------------------------------------------------------------------------
    def parsed_arguments(self) -> dict[str, Any] | None:
        """The arguments, or None (the status says why) when they are not a JSON object."""
        text = self.arguments.toPlainText().strip()
        if self.current_kind() == "resource" or not text:
            return {}
        try:
            value = json.loads(text)
        except ValueError as exc:
            self.status.setText(f"The arguments are not JSON: {exc}")
            return None
        if not isinstance(value, dict):
            self.status.setText("The arguments must be a JSON object ({...}).")
            return None
        return value

    def start(self) -> asyncio.Task[None] | None:
        if self.task is not None and not self.task.done():
            self.status.setText("A run is under way.")
            return self.task
        name = self.name.currentText().strip()
        if not name:
            self.status.setText("Name what to run (a tool, a resource URI or a prompt).")
            return None
        arguments = self.parsed_arguments()
        if arguments is None:
            return None
        self.task = asyncio.ensure_future(self._run(self.current_kind(), name, arguments))
        self.task.add_done_callback(self._finished)
        return self.task

    async def _run(self, kind: RunKind, name: str, arguments: dict[str, Any]) -> None:
        self.button.setEnabled(False)
        self.status.setText(f"Running {name!r} on both servers…")
        try:
            left, right = self._sessions()
            result = await run_on_both(left, right, kind, name, arguments)
        finally:
            self.button.setEnabled(True)
        self.show_result(result)

    def _finished(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("run on both failed", exc_info=exc)
            self.status.setText(f"The run failed: {exc}")

    def show_result(self, result: BothResult) -> None:
        self.result = result
        left_title, right_title = self._titles
        self.left_status.setText(f"{left_title}: {result.left.summary()}")
        self.right_status.setText(f"{right_title}: {result.right.summary()}")
        if result.same:
            self.status.setText("The two answers are the same (volatile fields ignored).")
        else:
            self.status.setText(f"The answers differ in {len(result.changes)} place(s).")
        self.view.show_diff(
            result.left.document,
            result.right.document,
            result.changes,
            left_title=left_title,
            right_title=right_title,
        )
