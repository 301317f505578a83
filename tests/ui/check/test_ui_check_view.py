"""The check view as a person reads it: run the checks on a server that prints a banner on
stdout, keeps running after its stdin closes, and has a prompt whose only valid argument
its completion offers; the rows and the detail pane say what the CLI says, the banner's
control characters escaped."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from inspector.ui.check.check_dialog import CheckDialog
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import python_profile, run, until
from tests.helpers.peers import SERVERS
from tests.helpers.tabs import current_tab


def test_the_check_view_shows_the_stdio_and_prompt_verdicts(
    loop: asyncio.AbstractEventLoop, window: MainWindow
) -> None:
    profile = python_profile(
        "banner server",
        str(SERVERS / "misbehaving" / "lint_server.py"),
        "--break",
        "banner,eof-after-work,typed-args",
    )

    async def scenario() -> None:
        dialog = CheckDialog(profile, current_tab(window).connection.start, None, window)
        dialog.show()
        QTest.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
        await until(lambda: dialog.report is not None, "the checks ran", timeout=90)
        model = dialog.model
        shown = {
            model.data(model.index(row, 1)): (
                model.data(model.index(row, 0)),
                model.data(model.index(row, 3)),
            )
            for row in range(model.rowCount())
        }
        mark, evidence = shown["stdio.stdout"]
        assert mark == "✘ failed"
        assert "4 before the first message" in evidence
        assert "before the first message: 'lint-breaker v1'" in evidence
        assert "'\\x1b[32mready\\x1b[0m: listening on stdio'" in evidence
        mark, evidence = shown["stdio.eof"]
        assert mark == "✘ failed"
        assert "still running 2 s after its stdin closed" in evidence
        assert "initialize → notifications/initialized → tools/list" in evidence
        assert "SIGTERM ended it" in evidence
        assert shown["prompts.get"] == ("✔ passed", "2 prompt(s) got")
        assert shown["resources.templates"] == ("✔ passed", "1 template(s) expanded and read")
        assert "2 failed" in dialog.summary.text()
        # a click on the row: the detail pane, the evidence in full, with the rule
        row = next(r for r in range(model.rowCount()) if model.results[r].id == "stdio.eof")
        cell = dialog.table.visualRect(model.index(row, 1)).center()
        QTest.mouseClick(dialog.table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
        await until(lambda: "stdio.eof" in dialog.detail.toPlainText(), "the detail pane")
        detail = dialog.detail.toPlainText()
        assert "result: failed" in detail and "SIGTERM ended it" in detail
        assert "rule: basic/lifecycle § Shutdown (stdio)" in detail
        assert "\x1b" not in detail + "".join(e for _m, e in shown.values())
        dialog.close()

    run(loop, scenario(), timeout=120)
