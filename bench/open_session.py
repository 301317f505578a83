"""Benchmark: opening a big session file (File ▸ Open Session), lazily, through its index.

Makes a recording in the recorder's exact format (a handshake, a tool call, N logging
notifications from a flood, its result: what `cli --record` on bench/log_flood.py's server
writes), then measures, each as a RATIO to a floor measured in the same run (the machine
is shared and noisy: compare ratios):

* first rows: File ▸ Open Session's call in the real window (offscreen) to rows in the log
  table's model, against the target of 1 s (and the floor: json.loads of the first 20,000
  lines, what an eager reader needs before showing anything of a 20,000-line file);
* full index in the window (slices on the event loop), and the index alone in a fresh
  process, against the floor: `json.loads` of every line;
* the event loop's longest stall while the window indexes (a 10 ms timer's lateness);
* memory: the fresh process's anonymous RSS after indexing, per message (target < 300 B),
  and its total RSS (which also counts the mapped file's pages: the page cache);
* filters and find over all rows (direction, method, texts: a method name, a word in the
  bodies, ignoring case, with a capital, with a quote, non-ASCII, one in every row),
  against the same filter over an in-memory log of the same texts (the live log's);
* the older format (frame lines without method and id: every line parsed), as a figure;
* with --ten-million, a 10,000,000-message file (about 2.8 GB): index time and memory.

    QT_QPA_PLATFORM=offscreen python bench/open_session.py [--messages 1000000] [--ten-million]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QSettings, QTimer

from inspector.protocol.wire.jsonrpc import Notification, parse_frame
from inspector.recording.format import connection_summary, header_line, plain_frame_lines
from inspector.recording.index.indexed_loader import FIRST_BYTES, IndexedLoader
from inspector.settings.profiles import ProfileStore
from inspector.storage.secrets import SecretStore
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord, kind_of
from inspector.ui.shell.event_loop import run_qt_async
from inspector.ui.shell.gui_command import build_gui_app, settle_heap
from inspector.ui.shell.main_window import MainWindow

T0 = 1000.0
FLOOD = (
    '{"jsonrpc":"2.0","method":"notifications/message",'
    '"params":{"level":"%s","logger":"flood","data":"flood line %d of the benchmark%s"}}'
)
NEEDLES = [
    ("a method name", "tools/call"),
    ("a word in the bodies", "line 123456 "),
    ("ignoring case", "flood line 99999"),
    ("with a capital", "Benchmark"),
    ("with a quote", '"level":"warning"'),
    ("non-ASCII", "café"),
    ("in every row", "jsonrpc"),
]


def _record(direction: str, raw: str, t: float) -> TrafficRecord:
    frame = parse_frame(raw)
    return TrafficRecord(direction, kind_of(frame), raw, T0 + t, 1.7e9 + t, "stdio", frame=frame)  # type: ignore[arg-type]


def make_recording(path: Path, n: int, *, old: bool = False) -> None:
    """N logging notifications between a handshake and a tool result, as the recorder
    writes them (its own line formatter); `old`: without the method and id fields."""
    header = header_line(
        connection_summary(transport="stdio", command="flood"),
        era="legacy",
        client_info={"name": "bench"},
        client_capabilities={},
        protocol_version="2025-06-18",
    )
    head = [
        _record("out", '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}', 0.001),
        _record("in", '{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{}}}}', 0.002),
        _record("out", '{"jsonrpc":"2.0","id":2,"method":"tools/list"}', 0.003),
        _record("in", '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"flood"}]}}', 0.004),
        _record(
            "out", '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"f"}}', 0.005
        ),
    ]
    strip = re.compile(r'"kind":"(\w+)","method":"[^"]*",')
    strip_id = re.compile(r'"id":(\d+),"text"')

    def out(lines: list[str | None]) -> str:
        text = "\n".join(line or "" for line in lines) + "\n"
        if old:
            text = strip_id.sub('"text"', strip.sub(r'"kind":"\1",', text))
        return text

    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps(header, separators=(",", ":")) + "\n")
        f.write(out(plain_frame_lines(head, T0)))
        batch: list[TrafficRecord] = []
        for i in range(n):
            level, extra = ("warning", " café") if i % 50_000 == 7 else ("info", "")
            raw = FLOOD % (level, i, extra)
            t = 0.01 + i * 2e-6
            frame = Notification("notifications/message", None)
            batch.append(
                TrafficRecord("in", "notification", raw, T0 + t, 1.7e9 + t, "stdio", frame=frame)
            )
            if len(batch) == 20_000:
                f.write(out(plain_frame_lines(batch, T0)))
                batch = []
        if batch:
            f.write(out(plain_frame_lines(batch, T0)))
        result = '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"done"}]}}'
        f.write(out(plain_frame_lines([_record("in", result, 0.02 + n * 2e-6)], T0)))


def json_floor(path: Path, limit: int | None = None) -> float:
    """json.loads of every line (of the first `limit`): what an eager reader must do."""
    started = time.perf_counter()
    with path.open("rb") as f:
        for n, line in enumerate(f):
            json.loads(line)
            if limit is not None and n >= limit:
                break
    return time.perf_counter() - started


def _status(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def index_in_fresh_process(path: Path) -> dict[str, Any]:
    """The index alone, in a new process: its time, and memory after it."""
    done = subprocess.run(
        [sys.executable, __file__, "--index-only", str(path)],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ),
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def index_only(path: Path) -> None:
    anon0, rss0 = _status("RssAnon"), _status("VmRSS")
    started = time.perf_counter()
    indexer = IndexedLoader([path])
    first = indexer.step(FIRST_BYTES)  # as the window does
    first_s = time.perf_counter() - started
    indexer.run()
    elapsed = time.perf_counter() - started
    rows = len(indexer.traffic)
    print(
        json.dumps(
            {
                "seconds": elapsed,
                "first_slice": first_s if not first else elapsed,
                "rows": rows,
                "anon_per_row": (_status("RssAnon") - anon0) / rows,
                "rss_per_row": (_status("VmRSS") - rss0) / rows,
                "anon_mb": _status("RssAnon") / 1e6,
                "rss_mb": _status("VmRSS") / 1e6,
            }
        )
    )


def in_memory_copy(log: TrafficLog) -> TrafficLog:
    """The same rows in a live (list-backed) log: the floor for filters."""
    copy = TrafficLog()
    copy._raw = [log._raw[i] for i in range(len(log))]
    for name in ("_mono", "_wall", "_size", "_latency", "_pairs", "_method", "_kind", "_dir"):
        setattr(copy, name, getattr(log, name)[:])
    copy._flags = log._flags[:]
    copy._id = log._id[:]
    copy._method_names = list(log._method_names)
    copy._method_codes = dict(log._method_codes)
    return copy


def timed(fn: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    value = fn()
    return time.perf_counter() - started, value


async def through_the_window(path: Path, n: int) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="open-session-"))
    settings = QSettings(str(tmp / "window.ini"), QSettings.Format.IniFormat)
    settings.setValue("recording/enabled", False)
    window = MainWindow(
        build_gui_app(ProfileStore(tmp / "p.json", SecretStore()), settings), settings
    )
    window.show()
    settle_heap()
    await asyncio.sleep(0.2)
    files = window.current_tab.session_files
    clock = QElapsedTimer()
    clock.start()
    worst = [0.0]
    last = [clock.nsecsElapsed()]

    def tick() -> None:
        now = clock.nsecsElapsed()
        worst[0] = max(worst[0], (now - last[0]) / 1e9 - 0.010)
        last[0] = now

    probe = QTimer()
    probe.setInterval(10)
    probe.timeout.connect(tick)
    started = time.perf_counter()
    files.open_session(path)  # what the menu's slot calls with the chosen path
    probe.start()
    while files.view is None or files.view.log_panel.model.rowCount() == 0:
        files.view is not None and files.view.log_panel.model.flush()
        await asyncio.sleep(0.001)
    first_rows = time.perf_counter() - started
    view = files.view
    while not view.complete:
        await asyncio.sleep(0.01)
    indexed = time.perf_counter() - started
    probe.stop()
    log = view.offline.traffic
    memory = in_memory_copy(log)
    filters: list[tuple[str, float, float, int]] = []
    cases = [
        ("direction: out", TrafficFilter(directions=frozenset({"out"}))),
        ("method: tools", TrafficFilter(method="tools")),
    ]
    cases += [(f"text, {what}: {needle!r}", TrafficFilter(text=needle)) for what, needle in NEEDLES]
    for label, flt in cases:
        lazy_s, found = timed(lambda flt=flt: log.filter_indices(flt))
        floor_s, same = timed(lambda flt=flt: memory.filter_indices(flt))
        assert found == same, label
        filters.append((label, lazy_s, floor_s, len(found)))
    panel = view.log_panel
    shown_s, _ = timed(
        lambda: (panel.model.set_filter(TrafficFilter(text="line 123456 ")), panel.model.flush())
    )
    answers = []
    probe.start()
    for what, needle in NEEDLES:
        # The table's text filter: its first rows, then the rest a slice per turn.
        panel.model.set_filter(TrafficFilter())
        worst[0], last[0] = 0.0, clock.nsecsElapsed()
        started = time.perf_counter()
        panel.model.set_filter(TrafficFilter(text=needle))
        first_s = time.perf_counter() - started
        while panel.model.catching_up:
            await asyncio.sleep(0)
        filter_all, filter_stall = time.perf_counter() - started, worst[0]
        # Find: the nearest match first, then the count a slice per turn.
        panel.model.set_filter(TrafficFilter())
        panel.table.clearSelection()
        panel.table.setCurrentIndex(panel.model.index(-1, 0))
        panel.show_search()
        panel.search_edit.setText(needle)
        worst[0], last[0] = 0.0, clock.nsecsElapsed()
        started = time.perf_counter()
        panel.find_next()
        find_s = time.perf_counter() - started
        while "counting" in panel.search_status.text():
            await asyncio.sleep(0)
        count_all, find_stall = time.perf_counter() - started, worst[0]
        label = f"{what}: {needle!r}"
        answers.append((label, first_s, filter_all, filter_stall, find_s, count_all, find_stall))
    probe.stop()
    await window.close_window() if hasattr(window, "close_window") else None
    window.close()
    return {
        "first_rows": first_rows,
        "indexed": indexed,
        "stall": worst[0],
        "rows": len(log),
        "filters": filters,
        "table_filter": shown_s,
        "answers": answers,
    }


async def bench(args: argparse.Namespace) -> int:
    tmp = Path(args.folder or tempfile.mkdtemp(prefix="open-session-"))
    tmp.mkdir(parents=True, exist_ok=True)
    n = args.messages
    path = tmp / f"flood-{n}.jsonl"
    if not path.exists():
        made, _ = timed(lambda: make_recording(path, n))
        print(f"made {path} ({path.stat().st_size / 1e6:,.0f} MB, {n:,} messages) in {made:.1f} s")
    floor = json_floor(path)
    floor_first = json_floor(path, 20_000)
    print(f"floor: json.loads of every line {floor:.2f} s; of the first 20,000 {floor_first:.3f} s")
    gui = await through_the_window(path, n)
    print(
        f"first rows in the window: {gui['first_rows']:.3f} s  (target 1 s; "
        f"{gui['first_rows'] / floor_first:.2f}x the 20,000-line floor)"
    )
    print(
        f"fully indexed in the window: {gui['indexed']:.2f} s = {gui['indexed'] / floor:.2f}x "
        f"the json.loads floor; longest event-loop stall {gui['stall'] * 1000:.0f} ms"
    )
    fresh = index_in_fresh_process(path)
    print(
        f"index alone (fresh process): {fresh['seconds']:.2f} s = {fresh['seconds'] / floor:.2f}x "
        f"the floor; first slice {fresh['first_slice'] * 1000:.0f} ms"
    )
    print(
        f"memory: {fresh['anon_per_row']:.0f} B/message anonymous (target < 300), "
        f"{fresh['anon_mb']:.0f} MB in all; RSS with the mapped file's pages "
        f"{fresh['rss_mb']:.0f} MB ({fresh['rss_per_row']:.0f} B/message)"
    )
    print("filters over all rows (file-backed vs in-memory floor):")
    for label, lazy_s, floor_s, count in gui["filters"]:
        print(
            f"  {label:<42} {lazy_s * 1000:7.0f} ms  floor {floor_s * 1000:6.0f} ms  "
            f"= {lazy_s / max(floor_s, 1e-6):5.2f}x  ({count:,} rows)"
        )
    print(f"  the table's text filter, set and shown: {gui['table_filter'] * 1000:.0f} ms")
    print(
        "the window's answer (target 200 ms): the text filter's first rows, then all of it "
        "(a slice per event-loop turn, longest turn); Find's nearest match, then its count:"
    )
    for label, first_s, all_s, f_stall, find_s, count_s, c_stall in gui["answers"]:
        print(
            f"  {label:<36} filter {first_s * 1000:5.0f} ms (all {all_s * 1000:5.0f} ms, "
            f"turn <= {f_stall * 1000:3.0f} ms)  find {find_s * 1000:5.0f} ms "
            f"(counted {count_s * 1000:5.0f} ms, turn <= {c_stall * 1000:3.0f} ms)"
        )
    old = tmp / f"flood-{n}-old.jsonl"
    if not old.exists():
        make_recording(old, n, old=True)
    old_index = index_in_fresh_process(old)
    print(
        f"older format (no method/id: every line parsed): {old_index['seconds']:.2f} s = "
        f"{old_index['seconds'] / floor:.2f}x the floor, {old_index['anon_per_row']:.0f} B/message"
    )
    if args.ten_million:
        big = tmp / "flood-10000000.jsonl"
        if not big.exists():
            made, _ = timed(lambda: make_recording(big, 10_000_000))
            print(f"made {big} ({big.stat().st_size / 1e9:.2f} GB) in {made:.0f} s")
        result = index_in_fresh_process(big)
        print(
            f"10M messages: indexed in {result['seconds']:.1f} s = "
            f"{result['seconds'] / (floor * 10):.2f}x ten times the 1M floor; "
            f"{result['anon_mb']:.0f} MB anonymous ({result['anon_per_row']:.0f} B/message), "
            f"first slice {result['first_slice'] * 1000:.0f} ms"
        )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--messages", type=int, default=1_000_000)
    ap.add_argument("--ten-million", action="store_true", help="also a 10M-message file")
    ap.add_argument("--folder", help="where the recordings go (kept for the next run)")
    ap.add_argument("--index-only", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.index_only:
        index_only(Path(args.index_only))
        return 0
    return run_qt_async(lambda: bench(args))


if __name__ == "__main__":
    sys.exit(main())
