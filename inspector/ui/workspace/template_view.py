"""The workspace's "Read" view for a resource template: a form, the URI it expands to, and
the reader for that URI.

The form has one field per RFC 6570 variable (completions from completion/complete with
ref/resource and the variables already filled); the URI is expanded as the user types, and
read with the same reader as a resource (Subscribe included). Read stays disabled, saying
which variables are missing, until the URI is complete.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtWidgets import QFormLayout, QVBoxLayout, QWidget

from inspector.collections.call_draft import CallDraft, completion_draft
from inspector.features.catalog.lists import CatalogItem
from inspector.features.completion import Completer, resource_ref
from inspector.features.uri_template import UriTemplate, variables_schema
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.forms.form_splitter import FormSplitter
from inspector.ui.forms.schema_form import SchemaForm
from inspector.ui.forms.server_completions import ServerCompletions
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors
from inspector.ui.workspace.resource_reader import ResourceReader
from inspector.ui.workspace.save_menu import add_completion_saves

__all__ = ["TemplateReadView", "template_view"]


class TemplateReadView(QWidget):
    def __init__(self, item: CatalogItem, controller: ConnectionController) -> None:
        super().__init__()
        self.setObjectName("templateReadView")
        self.item = item
        self.controller = controller
        self.template = UriTemplate(item.key)

        self.problems = PlainLabel(wrap=True, selectable=True)
        self.problems.setObjectName("templateProblems")
        self.problems.setStyleSheet(f"color: {colors().warn.name()}")
        self.problems.setText("\n".join(f"⚠ {p}" for p in self.template.problems))
        self.problems.setVisible(bool(self.template.problems))
        self.form = SchemaForm()
        self.form.setObjectName("templateForm")
        self.form.set_schema(variables_schema(self.template))
        self.completions = ServerCompletions(
            self.form, lambda name: self.template.variable(name) is not None
        )
        self.completion_note = self.completions.note
        self.expanded = ElidedLabel()
        self.expanded.setObjectName("expandedUri")
        uri_row = QFormLayout()
        uri_row.setContentsMargins(0, 0, 0, 0)
        uri_row.addRow("URI:", self.expanded)
        self.reader = ResourceReader(controller)
        self.reader.offer_save()
        self.save_call_requested = self.reader.save_call_requested
        add_completion_saves(
            self.reader.save_button,
            "resources/read…",
            self.reader.request_save,
            self.template.names,
            self.request_completion_save,
        )
        self.reader.contents.clear("Fill the variables, then press Read.")

        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.problems)
        if not self.template.variables:
            none = PlainLabel("This template has no variables.", selectable=True)
            none.setStyleSheet(f"color: {colors().muted.name()}")
            top_layout.addWidget(none)
        top_layout.addWidget(self.form, 1)
        self.top = top
        top_layout.addWidget(self.completion_note)
        top_layout.addLayout(uri_row)
        self.splitter = FormSplitter(top, self.reader, wanted=self._top_height, share=0.45)
        self.splitter.setObjectName("templateSplitter")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.splitter)

        self.form.changed.connect(self._update_uri)
        # Bound slots, not lambdas: Qt drops them when the view is destroyed (evicted).
        controller.server_ready.connect(self._server_ready)
        controller.state_changed.connect(self._state_changed)
        self._update_completer()
        self._update_uri()

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
        session = self.controller.model.ready_server()
        if session is not None and self.template.variables:
            ref = resource_ref(self.item.key)
            self.completions.use(Completer(session, ref, self.template.names))
        else:
            self.completions.use(None)

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

    def request_completion_save(self, name: str) -> CallDraft:
        """Save the completion/complete the form would send for variable `name`."""
        session = self.controller.model.server
        draft = completion_draft(
            resource_ref(self.item.key),
            name,
            self.form.values(),
            self.template.names,
            session.protocol_version if session is not None else None,
        )
        self.save_call_requested.emit(draft)
        return draft


def template_view(item: CatalogItem, controller: ConnectionController) -> QWidget:
    return TemplateReadView(item, controller)
