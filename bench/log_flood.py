"""Benchmark: the live traffic log under a flood, through the real app.

A real stdio server floods `notifications/message` lines in a tight loop; the real
MainWindow (offscreen unless DISPLAY/QT_QPA_PLATFORM say otherwise) connects to it over
the stdio transport and Session, exactly as a user's click would. Printed:

* messages per second into the model (first byte asked for → last row inserted), and its
  RATIO to a floor measured in the same run: the same server flooding the same pipe, read
  with nothing but `readline` + `json.loads` (machines are shared and noisy: compare ratios);
* the largest event-loop stall: the lateness of a 10 ms repeating QTimer;
* memory per message at the end: what the app keeps per message beyond its raw text
  (entry objects, their fields, list slots, the Notifications store), and the process
  RSS growth per message as a cross-check;
* method and text filter times over all rows (the model reset included).

    QT_QPA_PLATFORM=offscreen python bench/log_flood.py [--messages 1000000] [--profile]
        [--no-record | --compress gzip|zstd]

Targets (the live log must stay smooth under a flood, recording on): >= 100,000 msg/s and
>= 40% of the floor, no stall > 50 ms, <= 300 B/message overhead, a method or text filter
over 1M rows <= 200 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QSettings, QTimer

from inspector.settings.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.traffic.filter import TrafficFilter
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.event_loop import run_qt_async
from inspector.ui.shell.gui_command import build_gui_app, settle_heap
from inspector.ui.shell.main_window import MainWindow

FLOOD_SERVER = r"""
import json, sys
out = sys.stdout.buffer
def send(obj):
    out.write(json.dumps(obj).encode() + b"\n"); out.flush()
LINE = (b'{"jsonrpc":"2.0","method":"notifications/message",'
        b'"params":{"level":"info","logger":"flood","data":"flood line %d of the benchmark"}}\n')
for raw in sys.stdin.buffer:
    msg = json.loads(raw)
    if "id" not in msg or "method" not in msg:
        continue
    if msg["method"] == "initialize":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}, "logging": {}},
            "serverInfo": {"name": "flood", "version": "1"}}})
    elif msg["method"] == "tools/list":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": [
            {"name": "flood", "inputSchema": {"type": "object"}}]}})
    elif msg["method"] == "tools/call":
        n = int(msg["params"]["arguments"]["count"])
        step = 20000
        for start in range(0, n, step):
            out.write(b"".join(LINE % i for i in range(start, min(n, start + step))))
        out.flush()
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {
            "content": [{"type": "text", "text": "sent %d" % n}]}})
    else:
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
"""


def measure_floor(server: Path, n: int) -> tuple[float, float]:
    """The floor: the same server floods the same kind of pipe, read with nothing but
    `readline` + `json.loads` (no protocol, no log, no GUI). Returns (messages per second,
    CPU seconds per message of the reading process)."""
    proc = subprocess.Popen(
        [sys.executable, str(server)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdin is not None and proc.stdout is not None
    loads = json.loads
    readline = proc.stdout.readline
    try:
        proc.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n')
        proc.stdin.flush()
        loads(readline())
        request = {"name": "flood", "arguments": {"count": n}}
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": request}
        t0 = time.perf_counter()
        cpu0 = time.process_time()
        proc.stdin.write(json.dumps(call).encode() + b"\n")
        proc.stdin.flush()
        while True:
            msg = loads(readline())
            if msg.get("id") == 2:
                break
        return n / (time.perf_counter() - t0), (time.process_time() - cpu0) / n
    finally:
        proc.stdin.close()
        proc.wait(10)


def rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:  # not Linux: RSS unknown
        return 0


def store_overhead(window: MainWindow) -> tuple[float, float]:
    """(bytes the app keeps per message beyond its raw text, raw text bytes per message).

    Counts the traffic log's columns and sparse maps as allocated (over-allocation
    included) and the Notifications store (a row index and a level byte per message).
    """
    log = window.current_tab.traffic
    n = max(1, len(log))
    columns = [
        log._raw,
        log._mono,
        log._wall,
        log._size,
        log._latency,
        log._pairs,
        log._method,
        log._kind,
        log._dir,
        log._flags,
        log._id,
        log._other_ids,
        log._notes,
        log._extras,
        window.current_tab.messages.rows,
        window.current_tab.messages.levels,
    ]
    kept = sum(sys.getsizeof(c) for c in columns)
    kept += sum(sys.getsizeof(v) for v in log._other_ids.values())
    kept += sum(sys.getsizeof(v) for v in log._notes.values())
    raw_total = sum(sys.getsizeof(r) for r in log._raw)
    return kept / n, raw_total / n


async def flood(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="log-flood-"))
    server = tmp / "flood_server.py"
    server.write_text(FLOOD_SERVER)
    floors = [measure_floor(server, args.messages)]
    store = ProfileStore(tmp / "profiles.json", SecretStore())
    settings = QSettings(str(tmp / "window.ini"), QSettings.Format.IniFormat)
    # The app records every session by default; --no-record measures the log alone.
    settings.setValue("recording/enabled", not args.no_record)
    settings.setValue("recording/compression", args.compress)
    window = MainWindow(build_gui_app(store, settings), settings)
    window.show()
    settle_heap()  # as the app does at start-up
    profile = Profile(
        name="flood",
        stdio=StdioSettings(
            command=sys.executable,
            args=[str(server)],
            env=[EnvVar(name="PYTHONUNBUFFERED", value="1")],
        ),
    )
    profile.timeouts.request = 600
    window.connect_profile(profile)
    deadline = time.monotonic() + 30
    while not (
        window.current_tab.controller.model.state is ConnState.CONNECTED
        and window.current_tab.controller.model.tools
    ):
        model = window.current_tab.controller.model
        if time.monotonic() > deadline or model.state is ConnState.FAILED:
            print(f"could not connect: {model.detail}", file=sys.stderr)
            return 3
        await asyncio.sleep(0.01)
    session = window.current_tab.controller.model.session
    assert session is not None
    model = window.current_tab.log_panel.model
    model.flush()
    first = len(window.current_tab.traffic)
    n = args.messages

    # The stall probe: a 10 ms repeating timer; its lateness is how long the loop was busy.
    clock = QElapsedTimer()
    clock.start()
    worst = [0.0]
    last = [clock.nsecsElapsed()]

    def tick() -> None:
        now = clock.nsecsElapsed()
        worst[0] = max(worst[0], (now - last[0]) / 1e6 - 10.0)
        last[0] = now

    probe = QTimer()
    probe.setInterval(10)
    probe.timeout.connect(tick)
    rss_before = rss_bytes()
    gc.collect()
    profiler = cProfile.Profile() if args.profile else None
    done_at = [0.0]
    target = first + n + 2  # the floods, the request and its response

    def on_batch(_added: int) -> None:
        if not done_at[0] and model.rowCount() >= target:
            done_at[0] = time.perf_counter()

    model.batch_inserted.connect(on_batch)
    last[0] = clock.nsecsElapsed()
    probe.start()
    if profiler:
        profiler.enable()
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    main0 = time.thread_time()
    call = session.start_request(
        "tools/call", {"name": "flood", "arguments": {"count": n}}, timeout=None
    )
    await call.result()
    answered = time.perf_counter()
    while not done_at[0]:
        await asyncio.sleep(0.005)
        if time.perf_counter() - answered > 10:
            print("the model never caught up", file=sys.stderr)
            return 1
    cpu = time.process_time() - cpu0
    main_cpu = time.thread_time() - main0
    if profiler:
        profiler.disable()
    probe.stop()
    elapsed = done_at[0] - t0
    rate = n / elapsed

    gc.collect()
    rss_after = rss_bytes()
    floors.append(measure_floor(server, n))  # before and after; the faster one counts
    floor = max(rate for rate, _cpu in floors)
    floor_cpu = min(cpu for _rate, cpu in floors)
    per_msg, raw_per_msg = store_overhead(window)
    rss_per_msg = (rss_after - rss_before) / n - raw_per_msg

    panel = window.current_tab.log_panel
    timings: list[tuple[str, float, float, int]] = []
    for label, flt in (
        ("method 'tools/call'", TrafficFilter(method="tools/call")),
        ("method 'notifications/message'", TrafficFilter(method="notifications/message")),
        ("text 'line 99999 of' (any case)", TrafficFilter(text="line 99999 of")),
        ("text 'flood' (any case, no digits)", TrafficFilter(text="flood")),
        ("text 'Line 99999' (exact case)", TrafficFilter(text="Line 99999")),
        ("hide pings/progress", TrafficFilter(hide_noise=True)),
        ("no filter", TrafficFilter()),
    ):
        t = time.perf_counter()
        window.current_tab.traffic.filter_indices(flt)  # the store alone
        store_time = time.perf_counter() - t
        t = time.perf_counter()
        panel.model.set_filter(flt)  # the store, the model reset and the view
        timings.append((label, store_time, time.perf_counter() - t, panel.model.rowCount()))

    rows = len(window.current_tab.traffic)
    print(f"messages flooded:        {n:,} (log rows: {rows:,})")
    print(
        f"ingest into the model:   {rate:,.0f} msg/s ({elapsed:.2f} s; server answered after "
        f"{answered - t0:.2f} s)"
    )
    print(
        f"floor (readline+json.loads): {floor:,.0f} msg/s (runs: "
        + ", ".join(f"{f:,.0f}" for f, _c in floors)
        + ")"
    )
    print(f"RATIO ingest/floor:      {rate / floor:.1%}  (goal >= 40%)")
    print(
        f"CPU RATIO floor/ingest:  {floor_cpu / (cpu / n):.1%}  (floor {floor_cpu * 1e6:.2f} us "
        "of CPU per message; what the wall ratio is on an idle machine)"
    )
    print(
        f"CPU per message:         {cpu / n * 1e6:.2f} us in this process "
        f"({main_cpu / n * 1e6:.2f} us on the GUI thread; less sensitive to a busy machine)"
    )
    print(f"largest event-loop stall: {worst[0]:.1f} ms (lateness of a 10 ms QTimer)")
    print(
        f"memory per message:      {per_msg:,.0f} B kept beyond the raw text "
        f"(raw text: {raw_per_msg:,.0f} B/message)"
    )
    print(
        f"  process RSS growth:    {rss_per_msg:,.0f} B/message beyond the raw text "
        "(all of the process: allocator slack, Qt, transient buffers)"
    )
    print(f"filters over {rows:,} rows:           store      with the model and view")
    for label, store_s, view_s, shown in timings:
        print(
            f"  {label + ':':<36} {store_s * 1000:7.1f} ms {view_s * 1000:9.1f} ms"
            f"   ({shown:,} shown)"
        )
    if profiler:
        pstats.Stats(profiler).sort_stats(os.environ.get("BENCH_SORT", "tottime")).print_stats(25)
    await window.current_tab.controller.model.shutdown()
    window.close()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--messages", type=int, default=1_000_000)
    ap.add_argument("--profile", action="store_true", help="cProfile the flood, print the top")
    ap.add_argument("--no-record", action="store_true", help="turn session recording off")
    ap.add_argument(
        "--compress",
        choices=("none", "gzip", "zstd"),
        default="none",
        help="the recording setting 'Compress recordings'",
    )
    args = ap.parse_args()
    return run_qt_async(lambda: flood(args))


if __name__ == "__main__":
    sys.exit(main())
