"""Journey (issue 30, Skills): a person connects to a server that exposes skills as
skill:// resources and declares the Skills extension (skills/list). A Skills tab appears
beside Workspace and Traffic; in it, each skill with its verdict (one known from skills/list
only, its listed digest wrong). The broken one says what is wrong in sentences; the good
one's SKILL.md reads as rendered Markdown (its frontmatter not shown as text, its image not
loaded), its relative link opens the file it names; hidden characters show as escapes.
Connected to the demo server, which exposes no skills, the tab has gone."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QTabWidget, QTextBrowser

from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import python_profile, run, until
from tests.helpers.journeys import (
    click,
    click_row,
    click_tab,
    row_texts,
    shows_connected,
    type_keys,
)
from tests.helpers.peers import SERVERS

pytestmark = [pytest.mark.timeout(90), pytest.mark.usefixtures("config_dir")]


def shown_tabs(tabs: QTabWidget) -> list[str]:
    bar = tabs.tabBar()
    return [bar.tabText(i) for i in range(bar.count()) if bar.isTabVisible(i)]


def test_skills_tab_lists_renders_and_judges_skills(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    window.store.put(
        python_profile(
            "Skills server", str(SERVERS / "misbehaving" / "skills_server.py"), "--extension"
        )
    )
    window.store.put(python_profile("Demo here", "-m", "inspector.demo"))

    async def scenario() -> None:
        tab = window.current_tab
        type_keys(tab.bar.profile_combo, "Skills")
        assert tab.bar.profile_combo.currentText() == "Skills server"
        assert "Skills" not in " ".join(shown_tabs(tab.centre))  # nothing before a server
        click(tab.bar.connect_button)
        await until(lambda: "Skills (9)" in shown_tabs(tab.centre), "the Skills tab")
        assert shown_tabs(tab.centre) == ["Workspace", "Traffic", "Skills (9)"]

        click_tab(tab.centre, "Skills")
        panel = tab.skills.panel
        page = panel.page
        assert panel.summary.text() == (
            "9 skills, 3 of them from skills/list (the server declares the Skills extension)."
        )
        await until(
            lambda: "not read yet" not in {row[1] for row in row_texts(panel.list)},
            "every skill's verdict",
        )
        verdicts = dict(row_texts(panel.list))
        assert verdicts["pdf-tools"] == "conforms"
        assert verdicts["bad-name"] == "3 errors, 1 note"
        assert verdicts["plain-notes"] == "1 error"
        assert verdicts["listed-only"] == "1 error"
        click_row(panel.list, "listed-only")
        assert "does not match its listed digest" in page.findings.toPlainText()

        click_row(panel.list, "bad-name")
        assert page.title.text() == "Bad_Name"
        assert page.verdict.text() == "3 errors, 1 note."
        findings = page.findings.toPlainText()
        assert "✖ error — name: 'name' 'Bad_Name' has upper-case letters; it must be" in findings
        assert "rule: Agent Skills spec § name field" in findings

        click_row(panel.list, "pdf-tools")
        assert page.verdict.text() == (
            "Conforms to the Agent Skills spec and the Skills extension (SEP-2640)."
        )
        assert not page.findings.isVisible()
        rendered = page.rendered.toPlainText()
        assert rendered.startswith("PDF tools\nRead the forms guide before filling a form.")
        assert "name: pdf-tools" not in rendered and "example.invalid" not in rendered
        assert "name: pdf-tools" in page.source.toPlainText()  # the source, as sent
        # The forms guide link opens the skill's file, read from the server.
        click_text(page.rendered, "forms guide")
        assert page.tabs.tabText(page.tabs.currentIndex()) == "Files (2)"
        await until(lambda: page.file_text.toPlainText().startswith("# Forms"), "FORMS.md")

        click_row(panel.list, "hidden-text")
        assert page.tabs.tabText(page.tabs.currentIndex()) == "SKILL.md"
        assert "Write a short summary.\\u200b\\u200b\\U000e0049" in page.rendered.toPlainText()
        assert "'description' holds 1 character(s) a person cannot see" in (
            page.findings.toPlainText()
        )

        # A server without skills: no Skills tab.
        type_keys(tab.bar.profile_combo, "Demo")
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 11), "the demo's 11 tools")
        await until(lambda: shown_tabs(tab.centre) == ["Workspace", "Traffic"], "no Skills tab")
        click(tab.bar.disconnect_button)
        await until(lambda: tab.bar.state_label.text() != "Connected", "disconnected")

    run(loop, scenario(), timeout=60)


def click_text(browser: QTextBrowser, text: str) -> None:
    """A left click in the middle of `text` where the browser draws it."""
    found = browser.document().find(text)
    assert not found.isNull(), f"{text!r} is not shown"
    cursor = QTextCursor(browser.document())
    cursor.setPosition(found.selectionStart() + len(text) // 2)
    point = browser.cursorRect(cursor).center()
    QTest.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=point)
