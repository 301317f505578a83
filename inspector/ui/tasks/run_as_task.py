""" "Run as task": the tool-call option that asks the server to run the call in the background.

For the tool Call view. `configure()` with the session's tasks mode and the tool's
`execution.taskSupport` (legacy); `apply(params)` turns tools/call params into a task
request (legacy: `task: {ttl}`; modern: the tasks extension declared on this request);
after the call, hand the result to `TaskClient.adopt()` (the Tasks panel follows it).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QSpinBox, QWidget

from inspector.features.tasks import TasksMode, task_request_params
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["RunAsTaskOption", "tool_task_support"]


def tool_task_support(tool: dict[str, Any]) -> str:
    """spec 2025-11-25 Tool.execution.taskSupport: forbidden (the default), optional, required."""
    execution = tool.get("execution")
    support = execution.get("taskSupport") if isinstance(execution, dict) else None
    return support if support in ("optional", "required") else "forbidden"


class RunAsTaskOption(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.check = QCheckBox("Run as task")
        self.ttl = QSpinBox()
        self.ttl.setRange(0, 24 * 3600)
        self.ttl.setValue(300)
        self.ttl.setSuffix(" s TTL")
        self.ttl.setSpecialValueText("server's TTL")
        self.ttl.setToolTip("How long the server should keep the task (legacy: task.ttl)")
        self.check.toggled.connect(lambda on: self.ttl.setEnabled(on and self._mode == "legacy"))
        self.why = PlainLabel()
        self.why.setEnabled(False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.check)
        layout.addWidget(self.ttl)
        layout.addWidget(self.why, 1)
        self._mode: TasksMode | None = None
        self.configure(None)

    def configure(self, mode: TasksMode | None, task_support: str = "optional") -> None:
        """Enable the option where the server (and, legacy, the tool) allows tasks."""
        self._mode = mode
        if mode is None:
            allowed, why = False, "the server does not offer tasks"
        elif mode == "modern":
            allowed, why = True, "the server decides per call (tasks extension)"
        elif task_support == "forbidden":
            allowed, why = False, "this tool does not support tasks"
        else:
            allowed, why = True, "required by this tool" if task_support == "required" else ""
        self.check.setEnabled(allowed and task_support != "required")
        self.check.setChecked(allowed and (self.check.isChecked() or task_support == "required"))
        self.ttl.setEnabled(self.check.isChecked() and mode == "legacy")
        self.ttl.setVisible(mode != "modern")
        self.why.setText(why)
        self.setVisible(mode is not None)

    @property
    def wanted(self) -> bool:
        return self._mode is not None and self.check.isChecked()

    def apply(self, params: dict[str, Any]) -> dict[str, Any]:
        """tools/call params, as a task request when the option is on."""
        if not self.wanted or self._mode is None:
            return params
        ttl = self.ttl.value() * 1000 or None
        return task_request_params(params, self._mode, ttl)

    def extra_params(self) -> dict[str, Any]:
        """What tools/call adds to its params to ask for a task ({} when the option is off)."""
        return self.apply({})
