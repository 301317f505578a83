"""Skills in a connection tab: a "Skills" centre tab (beside Workspace and Traffic) that is
there only while the server lists `skill://…/SKILL.md` resources (SEP-2640); a server that
lists none shows no Skills tab.

The tab holds the skills found (by `features/skills/discovery` from the explorer's
resources and templates lists, so no extra listing), each with its verdict, and the chosen
skill's page (`SkillPage`). Nothing is read before the tab is first shown; then the first
`READ_AHEAD` skills' SKILL.md are read once, in turn, through the connection's
ServerConnection, and inspected (`features/skills/inspect`); any other when it is chosen.
A re-listing that changes the skills reads them again; a reconnect starts over. A server
that declares the Skills extension is also asked for `skills/list` once it is ready.
"""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QHeaderView,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.common.visible_text import visible_text
from inspector.features.skills.discovery import SkillEntry, SkillsFound, find_skills
from inspector.features.skills.findings import Severity
from inspector.features.skills.inspect import SkillReport, inspect_skill, read_text
from inspector.features.skills.listing import ListedSkill, declares_skills, parse_listing
from inspector.protocol.machine.events import SessionReady
from inspector.ui.controller.connection_controller import ConnectionController, ConnState
from inspector.ui.skills.skill_page import SkillPage
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.split_panes import split_panes
from inspector.ui.widgets.theme import colors

__all__ = ["SkillsFeature", "SkillsPanel"]

_URI_ROLE: Final = Qt.ItemDataRole.UserRole
READ_AHEAD: Final = 50  # skills read when the tab is shown; any other when chosen
SETTLE_MS: Final = 100  # list changes closer together than this are looked at once


class SkillsPanel(QWidget):
    """The Skills tab: a summary line, the list of skills, the chosen skill's page."""

    def __init__(self, on_first_show: Any) -> None:
        super().__init__()
        self.setObjectName("skillsPanel")
        self._on_show = on_first_show
        self.summary = PlainLabel(wrap=True)
        self.summary.setObjectName("skillsSummary")
        self.list = QTreeWidget()
        self.list.setObjectName("skillList")
        self.list.setHeaderLabels(["Skill", "Verdict"])
        self.list.setRootIsDecorated(False)
        self.list.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.templates = PlainLabel(wrap=True, selectable=True)
        self.templates.setObjectName("skillTemplates")
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.list, 1)
        left_layout.addWidget(self.templates)
        self.page = SkillPage()
        split = split_panes(
            Qt.Orientation.Horizontal, [left, self.page], stretch=(2, 5), name="skillsSplitter"
        )
        split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._on_show()


class SkillsFeature(QObject):
    def __init__(self, controller: ConnectionController, centre: QTabWidget) -> None:
        """`centre`: the tab's centre tabs, where the Skills tab goes (hidden until the
        server lists a skill)."""
        super().__init__(centre)
        self.controller = controller
        self.centre = centre
        self.found = SkillsFound([], [], [])
        self.listed: list[ListedSkill] = []  # skills/list, when the server declares skills
        self.listing_problems: list[str] = []
        self.reports: dict[str, SkillReport] = {}
        self._generation = 0  # bumped when the skills change: an older reading stops
        self._reading = -1  # the generation being read, -1 when no reading runs
        self.panel = SkillsPanel(self._read_all)
        self.page = self.panel.page
        self.centre.addTab(self.panel, "Skills")
        self.centre.setTabToolTip(
            self.centre.indexOf(self.panel),
            "The skills this server exposes as skill:// resources (SEP-2640), each "
            "SKILL.md's frontmatter checked against the Agent Skills spec",
        )
        self.centre.setTabVisible(self.centre.indexOf(self.panel), False)
        self.panel.list.currentItemChanged.connect(self._chosen)
        self.page.file_requested.connect(self._read_file)
        # The explorer's lists change page by page (a "Load all" of a big catalog: hundreds
        # of times); the skills are looked for once the changes settle.
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._relisted)
        catalog = controller.model.catalog
        catalog["resources"].on_change(lambda _lst: self._settle.start())
        catalog["templates"].on_change(lambda _lst: self._settle.start())
        controller.server_ready.connect(self._server_ready)
        controller.state_changed.connect(self._state_changed)

    # ---------------------------------------------------------------- skills/list
    def _state_changed(self, state: str, _detail: str) -> None:
        if ConnState(state) is ConnState.CONNECTING:
            self.listed, self.listing_problems = [], []

    def _server_ready(self, _ready: SessionReady) -> None:
        server = self.controller.model.ready_server()
        if server is None or not declares_skills(server.server_capabilities):
            return

        async def list_skills() -> None:
            try:
                entries = await server.list_skills()
            except Exception as exc:  # the server's failure, said in the tab
                self.listing_problems = [f"skills/list failed: {exc}"]
                entries = []
            else:
                self.listed, self.listing_problems = parse_listing(entries)
            self._relisted(force=True)

        self.controller.model.start(list_skills(), "skills/list")

    # ---------------------------------------------------------------- the list
    def _relisted(self, force: bool = False) -> None:
        catalog = self.controller.model.catalog
        resources = [item.raw for item in catalog["resources"]]
        found = find_skills(resources, [item.raw for item in catalog["templates"]], self.listed)
        shape = [(s.uri, s.files) for s in found.skills]
        same = shape == [(s.uri, s.files) for s in self.found.skills]
        if not force and same and len(found.templates) == len(self.found.templates):
            return
        self.found = found
        self.reports.clear()
        self._generation += 1
        index = self.centre.indexOf(self.panel)
        self.centre.setTabVisible(index, bool(found) or bool(self.listing_problems))
        self.centre.setTabText(index, f"Skills ({len(found.skills)})" if found.skills else "Skills")
        self._fill(more=catalog["resources"].has_more)
        if self.panel.isVisible():
            self._read_all()

    def _fill(self, more: bool) -> None:
        self.panel.list.clear()
        for skill in self.found.skills:
            row = QTreeWidgetItem([visible_text(skill.skill_path, keep=""), "not read yet"])
            row.setData(0, _URI_ROLE, skill.uri)
            row.setData(0, Qt.ItemDataRole.ToolTipRole, plain_tooltip(skill.uri))
            self.panel.list.addTopLevelItem(row)
        count = len(self.found.skills)
        if self.listed:
            text = (
                f"{count} skill{'s' if count != 1 else ''}, {len(self.listed)} of them from "
                "skills/list (the server declares the Skills extension)."
            )
        else:
            text = f"{count} skill{'s' if count != 1 else ''} exposed as skill:// resources."
        if self.listing_problems:
            text += " " + " ".join(visible_text(p, keep="") for p in self.listing_problems)
        if more:
            text += (
                " The resource list has more pages: Load all in the explorer's Resources tab "
                "to find every skill."
            )
        self.panel.summary.setText(text)
        shown = ", ".join(str(t.get("uriTemplate")) for t in self.found.templates)
        self.panel.templates.setText(
            f"Skill templates (read them in Templates): {visible_text(shown, keep='')}"
            if shown
            else ""
        )
        self.panel.templates.setVisible(bool(shown))
        first = self.panel.list.topLevelItem(0)
        if first is not None:
            self.panel.list.setCurrentItem(first)
        else:
            self.page.show_reading("")
            self.page.title.setText("No skill:// SKILL.md is listed (only templates)")

    def _row(self, uri: str) -> QTreeWidgetItem | None:
        for i in range(self.panel.list.topLevelItemCount()):
            row = self.panel.list.topLevelItem(i)
            if row is not None and row.data(0, _URI_ROLE) == uri:
                return row
        return None

    def _chosen(self, current: QTreeWidgetItem | None, _previous: object) -> None:
        if current is None:
            return
        uri = str(current.data(0, _URI_ROLE))
        report = self.reports.get(uri)
        if report is not None:
            self.page.show_report(report)
            return
        self.page.show_reading(uri)
        skill = next((s for s in self.found.skills if s.uri == uri), None)
        if skill is not None and self.found.skills.index(skill) >= READ_AHEAD:
            self.controller.model.start(self._read([skill], self._generation), f"read {uri}")

    # ---------------------------------------------------------------- reading
    def _read_all(self) -> None:
        """Read every skill not read yet, in turn (once the tab is shown). Skills that
        change while a reading runs start a reading of their own; the older one stops."""
        if self._reading == self._generation:
            return
        ahead = self.found.skills[:READ_AHEAD]
        unread = [s for s in ahead if s.uri not in self.reports]
        if unread:
            self._reading = self._generation
            self.controller.model.start(self._read(unread, self._generation), "read skills")

    async def _read(self, skills: list[SkillEntry], generation: int) -> None:
        try:
            for skill in skills:
                server = self.controller.model.ready_server()
                if server is None or generation != self._generation:
                    return
                report = await inspect_skill(skill, server.read_resource)
                if generation != self._generation:
                    return
                self._show(report)
        finally:
            if self._reading == generation:
                self._reading = -1

    def _show(self, report: SkillReport) -> None:
        self.reports[report.skill.uri] = report
        row = self._row(report.skill.uri)
        if row is not None:
            row.setText(1, report.verdict())
            c = colors()
            if report.read_error is not None or report.count(Severity.ERROR):
                row.setForeground(1, c.error)
            elif report.count(Severity.WARNING):
                row.setForeground(1, c.warn)
            else:
                row.setForeground(1, c.ok)
            if row is self.panel.list.currentItem():
                self.page.show_report(report)

    def _read_file(self, uri: str) -> None:
        server = self.controller.model.ready_server()
        if server is None:
            self.page.show_file(uri, "Not connected: connect to read this file.")
            return

        async def read() -> None:
            try:
                result = await server.read_resource(uri)
            except Exception as exc:  # the server's failure, shown where the text goes
                self.page.show_file(uri, f"Could not read {uri}: {exc}")
                return
            text, why = read_text(result, uri)
            self.page.show_file(uri, text if text is not None else f"No text: {why}")

        self.controller.model.start(read(), f"read {uri}")
