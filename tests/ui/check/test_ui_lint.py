"""Lint in the window: a server that breaks rules gets badges on its rows, the findings in
the detail pane's Lint tab and in the Lint tab with counts per rule; the session's protocol
violations are findings of that list too; "Check server" shows the check report; an offline
session shows the recorded findings."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from inspector.check.report import Status
from inspector.recording.offline import load_offline
from inspector.recording.reader import read_session
from inspector.ui.check.check_dialog import CheckDialog
from inspector.ui.recording.offline_view import OfflineView
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.traffic.traffic_model import COL_KIND
from tests.helpers.gui import connected, python_profile, run, until
from tests.helpers.peers import SERVERS
from tests.helpers.tabs import current_tab

BREAKS = "tool-name,dup-names,input-schema,undeclared-log,log-level,notify-reply"


def lint_profile(breaks: str = BREAKS):  # type: ignore[no-untyped-def]
    return python_profile(
        "lint breaker", str(SERVERS / "misbehaving" / "lint_server.py"), "--break", breaks
    )


def test_findings_in_the_log_the_detail_pane_and_the_lint_tab(
    loop: asyncio.AbstractEventLoop, window: MainWindow
) -> None:
    async def scenario() -> None:
        await connected(window, lint_profile(), listed=["tools"])
        store = current_tab(window).connection.lint
        await until(lambda: store.counts.get("tool-name-format"), "the tools list linted")
        await until(
            lambda: current_tab(window).lint_panel.rules.rowCount() > 4,
            "the Lint tab recounted",
            timeout=5,
        )
        # the Lint tab: counts per rule
        rules = {r[0]: r[1] for r in current_tab(window).lint_panel.rules.rows}
        assert rules["tool-name-format"] == 1 and rules["unique-names"] == 1
        assert rules["input-schema-invalid"] == 1 and rules["schema.enum"] == 1
        assert rules["undeclared-capability"] == 1 and rules["response-to-notification"] == 1
        assert (
            current_tab(window)
            .bottom.tabText(current_tab(window).bottom.indexOf(current_tab(window).lint_panel))
            .startswith("Lint (")
        )
        # the log: a badge on the row
        [row] = [f.index for f in store.findings if f.rule == "tool-name-format"]
        model = current_tab(window).log_panel.model
        model.flush()
        shown = model.row_of(row)
        assert shown is not None
        assert "⚑" in model.data(model.index(shown, COL_KIND))
        # the detail pane: pointer, rule, value
        current_tab(window).log_panel.select_entry(row)
        detail = current_tab(window).log_panel.detail
        text = detail.lint_view.toPlainText()
        assert "tool-name-format" in text and "/result/tools/2/name" in text
        assert '"bad name!"' in text and "Tool names" in text
        assert detail.tabs.tabText(detail.tabs.indexOf(detail.lint_view)).startswith("Lint (")
        assert "lint finding(s)" in detail.header.text()
        # picking a rule narrows the findings; a double-click shows the message
        panel = current_tab(window).lint_panel
        rule_row = next(i for i, r in enumerate(panel.rules.rows) if r[0] == "unique-names")
        panel.rule_table.selectRow(rule_row)
        panel.findings.flush()
        assert panel.findings.rowCount() == 1
        assert panel.findings.finding(0).pointer == "/result/tools/3/name"
        panel._activated(panel.findings.index(0, 0))
        assert (
            current_tab(window).log_panel.selected_entry().index == panel.findings.finding(0).index
        )
        await current_tab(window).controller.model.shutdown()

    run(loop, scenario(), timeout=60)


def test_a_big_catalogs_findings_read_as_a_person_reads_them(
    loop: asyncio.AbstractEventLoop, window: MainWindow
) -> None:
    """Issue 27, big catalogs: a gateway's 1,200 tools are linted in slices behind the
    window; once done, the Lint tab (clicked) counts every finding of the listing, the
    log's tools/list row has its ⚑ badge, and its detail pane's Lint tab reads them."""
    profile = python_profile(
        "gateway",
        str(SERVERS / "misbehaving" / "lint_server.py"),
        "--many",
        "1200",
        "--break",
        "tool-name,dup-names,input-schema",
    )

    async def scenario() -> None:
        await connected(window, profile, listed=["tools"])
        tab = current_tab(window)
        assert len(tab.controller.model.catalog.tools) == 1205
        bar = tab.bottom.tabBar()
        QTest.mouseClick(
            bar,
            Qt.MouseButton.LeftButton,
            pos=bar.tabRect(tab.bottom.indexOf(tab.lint_panel)).center(),
        )
        panel = tab.lint_panel
        await until(
            lambda: (
                panel.summary.text().startswith("3 finding(s) in 1 message(s)")
                and "Still" not in panel.summary.text()
            ),
            "the Lint tab to count the listing's findings",
        )
        rules = {r[0]: r[1] for r in panel.rules.rows}
        assert rules["tool-name-format"] == rules["unique-names"] == 1
        assert rules["input-schema-invalid"] == 1
        assert tab.bottom.tabText(tab.bottom.indexOf(panel)) == "Lint (3)"
        model = tab.log_panel.model
        model.flush()
        [listing] = [
            e.index
            for e in tab.traffic.entries
            if e.direction == "in" and e.kind == "response" and e.method == "tools/list"
        ]
        assert model.data(model.index(model.row_of(listing), COL_KIND)).startswith("⚑3 ")
        tab.log_panel.select_entry(listing)
        text = tab.log_panel.detail.lint_view.toPlainText()
        assert "Still" not in text
        for rule in ("tool-name-format", "unique-names", "input-schema-invalid"):
            assert f"⚑ {rule}" in text
        await tab.controller.model.shutdown()

    run(loop, scenario(), timeout=90)


def test_the_lint_tab_says_how_far_a_big_listing_is(qapp: object) -> None:
    """While a big listing is linted in slices, the Lint tab says so, truthfully."""
    from inspector.lint.finding import Finding, LintStore
    from inspector.ui.check.lint_panel import LintPanel

    store = LintStore()
    panel = LintPanel(store)
    store.add([], checked=4)
    store.set_progress(3, (3200, 10_000, "tools"))
    panel.refresh()
    assert panel.summary.text() == (
        "No findings: 4 server message(s) linted. Still linting 3,200 of 10,000 tools (row #3)…"
    )
    store.add([Finding(2, "unique-names", "name 'a' is listed twice")])
    store.deferred.add(5)
    panel.refresh()
    assert panel.summary.text() == (
        "1 finding(s) in 1 message(s), 4 server message(s) linted. "
        "1 message(s) over 1 MiB: linted when selected. "
        "Still linting 3,200 of 10,000 tools (row #3)…"
    )
    store.deferred.clear()
    store.clear()
    store.add([], checked=4)
    store.set_progress(3, None)
    store.add([], checked=1)
    panel.refresh()
    assert panel.summary.text() == "No findings: 5 server message(s) linted."


def test_a_protocol_violation_is_a_finding_in_the_lint_tab(
    loop: asyncio.AbstractEventLoop, window: MainWindow
) -> None:
    """Issue 26, item 10: a JSON-RPC batch in 2025-06-18 is a violation the session flags;
    the Lint tab counts it with a rule id, and its row gets the badge."""

    async def scenario() -> None:
        profile = python_profile("hostile", str(SERVERS / "misbehaving" / "server.py"))
        profile.stdio.args += ["--mode", "hostile"]
        await connected(window, profile, listed=["tools"])
        tab = current_tab(window)
        server = tab.connection.ready_server()
        assert server is not None
        await server.call_tool("batch", {})
        store = tab.connection.lint
        await until(lambda: store.counts.get("protocol.batch"), "the violation as a finding")
        panel = tab.lint_panel
        await until(lambda: len(panel.rules.rows) == 2, "the Lint tab recounted", timeout=5)
        assert panel.rules.rows[1][:2] == ("protocol.batch", 1)
        assert panel.summary.text().startswith("1 finding(s) in 1 message(s), ")
        assert tab.bottom.tabText(tab.bottom.indexOf(panel)) == "Lint (1)"
        [finding] = store.findings
        model = tab.log_panel.model
        model.flush()
        row = model.row_of(finding.index)
        assert row is not None
        assert model.data(model.index(row, COL_KIND)).startswith("⚑1 ")
        assert model.entry_at(row).method == "notifications/message"  # the batch's first
        # The Errors tab still lists it, on the same row.
        [error] = [e for e in tab.connection.errors.items if e.category == "protocol violation"]
        assert error.entry_index == finding.index
        await tab.controller.model.shutdown()

    run(loop, scenario(), timeout=60)


def test_check_server_shows_the_report(loop: asyncio.AbstractEventLoop, window: MainWindow) -> None:
    async def scenario() -> None:
        dialog = CheckDialog(
            lint_profile("no-ping,unknown-tool"), current_tab(window).connection.start, None, window
        )
        dialog.show()
        task = dialog.run()
        assert task is not None
        await asyncio.wait_for(task, 90)
        report = dialog.report
        assert report is not None
        failed = {r.id for r in report.results if r.status is Status.FAILED}
        assert failed == {"errors.ping", "errors.unknown-tool"}
        assert dialog.model.rowCount() == len(report.results)
        assert "2 failed" in dialog.summary.text()
        row = next(i for i, r in enumerate(dialog.model.results) if r.id == "errors.ping")
        assert dialog.model.data(dialog.model.index(row, 0)) == "✘ failed"
        dialog.table.selectRow(row)
        assert "rule: basic/utilities/ping" in dialog.detail.toPlainText()
        dialog.close()

    run(loop, scenario(), timeout=120)


def test_an_offline_session_shows_its_findings(
    loop: asyncio.AbstractEventLoop, window: MainWindow, tmp_path: Path
) -> None:
    async def scenario() -> Path:
        await connected(window, lint_profile("tool-name,dup-names"), listed=["tools"])
        store = current_tab(window).connection.lint
        await until(lambda: len(store) >= 2, "the tools list linted")
        target = tmp_path / "saved.jsonl"
        recording = current_tab(window).connection.recording
        assert recording is not None
        recording.write_live(target)
        # the session's own recording got the findings as they were found
        live = recording.recorder.recorder
        assert live is not None

        def recorded_rules() -> set[str]:
            lines = live.path.read_text(encoding="utf-8").splitlines()
            return {json.loads(line).get("rule") for line in lines if '"type":"lint"' in line}

        await until(
            lambda: recorded_rules() == {"tool-name-format", "unique-names"},
            "the findings in the live recording",
        )
        await current_tab(window).controller.model.shutdown()
        return target

    target = run(loop, scenario(), timeout=60)
    offline = load_offline(read_session(target))
    assert offline.lint.counts == {"tool-name-format": 1, "unique-names": 1}
    view = OfflineView(offline)
    assert view.bottom.tabText(view.bottom.indexOf(view.lint_panel)) == "Lint (2)"
    row = offline.lint.findings[0].index
    view.log_panel.select_entry(row)
    assert "tool-name-format" in view.log_panel.detail.lint_view.toPlainText()
