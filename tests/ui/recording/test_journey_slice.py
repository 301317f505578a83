"""Journey (issue 27): a person opens a recorded session (gzip-compressed, in two rotated
parts), narrows its traffic log to the tools/ calls, exports the shown rows with File ▸
Export Slice… (and sees the same entry in a row's context menu), then opens the new file:
it shows just those calls, each with its answer, read-only. A live tab exports its own
traffic the same way. Every check is on what the window shows."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMenu

from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.journeys import (
    cells,
    click,
    click_tab,
    menu_action,
    right_click,
    row_texts,
    shows_connected,
    type_into,
)
from tests.helpers.session_lines import session_lines, write_parts
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)

METHODS = ["ping", "tools/list", "fail:tools/call", "prompts/list", "tools/call"]
_TABLE_METHOD = 4  # the Method column


def _methods_shown(window: MainWindow) -> list[str]:
    files = current_tab(window).session_files
    view = files.view
    if view is None:
        return []
    return [row[_TABLE_METHOD] for row in row_texts(view.log_panel.table)]


def test_export_the_shown_rows_of_an_opened_session_and_open_the_slice(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = session_lines(METHODS)[1:]
    first, _second = write_parts(tmp_path / "tap.jsonl", [lines[:6], lines[6:]], ".gz", "gzip")
    out = tmp_path / "tools-only.jsonl"
    chosen: dict[str, Path] = {"open": first, "save": out}
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *_a, **_k: (str(chosen["open"]), ""))
    )
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *_a, **_k: (str(chosen["save"]), ""))
    )
    tab = current_tab(window)
    bar = tab.status

    async def scenario() -> None:
        menu_action(window, "File", "Open Session…").trigger()
        await until(lambda: len(_methods_shown(window)) == 10, "the two parts' ten rows")
        assert window.windowTitle().startswith("tap.jsonl.gz (read-only recording)")
        view = tab.session_files.view
        assert view is not None
        assert "2 rotated parts read" in view.banner.detail.text()
        type_into(view.log_panel.method_edit, "tools/")
        await until(lambda: len(_methods_shown(window)) == 6, "the tools/ rows alone")

        # The row's context menu offers it too.
        table = view.log_panel.table
        right_click(table.viewport(), table.visualRect(table.model().index(0, 0)).center())
        menu = view.log_panel.row_menu_shown
        assert isinstance(menu, QMenu)
        texts = [a.text() for a in menu.actions()]
        assert "Export Shown Rows as Session…" in texts
        menu.close()

        menu_action(window, "File", "Export Slice…").trigger()
        await until(lambda: bar.currentMessage().startswith("Exported a slice"), "the export")
        assert bar.currentMessage() == (
            f"Exported a slice to {out}: 6 row(s), 6 of them frames, t 2.000–5.100 s"
        )

        # The new file opens like any session: the six rows, nothing else.
        click(view.banner.close_button)
        await until(lambda: tab.session_files.view is None, "the live view back")
        chosen["open"] = out
        menu_action(window, "File", "Open Session…").trigger()
        await until(lambda: len(_methods_shown(window)) == 6, "the slice's rows")
        assert window.windowTitle().startswith("tools-only.jsonl (read-only recording)")
        assert _methods_shown(window) == ["tools/list"] * 2 + ["tools/call"] * 4
        sliced = tab.session_files.view
        assert sliced is not None
        assert "a slice of tap.jsonl.gz" in sliced.banner.detail.text()
        kinds = [cells(sliced.log_panel.table, sliced.log_panel.table.model().index(r, 0))[2]
                 for r in range(6)]  # fmt: skip
        assert kinds[:4] == ["request", "response", "request", "error"]
        assert bar.currentMessage() == "Opened tools-only.jsonl (read-only)"

    run(loop, scenario(), timeout=60)


def test_a_live_tab_exports_its_shown_rows(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = tmp_path / "live-slice.jsonl.zst"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *_a, **_k: (str(out), ""))
    )
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *_a, **_k: (str(out), ""))
    )
    tab = current_tab(window)
    bar = tab.status

    async def scenario() -> None:
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 11), "the demo's 11 tools")
        click_tab(tab.centre, "Traffic")
        type_into(tab.log_panel.method_edit, "tools/list")
        await until(
            lambda: (
                [r[_TABLE_METHOD] for r in row_texts(tab.log_panel.table)]
                == ["tools/list", "tools/list"]
            ),
            "the tools/list rows",
        )
        menu_action(window, "File", "Export Slice…").trigger()
        await until(lambda: bar.currentMessage().startswith("Exported a slice"), "the export")
        assert "2 row(s), 2 of them frames" in bar.currentMessage()
        click(tab.bar.disconnect_button)
        menu_action(window, "File", "Open Session…").trigger()
        await until(lambda: len(_methods_shown(window)) == 2, "the slice's rows")
        assert _methods_shown(window) == ["tools/list", "tools/list"]
        view = current_tab(window).session_files.view  # a new tab: this one was in use
        assert view is not None
        assert "a slice of Demo server live session" in view.banner.detail.text()

    run(loop, scenario(), timeout=60)
