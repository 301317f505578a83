"""Journey (issue 28): a person runs an evals file against the demo tab in the Evals view.

Host ▸ Evals… (Ctrl+Shift+E); Open evals file… (a broken file first: its problems are said,
nothing runs); then a file of two cases the model stand-in answers the same way: one whose
expected call it makes (PASS, 2 of 2 runs), one whose answer lacks a word it must contain
(FAIL, with the reason of each run). Selecting the failing case shows why; the report is the
`eval` command's."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from inspector.features.providers.providers import ModelSettings
from inspector.ui.evals.evals_window import EvalsWindow
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.journeys import (
    DEMO_TITLE,
    click,
    click_row,
    press,
    row_texts,
    shows_connected,
    visible_window,
)
from tests.helpers.model_standin import model_standin, provider_for

pytestmark = pytest.mark.timeout(90)

SCRIPT = {
    "rules": [
        {
            "when": {"lastUserContains": "echo", "lastIsToolResult": False},
            "reply": {"toolCalls": [{"name": "echo", "arguments": {"message": "tulip"}}]},
        },
        {"when": {"lastUserContains": "echo"}, "reply": {"text": "It said {toolResult}."}},
    ]
}
EVALS = {
    "version": 1,
    "defaults": {"runs": 2},
    "cases": [
        {
            "name": "echoes the word",
            "prompt": "Please echo tulip",
            "expectedCalls": [{"tool": "echo", "arguments": {"message": "tulip"}}],
        },
        {"name": "names the city", "prompt": "Please echo a city", "answerContains": "Paris"},
    ],
}


def test_an_evals_file_runs_with_a_pass_and_a_fail(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    config_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"version": 1, "cases": [{"name": "x", "passRate": 2}]}')
    good = tmp_path / "evals.json"
    good.write_text(json.dumps(EVALS))
    chosen = [broken]
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *_a, **_k: (str(chosen[0]), ""))
    )

    async def scenario() -> None:
        tab = window.current_tab
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 11), "the demo's 11 tools")
        press(window, "Ctrl+Shift+E")
        await until(lambda: visible_window(EvalsWindow) is not None, "the Evals view")
        view = visible_window(EvalsWindow)
        assert isinstance(view, EvalsWindow)
        assert view.settings.ticked_tabs() == [DEMO_TITLE]
        assert view.settings.policy_key() == "all"

        click(view.open_button)  # a broken file: said, nothing to run
        assert view.status.text().startswith("The evals file cannot be used: ")
        assert '"passRate" must be a number from 0 to 1' in view.status.text()
        assert not view.run_button.isEnabled()

        chosen[0] = good
        click(view.open_button)
        assert view.file_label.text() == f"{good} · 2 case(s)"
        assert [r[:3] for r in row_texts(view.table)] == [
            ["echoes the word", "not run", "0/2"],
            ["names the city", "not run", "0/2"],
        ]
        click(view.run_button)
        await until(lambda: view.run_button.isEnabled(), "the runs to end", timeout=30)
        assert view.status.text() == "1 of 2 case(s) passed: 1 failed."
        rows = row_texts(view.table)
        assert [r[:4] for r in rows] == [
            ["echoes the word", "PASS", "2/2", "2 (pass rate 1)"],
            ["names the city", "FAIL", "0/2", "2 (pass rate 1)"],
        ]
        click_row(view.table, "names the city")
        assert view.reasons.toPlainText() == (
            "names the city:\nrun 1: the answer lacks 'Paris'\nrun 2: the answer lacks 'Paris'"
        )
        report = view.report_view.toPlainText()
        assert report.startswith("PASS  echoes the word")
        assert "FAIL  names the city" in report
        assert report.rstrip().endswith("2 cases: 1 passed, 1 failed — FAILED")
        view.close()

    with model_standin(SCRIPT) as standin:
        settings = ModelSettings()
        settings.providers.append(provider_for(standin))
        settings.save()
        run(loop, scenario(), timeout=60)
