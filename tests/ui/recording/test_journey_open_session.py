"""Journey (issue 27): a person opens a recorded session file with File ▸ Open Session,
reads its first rows while the rest is indexed, filters the log by a word, finds a message
with Ctrl+F, and opens a file cut off by a crash, which says where it broke. Every check is
on what the window shows."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.recording.format import connection_summary, header_line, plain_frame_lines
from inspector.recording.index import indexed_loader
from inspector.traffic.record import TrafficRecord, kind_of
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.journeys import (
    cells,
    click_tab,
    menu_action,
    press,
    tab_titles,
    type_into,
)

pytestmark = pytest.mark.timeout(60)

MESSAGES = 3000


def _record(direction: str, raw: str, t: float) -> TrafficRecord:
    frame = parse_frame(raw)
    return TrafficRecord(direction, kind_of(frame), raw, 1000 + t, 1.7e9 + t, "stdio", frame=frame)  # type: ignore[arg-type]


def write_flood(path: Path) -> Path:
    """A recording as the app writes one: a handshake, a tool call, a flood of logs."""
    header = header_line(
        connection_summary(transport="stdio", command="flood", name="Flood server"),
        era="legacy",
        client_info={},
        client_capabilities={},
    )
    records = [
        _record("out", '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}', 0.01),
        _record("in", '{"jsonrpc":"2.0","id":1,"result":{"capabilities":{}}}', 0.02),
        _record(
            "out", '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"f"}}', 0.03
        ),
    ]
    for n in range(MESSAGES):
        level = "warning" if n % 1000 == 7 else "info"
        data = {"level": level, "logger": "flood", "data": f"flood line {n} of the Benchmark"}
        raw = json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": data})
        records.append(_record("in", raw, 0.04 + n / 1e5))
    records.append(_record("in", '{"jsonrpc":"2.0","id":2,"result":{"content":[]}}', 1.0))
    lines = [json.dumps(header), *(line or "" for line in plain_frame_lines(records, 1000))]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_recording_opens_at_once_filters_finds_and_says_where_it_broke(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = write_flood(tmp_path / "flood.jsonl")
    chosen: list[str] = [str(path)]
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *_a, **_k: (chosen[0], ""))
    )
    # Small slices, so the file is indexed in many steps as a big one is.
    monkeypatch.setattr(indexed_loader, "SLICE_BYTES", 16_000)
    files = window.current_tab.session_files
    total = MESSAGES + 4

    async def scenario() -> None:
        menu_action(window, "File", "Open Session…").trigger()
        await until(lambda: files.view is not None, "the recording to be shown")
        view = files.view
        assert view is not None
        await until(lambda: view.rows() > 0, "its first rows")
        await until(
            lambda: view.banner.progress.text() == f"Indexed: {total:,} messages", "indexed"
        )
        log = view.log_panel
        bar = log.table.verticalScrollBar()
        assert bar.maximum() > 0 and bar.value() == bar.maximum()  # it followed to the end
        assert cells(log.table, log.model.index(0, 0))[4] == "initialize"
        assert log.count_label.text() == f"{total:,} messages"
        titles = tab_titles(view.bottom)
        assert f"Notifications ({MESSAGES})" in titles and "Timeline" in titles
        assert view.timeline_panel.frames.text() == f"2 sent, {MESSAGES + 2:,} received"

        # A word in the bodies, lower case: any case matches.
        type_into(log.text_edit, "line 2345 of the benchmark")
        await until(lambda: log.count_label.text() == f"1 of {total:,} messages", "filtered")
        row = cells(log.table, log.model.index(0, 0))
        assert row[4] == "notifications/message" and "flood line 2345" in row[5]
        type_into(log.text_edit, "Benchmark")  # a capital: exact case
        await until(lambda: log.count_label.text() == f"{MESSAGES:,} of {total:,} messages", "all")
        type_into(log.text_edit, "BENCHMARK")
        await until(lambda: log.count_label.text() == f"0 of {total:,} messages", "none")
        log.text_edit.clear()
        await until(lambda: log.count_label.text() == f"{total:,} messages", "unfiltered")

        # Find (Ctrl+F acts on the recording shown), then Enter.
        press(log.table, "Ctrl+F")
        assert log.search_bar.isVisible()
        type_into(log.search_edit, "flood line 2999 ")
        press(log.search_edit, "Return")
        await until(
            lambda: log.search_status.text() == f"match 1 of 1 · row {total - 1:,} of {total:,}",
            "found",
        )
        assert "flood line 2999" in log.detail.pretty.toPlainText()
        click_tab(log.detail.tabs, "Raw")  # filled when shown
        assert "flood line 2999" in log.detail.raw.toPlainText()

        # A file cut off by a crash, in the middle of a line.
        data = path.read_bytes()
        cut = tmp_path / "cut.jsonl"
        cut.write_bytes(data[: len(data) // 2])
        last_line = data[: len(data) // 2].count(b"\n") + 1
        offset = data[: len(data) // 2].rfind(b"\n") + 1
        chosen[0] = str(cut)
        menu_action(window, "File", "Open Session…").trigger()
        await until(
            lambda: window.current_tab.session_files.view not in (None, view), "the cut file"
        )
        cut_view = window.current_tab.session_files.view
        assert cut_view is not None
        await until(lambda: cut_view.complete, "the cut file indexed")
        said = f"line {last_line} (byte offset {offset:,}) is incomplete"
        assert cut_view.banner.problems.isVisible() and said in cut_view.banner.problems.text()
        assert said in window.statusBar().currentMessage()
        assert cut_view.rows() == last_line - 2

    run(loop, scenario())
