"""The Save call dialog offers every assertion kind of the collection file: each added
from "Add assertion", checked as typed (a bad JSON Pointer, JSON value, regular expression
or type name is named and the dialog stays open), saved into the file (the catalog kinds
into the tool's catalog entry), then passing against the server it was saved from and
failing, each with its message, once the server drifted (the lint test server's
--break structured / schema-drift / no-weather)."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from inspector.collections.assertion_rows import KINDS
from inspector.collections.collection import (
    InputSchemaAssertion,
    OutcomeAssertion,
    OutputSchemaAssertion,
    PointerAssertion,
    ToolExistsAssertion,
)
from inspector.collections.file import load_collection
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import connected, python_profile, run, until
from tests.helpers.peers import PY, REPO, SERVERS
from tests.helpers.tabs import current_tab
from tests.ui.collections.test_ui_collections import call_tool, dialog_of, open_item

pytestmark = pytest.mark.timeout(120)

LINT_SERVER = str(SERVERS / "misbehaving" / "lint_server.py")


def _cli(collection: Path, *breaks: str) -> dict[str, Any]:
    argv = [PY, "-m", "inspector", "test", str(collection), "--json", "--", PY, LINT_SERVER]
    if breaks:
        argv += ["--break", ",".join(breaks)]
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=60, cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    assert report["exit_code"] == done.returncode
    return report


def _verdicts(report: dict[str, Any], name: str) -> dict[str, tuple[bool, str]]:
    [call] = [c for c in report["calls"] if c["name"] == name]
    return {
        json.dumps(a["assertion"], sort_keys=True): (a["passed"], a["message"])
        for a in call["assertions"]
    }


def test_every_kind_is_offered_checked_saved_and_judged(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    win = window
    target = tmp_path / "weather.collection.json"

    async def scenario() -> None:
        await connected(win, python_profile("lint", LINT_SERVER), listed=["tools"])
        try:
            await body()
        finally:
            await current_tab(win).controller.model.shutdown()

    async def body() -> None:
        view = open_item(win, "tools", "weather")
        assert isinstance(view, ToolCallView)
        await call_tool(view, {})
        assert view.request_save() is not None
        dialog = dialog_of(win)
        dialog.use_file(target)
        editor = dialog.assertion_editor
        # every kind of the file is offered, and all apply to this tool call
        offered = [a.text() for a in editor.menu.actions()]
        assert offered == [k.title for k in KINDS] and len(offered) == 10
        assert all(a.isEnabled() for a in editor.menu.actions())
        assert editor.kinds == ["outcome"]

        # bad input is named before saving, and the dialog stays open
        row = editor.add("contains")
        editor.set_row(row, pointer="structuredContent")
        assert "is not a JSON Pointer" in editor.problem.text()
        assert editor.problem.text().startswith("Assertion 2 (Value contains)")
        assert dialog.save() is None and dialog.isVisible()
        assert "assertion 2 is not valid" in dialog.error_label.text()
        assert not target.exists()
        editor.set_row(row, pointer="/structuredContent", value="{temp: 21.5}")
        assert "the value is not JSON" in editor.problem.text()
        editor.set_row(row, value='{"temp": 21.5}')
        assert editor.problem.isHidden()
        assert dialog.error_label.isHidden()  # the refused save's message went with it

        row = editor.add("matches")
        editor.set_row(row, pointer="/content/0/text", value="([0-9]")
        assert "is not a valid regular expression" in editor.problem.text()
        assert dialog.save() is None and dialog.isVisible()
        editor.set_row(row, value=r'"temp": 21\.5')
        row = editor.add("type")
        editor.set_row(row, pointer="/structuredContent/temp", value="float")
        assert "'float' is not a JSON type" in editor.problem.text()
        assert dialog.save() is None and dialog.isVisible()
        editor.set_row(row, value="number")
        for kind in ("outputSchema", "toolExists", "inputSchema"):
            editor.add(kind)  # type: ignore[arg-type]
        assert editor.problem.isHidden(), editor.problem.text()
        # two outcomes are one too many
        extra = editor.add("outcome")
        assert "a call has one outcome" in editor.problem.text()
        editor.table.selectRow(extra)
        editor.remove_selected()
        assert editor.problem.isHidden()
        dialog.name_edit.setText("weather now")
        assert dialog.save() is not None, dialog.error_label.text()

        calls = {c.name: c for c in load_collection(target).calls}
        assert list(calls) == ["catalog: weather", "weather now"]
        assert calls["weather now"].assertions == (
            OutcomeAssertion("ok"),
            PointerAssertion("/structuredContent", "contains", {"temp": 21.5}),
            PointerAssertion("/content/0/text", "matches", r'"temp": 21\.5'),
            PointerAssertion("/structuredContent/temp", "type", "number"),
            OutputSchemaAssertion(),
        )
        catalog = calls["catalog: weather"]
        assert catalog.kind == "catalog" and catalog.tool == "weather"
        assert catalog.assertions == (
            ToolExistsAssertion(True),
            InputSchemaAssertion({"type": "object"}),
        )

        # saved again: the catalog entry is updated, not duplicated
        assert view.request_save() is not None
        again = dialog_of(win)
        again.use_file(target)
        again.assertion_editor.add("toolExists")
        assert again.save() is not None
        names = [c.name for c in load_collection(target).calls]
        assert names == ["catalog: weather", "weather now", "weather"]

        # it passes in the Collections tab, over the connection it was saved from
        panel = current_tab(win).collections.panel
        await until(lambda: panel.path == target.absolute(), "the tab to open the file")
        task = panel.run_all()
        assert task is not None
        await task
        for r in panel.rows:
            assert r.result is not None and r.result.passed, r.result and r.result.failure_text()

    run(loop, scenario(), timeout=100)

    # The same file against the server after it changed: each assertion fails with why.
    assert _cli(target)["exit_code"] == 0
    drifted = _cli(target, "structured", "schema-drift")
    assert drifted["exit_code"] == 1
    weather = _verdicts(drifted, "weather now")
    assert weather['{"outcome": "ok"}'][0]
    failing = {
        '{"contains": {"temp": 21.5}, "pointer": "/structuredContent"}': "does not contain",
        '{"matches": "\\"temp\\": 21\\\\.5", "pointer": "/content/0/text"}': "does not match",
        '{"pointer": "/structuredContent/temp", "type": "number"}': "of type string",
        '{"outputSchema": "valid"}': "does not match the outputSchema",
    }
    for key, words in failing.items():
        passed, message = weather[key]
        assert not passed and words in message, (key, message)
    catalog = _verdicts(drifted, "catalog: weather")
    assert catalog['{"toolExists": true}'][0]
    passed, message = catalog['"inputSchema unchanged"']  # --json names a big one
    assert not passed and "the inputSchema changed" in message and "city" in message
    gone = _verdicts(_cli(target, "no-weather"), "catalog: weather")
    assert gone['{"toolExists": true}'] == (False, "the tool 'weather' is not listed")
