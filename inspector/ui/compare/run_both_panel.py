""" "Run on both": a tool call, resource read or prompt get, its arguments entered once (as
JSON), sent to both servers at once; the two answers side by side with their semantic
diff (the replay diff's view and its volatile ignore paths). Each side's outcome is said
on its own line, so a side that fails never hides the other's answer."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Final

from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.common.tasks import task_failure
from inspector.compare import BothResult, RunKind, run_on_both
from inspector.core.server_connection import ServerConnection
from inspector.ui.forms.schema_form import SchemaForm
from inspector.ui.recording.diff_view import SideBySideView
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["RunBothPanel", "arguments_schema"]

log = logging.getLogger(__name__)

SessionPair = Callable[[], tuple[ServerConnection | None, ServerConnection | None]]
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


def arguments_schema(definition: dict[str, Any] | None, kind: RunKind) -> dict[str, Any]:
    """The schema the arguments form is built from: a tool's inputSchema, a prompt's
    arguments as string properties; an open object for a name not in either catalog."""
    if definition is None:
        return {"type": "object"}
    if kind == "prompt":
        args = definition.get("arguments")
        props: dict[str, Any] = {}
        required: list[str] = []
        for arg in args if isinstance(args, list) else []:
            if not isinstance(arg, dict) or not isinstance(arg.get("name"), str):
                continue
            spec: dict[str, Any] = {"type": "string"}
            if isinstance(arg.get("description"), str):
                spec["description"] = arg["description"]
            props[arg["name"]] = spec
            if arg.get("required") is True:
                required.append(arg["name"])
        return {"type": "object", "properties": props, "required": required}
    schema = definition.get("inputSchema")
    return schema if isinstance(schema, dict) else {"type": "object"}


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
        self.form = SchemaForm()
        self.form.setObjectName("runBothArguments")
        self.form.setMaximumHeight(self.fontMetrics().height() * 14)
        self.no_arguments = PlainLabel("A resource read takes no arguments: give its URI above.")
        self.button = QPushButton("Run on both")
        self.button.setObjectName("runBothButton")
        self.button.setToolTip("Send this call to both servers at once and compare the answers")
        self.status = PlainLabel(wrap=True)
        self.status.setObjectName("runBothStatus")
        self.left_status = PlainLabel(wrap=True, selectable=True)
        self.right_status = PlainLabel(wrap=True, selectable=True)
        self.view = SideBySideView(
            "Differences between the answers",
            "No difference: the two answers are the same.",
            titles=titles,
            waiting="Run a call on both servers to compare the answers.",
        )

        top = QHBoxLayout()
        top.addWidget(self.kind)
        top.addWidget(self.name, 1)
        top.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.form)
        layout.addWidget(self.no_arguments)
        layout.addWidget(self.status)
        layout.addWidget(self.left_status)
        layout.addWidget(self.right_status)
        layout.addWidget(self.view, 1)

        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.name.currentTextChanged.connect(self._name_changed)
        self.button.clicked.connect(lambda: self.start())
        self.form.send_anyway_requested.connect(lambda: self.start(anyway=True))
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
        self.form.setVisible(kind != "resource")
        self.no_arguments.setVisible(kind == "resource")
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
        kind = self.current_kind()
        if kind != "resource":
            self.form.set_schema(arguments_schema(self._definition(kind, name), kind))
            cap = self.fontMetrics().height() * 14
            floor = self.fontMetrics().height() * 7  # room for the JSON view too
            self.form.setMaximumHeight(min(max(self.form.preferred_height(), floor), cap))

    def choose(self, kind: RunKind, name: str, arguments: dict[str, Any] | None = None) -> None:
        """Set what to run (the window's item context, and tests)."""
        self.kind.setCurrentIndex(self.kind.findData(kind))
        self.name.setEditText(name)
        if arguments is not None:
            self.form.set_values(arguments)

    # -- running ------------------------------------------------------------------------------
    def parsed_arguments(self, *, anyway: bool = False) -> dict[str, Any] | None:
        """The arguments, or None (the status says why) when they do not fit the schema
        (the form marks the fields; "Send anyway" sends them as they are)."""
        if self.current_kind() == "resource":
            return {}
        self.form.flush()
        errors = self.form.validation_errors()
        if any(e.startswith("(arguments): the JSON is not valid") for e in errors):
            anyway = False  # not JSON at all: there is nothing to send
        if errors and not anyway:
            self.status.setText("The arguments do not fit the schema: " + "; ".join(errors[:3]))
            return None
        return self.form.values()

    def start(self, *, anyway: bool = False) -> asyncio.Task[None] | None:
        if self.task is not None and not self.task.done():
            self.status.setText("A run is under way.")
            return self.task
        name = self.name.currentText().strip()
        if not name:
            self.status.setText("Name what to run (a tool, a resource URI or a prompt).")
            return None
        arguments = self.parsed_arguments(anyway=anyway)
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
        exc = task_failure(task)
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
