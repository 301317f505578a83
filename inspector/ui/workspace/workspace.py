"""The workspace (centre, "Workspace" tab): the item selected in the explorer.

A header (title, kind and key, badges, warnings), then a tab row: the action view
registered for the item's kind first (tools "Call", resources/templates "Read", prompts
"Get"; see workspace_registry), then "Details" (the full description as plain text, badges,
the raw definition JSON, inputSchema and outputSchema). Pages are kept per item (a call in
flight keeps its view), a few at a time.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.features.catalog.format import Badge, detail_sections, item_badges, mirrored_headers
from inspector.features.catalog.format import resource_annotations as annotations_line
from inspector.features.catalog.lists import CatalogItem, ListDiff
from inspector.features.mcp_apps.meta import app_resource_uri
from inspector.features.mcp_models import Tool
from inspector.features.tool_calls import ToolCallRecord
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.explorer.delegate import tone_color
from inspector.ui.explorer.pane import NOUNS
from inspector.ui.mcp_apps.app_tab import AppTab
from inspector.ui.widgets.code_view import code_view
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.highlighter import JsonHighlighter
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors
from inspector.ui.workspace.registry import view_for

__all__ = ["DetailsView", "ItemPage", "Workspace"]

log = logging.getLogger(__name__)

MAX_PAGES: Final = 24
_HIGHLIGHT_LIMIT: Final = 256 * 1024


def _page_text(text: str = "") -> PlainLabel:
    """Wrapped and selectable; its width is the page's (a long line never widens it)."""
    label = PlainLabel(text, wrap=True, selectable=True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


def badge_label(badge: Badge) -> PlainLabel:
    label = PlainLabel(badge.label + (" (implied)" if badge.implied else ""))
    label.setToolTip(plain_tooltip(badge.tooltip))
    color = tone_color(badge.tone, colors())
    style = "dashed" if badge.implied else "solid"
    label.setStyleSheet(
        f"QLabel {{ color: {color.name()}; border: 1px {style} {color.name()}; "
        "border-radius: 8px; padding: 1px 7px; }"
    )
    return label


class DetailsView(QWidget):
    """Everything the server said about the item, as text: never rendered."""

    def __init__(self, item: CatalogItem, mirror_headers: bool = False) -> None:
        super().__init__()
        self.setObjectName("detailsView")
        self.item = item
        self._filled = False
        self._mirror = mirror_headers
        self.description = QPlainTextEdit()
        self.description.setObjectName("detailsDescription")
        self.description.setReadOnly(True)
        self.description.setPlaceholderText("(no description)")
        self.description.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        layout_ = self.description.document().documentLayout()
        layout_.documentSizeChanged.connect(lambda _size: self._fit_description())
        self.facts = _page_text()
        self.facts.setObjectName("detailsFacts")
        self.sections = QTabWidget()
        self.sections.setObjectName("detailsSections")
        self.sections.setDocumentMode(True)
        self.views: dict[str, QPlainTextEdit] = {}
        self.copy_button = QPushButton("Copy definition JSON")
        self.copy_button.clicked.connect(self.copy_definition)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        heading = _page_text("Description")
        bold = heading.font()
        bold.setBold(True)
        heading.setFont(bold)
        layout.addWidget(heading)
        layout.addWidget(self.description)
        layout.addWidget(self.facts)
        layout.addWidget(self.sections, 1)
        layout.addLayout(buttons)

    def showEvent(self, event: QShowEvent) -> None:
        self.fill()  # pretty-printing happens on view, not on selection
        super().showEvent(event)

    def fill(self) -> None:
        if self._filled:
            return
        self._filled = True
        item = self.item
        self.description.setPlainText(item.description)
        facts: list[str] = []
        if item.kind == "tools" and isinstance(item.model, Tool) and self._mirror:
            headers = mirrored_headers(item.model)
            if headers:
                facts.append("Mirrored headers: " + ", ".join(f"{h} ← {p}" for h, p in headers))
        if item.kind in ("resources", "templates"):
            ann = annotations_line(item.raw.get("annotations"))
            if ann:
                facts.append(f"Annotations: {ann}")
        if item.excluded:
            facts.append(f"Excluded: {item.excluded}")
        for problem in item.problems:
            facts.append(f"Malformed: {problem}")
        self.facts.setText("\n".join(facts))
        self.facts.setVisible(bool(facts))
        for title, text in detail_sections(item):
            view = code_view(f"details_{title}")
            view.setPlainText(text)
            if len(text) <= _HIGHLIGHT_LIMIT:
                JsonHighlighter(view.document())
            self.views[title] = view
            self.sections.addTab(view, title)

    def _fit_description(self) -> None:
        """As tall as its text (wrapped), between two and twelve lines; then it scrolls."""
        lines = max(2, min(12, int(self.description.document().size().height())))
        spacing = self.description.fontMetrics().lineSpacing()
        frame = self.description.frameWidth() * 2
        margins = int(self.description.document().documentMargin() * 2)
        self.description.setFixedHeight(lines * spacing + frame + margins + 2)

    def copy_definition(self) -> None:
        self.fill()
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.views["Definition"].toPlainText())


class ItemPage(QWidget):
    """One item: header + [action view, Details]."""

    pin_diff_requested = Signal(str)
    save_call_requested = Signal(object)  # a CallDraft from the action view's "Save call…"

    def __init__(self, item: CatalogItem, controller: ConnectionController) -> None:
        super().__init__()
        self.setObjectName("itemPage")
        self.item = item
        session = controller.model.server
        mirror = session is not None and session.mirrors_tool_headers
        self.title = ElidedLabel(item.title)
        self.title.setObjectName("itemTitle")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        singular = NOUNS[item.kind][0]
        self.subtitle = ElidedLabel(f"{singular} · {item.key}")
        self.subtitle.setStyleSheet(f"color: {colors().muted.name()}")
        badges = QHBoxLayout()
        badges.setContentsMargins(0, 0, 0, 0)
        badges.setSpacing(4)
        self.badges = item_badges(item, mirror_headers=mirror)
        for badge in self.badges:
            badges.addWidget(badge_label(badge))
        badges.addStretch(1)
        self.warning = _page_text()
        self.warning.setObjectName("itemWarning")
        self.warning.setStyleSheet(f"color: {colors().error.name()}")
        self.warning.setVisible(False)
        self.diff_button = QPushButton("Show diff…")
        self.diff_button.setObjectName("pinDiffButton")
        self.diff_button.setVisible(False)
        self.diff_button.clicked.connect(lambda: self.pin_diff_requested.emit(item.key))
        warning_row = QHBoxLayout()
        warning_row.setContentsMargins(0, 0, 0, 0)
        warning_row.addWidget(self.warning, 1)
        warning_row.addWidget(self.diff_button, 0, Qt.AlignmentFlag.AlignTop)
        if item.excluded:
            self.warning.setText(
                f"The client must not call this tool: {item.excluded}. "
                "It is shown so you can see why."
            )
            self.warning.setVisible(True)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("itemTabs")
        self.action: QWidget | None = None
        registered = view_for(item.kind)
        if registered is not None:
            action_title, factory = registered
            try:
                self.action = factory(item, controller)
            except Exception as exc:  # a broken view must not take the workspace down
                log.exception("the %s view for %s failed", action_title, item.key)
                controller.model.errors.add("internal", f"{action_title} view failed: {exc!r}")
                self.action = _page_text(f"The {action_title} view could not be built: {exc!r}")
            self.tabs.addTab(self.action, action_title)
            saves = getattr(self.action, "save_call_requested", None)
            if saves is not None:
                saves.connect(self.save_call_requested)
        self.app_tab: AppTab | None = None
        uri = app_resource_uri(item.raw) if item.kind == "tools" else None
        if uri is not None:  # an MCP App: its own tab, following the calls
            self.app_tab = AppTab(item, controller, uri)
            self.tabs.addTab(self.app_tab, "App")
            self.tabs.setTabToolTip(self.tabs.count() - 1, f"The tool's MCP App ({uri})")
            call_started = getattr(self.action, "call_started", None)
            if call_started is not None:
                call_started.connect(self.app_tab.follow)
                self.action.app_requested.connect(self.show_app)  # type: ignore[union-attr]
        self.details = DetailsView(item, mirror)
        self.tabs.addTab(self.details, "Details")

        header = QVBoxLayout()
        header.setContentsMargins(8, 6, 8, 2)
        header.setSpacing(2)
        header.addWidget(self.title)
        header.addWidget(self.subtitle)
        header.addLayout(badges)
        header.addLayout(warning_row)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.tabs, 1)

    def show_app(self, record: object) -> None:
        """A call card's Show in App: that call, in the App tab."""
        if self.app_tab is not None and isinstance(record, ToolCallRecord):
            self.tabs.setCurrentWidget(self.app_tab)
            self.app_tab.follow(record)

    def set_note(self, text: str) -> None:
        """A warning about the item (e.g. the server no longer lists it)."""
        self.warning.setText(text)
        self.warning.setVisible(True)

    def dispose(self) -> None:
        """The page goes: an app on it is dropped (its page, then its private profile)."""
        if self.app_tab is not None:
            self.app_tab.dispose()

    def set_pin_alert(self, text: str | None) -> None:
        if self.item.excluded:
            return
        self.warning.setText(text or "")
        self.warning.setVisible(bool(text))
        self.diff_button.setVisible(bool(text))


class Workspace(QWidget):
    pin_diff_requested = Signal(str)  # a tool name
    save_call_requested = Signal(object)  # a CallDraft: "Save call…" in an item's view

    def __init__(self, controller: ConnectionController) -> None:
        super().__init__()
        self.setObjectName("workspace")
        self.controller = controller
        self.placeholder = PlainLabel(
            "Select a tool, resource, template or prompt in the explorer on the left.", wrap=True
        )
        self.placeholder.setObjectName("workspacePlaceholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setStyleSheet(f"color: {colors().muted.name()}")
        self.stack = QStackedWidget()
        self.stack.addWidget(self.placeholder)
        self.pages: OrderedDict[tuple[str, str, str], ItemPage] = OrderedDict()
        self.current: ItemPage | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        controller.pins_changed.connect(self._pins_changed)
        controller.catalog_relisted.connect(self._relisted)

    def show_item(self, item: object) -> ItemPage | None:
        if not isinstance(item, CatalogItem):
            self.stack.setCurrentWidget(self.placeholder)
            self.current = None
            return None
        key = (item.kind, item.key, item.hash)
        page = self.pages.get(key)
        if page is None:
            page = ItemPage(item, self.controller)
            page.pin_diff_requested.connect(self.pin_diff_requested)
            page.save_call_requested.connect(self.save_call_requested)
            self.pages[key] = page
            self.stack.addWidget(page)
            self._evict()
        else:
            self.pages.move_to_end(key)
        self.current = page
        self.stack.setCurrentWidget(page)
        self._pins_changed()
        return page

    def _evict(self) -> None:
        while len(self.pages) > MAX_PAGES:
            _key, old = self.pages.popitem(last=False)
            if old is self.current:  # never the one on screen
                self.pages[_key] = old
                break
            self.stack.removeWidget(old)
            old.dispose()
            old.deleteLater()

    def clear(self) -> None:
        """A new server: pages of the old one's items go."""
        self.stack.setCurrentWidget(self.placeholder)
        self.current = None
        for page in self.pages.values():
            self.stack.removeWidget(page)
            page.dispose()
            page.deleteLater()
        self.pages.clear()

    def _relisted(self, kind: str, diff: object) -> None:
        page = self.current
        if page is None or page.item.kind != kind or not isinstance(diff, ListDiff):
            return
        if page.item.key in diff.removed:
            noun = NOUNS[page.item.kind][0]
            page.set_note(f"The server no longer lists this {noun} (removed by the last re-list).")

    def _pins_changed(self) -> None:
        page = self.current
        if page is None or page.item.kind != "tools":
            return
        change = self.controller.model.catalog_loader.pin_alerts.get(page.item.key)
        page.set_pin_alert(
            f"⚠ {change.describe()}. Read the diff before calling it."
            if change is not None
            else None
        )
