"""Journey (issue 26): compare two servers open in two tabs, as a person does. The demo
server in one tab, server-everything in another (Ctrl+T ▸ saved profile); right-click the
demo's tab ▸ Compare with ▸ the other; read the summary and the rows of differences; click
the `echo` tool to read what changed in it; hide the unchanged items; then Run on both:
type a message for `echo`, click the button, read where the answers differ."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMenu

from inspector.ui.compare.compare_window import CompareWindow
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.journeys import (
    DEMO_TITLE,
    EVERYTHING_TITLE,
    click,
    click_row,
    click_tab,
    everything_profile,
    field_edit,
    open_tab_with,
    right_click,
    row_texts,
    shows_connected,
    tab_titles,
    type_into,
    type_keys,
    visible_window,
)

pytestmark = [pytest.mark.timeout(120), pytest.mark.peers]


def test_compare_the_demo_with_everything_from_the_tab_menu(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    everything_command: list[str],
    tmp_path: Path,
) -> None:
    window.store.put(everything_profile(everything_command, tmp_path))

    async def scenario() -> None:
        demo_tab = window.current_tab
        click(demo_tab.bar.connect_button)
        await until(lambda: shows_connected(demo_tab, 11), "the demo's 11 tools")
        other = await open_tab_with(window, "Everything")
        await until(lambda: shows_connected(other, 17), "everything's 17 tools")
        assert tab_titles(window.tabs) == [DEMO_TITLE, EVERYTHING_TITLE]

        # Right-click the demo's tab: Rename…, Compare with ▸, Close tab.
        bar = window.tabs.tabBar()
        right_click(bar, bar.tabRect(0).center())
        menu = window.strip.menu
        assert isinstance(menu, QMenu)
        await until(menu.isVisible, "the tab's menu")
        entries = [a.text().replace("&", "") for a in menu.actions() if a.text()]
        assert entries == ["Rename…", "Compare with", "Close tab"]
        compare_with = next(a.menu() for a in menu.actions() if a.menu() is not None)
        assert isinstance(compare_with, QMenu)
        assert [a.text() for a in compare_with.actions()] == [EVERYTHING_TITLE]
        menu.hide()
        compare_with.actions()[0].trigger()  # the person picks the other tab

        await until(lambda: visible_window(CompareWindow) is not None, "the compare window")
        compare = visible_window(CompareWindow)
        assert isinstance(compare, CompareWindow)
        try:
            await until(lambda: compare.summary.text().startswith("Differences:"), "the diff")
            assert compare.windowTitle().startswith(f"Compare: {DEMO_TITLE} ↔ {EVERYTHING_TITLE}")
            assert compare.left_label.text().startswith(f"Left: {DEMO_TITLE}")
            assert "tools: 11" in compare.left_label.text()
            assert "tools: 17" in compare.right_label.text()
            assert compare.summary.text() == (
                "Differences: 29 added, 16 removed, 1 changed, server info differs."
            )
            rows = {r[0]: r[1] for r in row_texts(compare.tree)}
            assert rows["echo"].startswith("~ changed")
            assert rows["get-sum"] == "+ added"
            assert rows["ask_llm"] == "− removed"
            assert rows["Tools (27)"].startswith("16 added")

            # The changed tool: what changed in its definition, path by path.
            click_row(compare.tree, "echo")
            changes = compare.detail.paths.toPlainText()
            assert '~ /title: "Echo" → "Echo Tool"' in changes
            assert '+ /execution: {"taskSupport": "forbidden"}' in changes

            # Hide what is the same on both: only differences are left.
            click(compare.show_same)
            assert not compare.show_same.isChecked()
            assert all(not r[1].startswith("= same") for r in row_texts(compare.tree) if r[1])

            # Run on both: the echo tool with a message typed in its form.
            click_tab(compare.tabs, "Run on both")
            panel = compare.run_both
            assert panel.isVisible()
            if panel.name.currentText() != "echo":
                type_keys(panel.name, "echo")
            assert panel.name.currentText() == "echo"
            type_into(field_edit(panel.form, "message"), "same words")
            click(panel.button)
            await until(lambda: panel.status.text().startswith("The answers"), "both answers")
            assert panel.status.text() == "The answers differ in 1 place(s)."
            assert panel.left_status.text().startswith(f"{DEMO_TITLE}: answered in")
            assert panel.right_status.text().startswith(f"{EVERYTHING_TITLE}: answered in")
        finally:
            compare.close()

    run(loop, scenario(), timeout=90)
