"""The workspace's "Read" views: a resource, and a resource template.

A resource is read as is. A template gets a form with one field per RFC 6570 variable
(completions from completion/complete with ref/resource and the variables already
filled), shows the URI it expands to as the user types, and reads that URI with the same
reader (Subscribe included).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QFormLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from inspector.features.catalog.model import CatalogItem
from inspector.features.completion import Completer, resource_ref
from inspector.features.uri_template import UriTemplate, variables_schema
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.forms.completion import CompletionProvider
from inspector.ui.forms.schema_form import SchemaForm
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors
from inspector.ui.workspace.resource_reader import ResourceReader

__all__ = ["ResourceReadView", "TemplateReadView", "resource_view", "template_view"]

log = logging.getLogger(__name__)


def _muted(label: QLabel) -> QLabel:
    label.setStyleSheet(f"color: {colors().muted.name()}")
    return label


def _listing_facts(item: CatalogItem) -> str:
    raw = item.raw
    bits = []
    mime = raw.get("mimeType")
    if isinstance(mime, str):
        bits.append(mime)
    size = raw.get("size")
    if isinstance(size, int) and not isinstance(size, bool):
        bits.append(f"{size:,} bytes")
    return " · ".join(bits)


class ResourceReadView(QWidget):
    """The workspace header names the resource; this adds what the listing declared."""

    def __init__(self, item: CatalogItem, controller: ConnectionController) -> None:
        super().__init__()
        self.setObjectName("resourceReadView")
        self.item = item
        self.reader = ResourceReader(controller)
        self.reader.set_uri(item.key)
        self.reader.contents.clear("Press Read to fetch this resource.")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        facts = _listing_facts(item)
        if facts:
            layout.addWidget(_muted(PlainLabel(f"Listed as {facts}", selectable=True)))
        layout.addWidget(self.reader, 1)

    def read(self) -> asyncio.Task[Any] | None:
        return self.reader.read()


class TemplateReadView(QWidget):
    def __init__(self, item: CatalogItem, controller: ConnectionController) -> None:
        super().__init__()
        self.setObjectName("templateReadView")
        self.item = item
        self.controller = controller
        self.template = UriTemplate(item.key)
        self._sized = False

        self.problems = PlainLabel(wrap=True, selectable=True)
        self.problems.setObjectName("templateProblems")
        self.problems.setStyleSheet(f"color: {colors().warn.name()}")
        self.problems.setText("\n".join(f"⚠ {p}" for p in self.template.problems))
        self.problems.setVisible(bool(self.template.problems))
        self.form = SchemaForm()
        self.form.setObjectName("templateForm")
        self.form.set_schema(variables_schema(self.template))
        self.expanded = ElidedLabel()
        self.expanded.setObjectName("expandedUri")
        self.completion_note = _muted(PlainLabel(wrap=True, selectable=True))
        self.completion_note.setObjectName("completionNote")
        uri_row = QFormLayout()
        uri_row.setContentsMargins(0, 0, 0, 0)
        uri_row.addRow("URI:", self.expanded)
        self.reader = ResourceReader(controller)
        self.reader.contents.clear("Fill the variables, then press Read.")

        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.problems)
        if not self.template.variables:
            top_layout.addWidget(
                _muted(PlainLabel("This template has no variables.", selectable=True))
            )
        top_layout.addWidget(self.form, 1)
        self.top = top
        top_layout.addWidget(self.completion_note)
        top_layout.addLayout(uri_row)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("templateSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.reader)
        self.splitter.setStretchFactor(0, 0)  # a taller window grows the result, not the form
        self.splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.splitter)

        self.form.changed.connect(self._update_uri)
        # Bound slots, not lambdas: Qt drops them when the view is destroyed (evicted).
        controller.server_ready.connect(self._server_ready)
        controller.state_changed.connect(self._state_changed)
        self._update_completer()
        self._update_uri()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            total = max(self.splitter.height(), 400)
            top = min(self._top_height(), int(total * 0.45))
            self.splitter.setSizes([top, total - top])

    def _top_height(self) -> int:
        """What the form needs: its rows, plus the bars around it."""
        page = self.form.form_area.widget()
        need = (page.sizeHint().height() if page is not None else 60) + 80
        if self.template.problems:
            need += self.problems.sizeHint().height()
        return need

    # ---------------------------------------------------------------- completions
    def _server_ready(self, _ready: object) -> None:
        self._update_completer()

    def _state_changed(self, _state: str, _detail: str) -> None:
        self._update_completer()

    def _update_completer(self) -> None:
        session = self.controller.session
        if session is None or not session.is_ready or not self.template.variables:
            self.form.set_completer(None)
            self.completion_note.setVisible(False)
            return
        completer = Completer(session, resource_ref(self.item.key), self.template.names)
        ok, why = completer.available
        self.form.set_completer(self._provider(completer) if ok else None)
        self.completion_note.setText("" if ok else f"No suggestions: {why}.")
        self.completion_note.setVisible(not ok)

    def _provider(self, completer: Completer) -> CompletionProvider:
        async def provide(name: str, prefix: str, values: dict[str, Any]) -> list[str]:
            if self.template.variable(name) is None:
                return []
            got = await completer.complete(name, prefix, values)  # failures: the form's note
            problems = completer.last.problems if completer.last is not None else []
            self.completion_note.setText("Completion: " + "; ".join(problems) if problems else "")
            self.completion_note.setVisible(bool(problems))
            return got

        return provide

    # ---------------------------------------------------------------- uri
    def values(self) -> dict[str, Any]:
        return self.form.values()

    def _update_uri(self) -> None:
        expanded = self.template.expand(self.form.values())
        blocked = ""
        if expanded.missing:
            blocked = "Fill " + ", ".join(expanded.missing) + " first."
        self.expanded.setText(expanded.uri)
        self.expanded.setToolTip(plain_tooltip(expanded.uri))
        color = colors().muted if blocked else colors().ok
        self.expanded.setStyleSheet(f"color: {color.name()}")
        self.reader.set_uri(expanded.uri, blocked)

    def read(self) -> asyncio.Task[Any] | None:
        return self.reader.read()


def resource_view(item: CatalogItem, controller: ConnectionController) -> QWidget:
    return ResourceReadView(item, controller)


def template_view(item: CatalogItem, controller: ConnectionController) -> QWidget:
    return TemplateReadView(item, controller)
