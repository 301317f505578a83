"""One skill on screen: its name and URI, its findings (severity, field, sentence, rule),
and three tabs: the SKILL.md rendered as Markdown (no HTML, nothing loaded: images stay
blank, a link is never followed but a skill file's relative link opens that file), its
source as plain text (hidden characters shown escaped), and the skill's other files (read
when chosen, shown as plain text)."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtWidgets import (
    QListWidget,
    QPlainTextEdit,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.common.visible_text import visible_text
from inspector.features.skills.findings import Severity
from inspector.features.skills.inspect import SkillReport
from inspector.features.skills.rules import make_visible
from inspector.ui.content.panes import SafeMarkdownBrowser
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["RENDERED_CHARS", "SHOWN_CHARS", "SkillPage"]

SHOWN_CHARS: Final = 200_000  # of a SKILL.md's source (or a file) shown
RENDERED_CHARS: Final = 100_000  # of its body rendered as Markdown (layout is the slow part)
_EXACT: Final = Qt.MatchFlag.MatchExactly
_MARK: Final = {Severity.ERROR: "✖ error", Severity.WARNING: "⚠ warning", Severity.NOTE: "ℹ note"}


class SkillPage(QWidget):
    file_requested = Signal(str)  # a file's URI: read it and show it (`show_file`)

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("skillPage")
        self.report: SkillReport | None = None
        self.title = PlainLabel(wrap=True, selectable=True)
        self.title.setObjectName("skillTitle")
        bold = self.title.font()
        bold.setBold(True)
        bold.setPointSizeF(bold.pointSizeF() * 1.15)
        self.title.setFont(bold)
        self.uri = PlainLabel(wrap=True, selectable=True)
        self.uri.setObjectName("skillUri")
        self.verdict = PlainLabel(wrap=True)
        self.verdict.setObjectName("skillVerdict")
        # One finding a paragraph, wrapped: the sentence whole, then its rule.
        self.findings = QPlainTextEdit()
        self.findings.setObjectName("skillFindings")
        self.findings.setReadOnly(True)
        self.findings.setMaximumHeight(200)
        self.rendered = SafeMarkdownBrowser()
        self.rendered.setObjectName("skillRendered")
        self.rendered.anchorClicked.disconnect()  # never opens a browser from a skill
        self.rendered.anchorClicked.connect(self._link)
        self.source = QPlainTextEdit()
        self.source.setObjectName("skillSource")
        self.source.setReadOnly(True)
        self.files = QListWidget()
        self.files.setObjectName("skillFiles")
        self.files.currentTextChanged.connect(self._file_chosen)
        self.file_text = QPlainTextEdit()
        self.file_text.setObjectName("skillFileText")
        self.file_text.setReadOnly(True)
        self.file_text.setPlaceholderText("Choose a file to read it")
        files_page = QWidget()
        files_layout = QVBoxLayout(files_page)
        files_layout.setContentsMargins(0, 0, 0, 0)
        files_layout.addWidget(self.files, 1)
        files_layout.addWidget(self.file_text, 2)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("skillTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.rendered, "SKILL.md")
        self.tabs.setTabToolTip(
            0,
            "The instructions as Markdown, without HTML; images and links are never loaded "
            "(a link to one of the skill's files opens it in Files)",
        )
        self.tabs.addTab(self.source, "Source")
        self.tabs.addTab(files_page, "Files")
        self.link_note = PlainLabel(wrap=True, selectable=True)
        self.link_note.setObjectName("skillLinkNote")
        self.link_note.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.uri)
        layout.addWidget(self.verdict)
        layout.addWidget(self.findings)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.link_note)

    # ---------------------------------------------------------------- showing
    def show_reading(self, uri: str) -> None:
        self.report = None
        self.title.setText("Reading…")
        self.uri.setText(uri)
        self.verdict.setText("")
        self.findings.clear()
        self.rendered.set_markdown("")
        self.source.setPlainText("")
        self.files.clear()
        self.file_text.setPlainText("")
        self.link_note.hide()

    def show_report(self, report: SkillReport) -> None:
        skill = report.skill
        if self.report is None or self.report.skill.uri != skill.uri:
            self.tabs.setCurrentIndex(0)  # another skill: its SKILL.md first
        self.report = report
        name = report.fields.get("name")
        shown = name if isinstance(name, str) and name.strip() else skill.dir_name
        self.title.setText(visible_text(shown, keep=""))
        self.uri.setText(visible_text(skill.uri, keep=""))
        self.verdict.setText(self._verdict_text(report))
        self.findings.setPlainText(
            "\n".join(
                f"{_MARK[f.severity]} — {f.field}: {f.sentence}\n    rule: {f.rule}"
                for f in report.findings
            )
        )
        self.findings.setVisible(bool(report.findings))
        body = report.front.body if report.front is not None else report.text
        cut = "\n\n*(cut: the first 100,000 characters are rendered; Source shows more)*"
        cut = cut if len(body) > RENDERED_CHARS else ""
        self.rendered.set_markdown(make_visible(body[:RENDERED_CHARS]) + cut)
        self.source.setPlainText(make_visible(report.text[:SHOWN_CHARS]))
        self.files.clear()
        self.files.addItems([skill.file_path(uri) for uri in skill.files])
        self.tabs.setTabText(2, f"Files ({len(skill.files)})")
        self.file_text.setPlainText("")
        self.file_text.setPlaceholderText(
            "Choose a file to read it"
            if skill.files
            else "The server lists no other file of this skill (under its skill:// root)"
        )
        self.link_note.hide()

    @staticmethod
    def _verdict_text(report: SkillReport) -> str:
        if report.read_error is not None:
            return f"Could not be read: {report.read_error}"
        if not report.findings:
            return "Conforms to the Agent Skills spec and the Skills extension (SEP-2640)."
        size = f"; {report.size:,} characters" if report.cut else ""
        return f"{report.verdict()[:1].upper()}{report.verdict()[1:]}{size}."

    def show_file(self, uri: str, text: str) -> None:
        """A file's text (asked for by `file_requested`), if it is still the chosen one."""
        current = self.files.currentItem()
        if self.report is None or current is None:
            return
        if f"{self.report.skill.root}/{current.text()}" == uri:
            self.file_text.setPlainText(make_visible(text[:SHOWN_CHARS]))

    # ---------------------------------------------------------------- files and links
    def _file_chosen(self, path: str) -> None:
        if self.report is None or not path:
            return
        self.file_text.setPlainText("Reading…")
        self.file_requested.emit(f"{self.report.skill.root}/{path}")

    def _link(self, url: QUrl) -> None:
        """A relative link to one of the skill's files opens it in Files; any other link
        is shown, never followed (the skill is a server's text)."""
        target = url.toString()
        if self.report is not None and url.isRelative() and not target.startswith("#"):
            items = self.files.findItems(target.split("#", 1)[0].removeprefix("./"), _EXACT)
            if items:
                self.tabs.setCurrentIndex(2)
                self.files.setCurrentItem(items[0])
                return
        self.link_note.setText(f"Link not followed (a skill's links are not opened): {target}")
        self.link_note.show()
