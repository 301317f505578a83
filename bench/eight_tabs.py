"""Benchmark: eight connection tabs to real servers at once, a flood in one of them.

The real MainWindow (offscreen unless DISPLAY/QT_QPA_PLATFORM say otherwise) opens eight
tabs: seven run the bundled demo server over stdio, the eighth our misbehaving server in
`--mode flood` (a tools/call answers after N notifications/message lines). All eight
connect and list their catalogs, as a user's clicks would. Printed:

* RSS per tab: the process's resident memory after the eight tabs connected, minus the
  window with one empty tab, divided by eight (the servers are other processes);
* the FLOOR: the largest event-loop stall over a quiet stretch with the same eight tabs
  connected (the other seven pinging their servers every 100 ms), measured in this run;
* the largest stall while the eighth tab floods, with the flood in a background tab and
  again in the tab being looked at, and the RATIO of each to the floor; the other tabs'
  ping round trips meanwhile (they keep being answered);
* how fast the flood went into its tab's log (messages per second).

A stall is the lateness of a 10 ms repeating QTimer on the GUI thread, less the time the
thread waited for a CPU other processes held (/proc/thread-self/schedstat: these machines
are shared), as tests/ui/workspace/test_ui_resources.py measures it; the wall-clock figure is
printed too.

    QT_QPA_PLATFORM=offscreen python bench/eight_tabs.py [--messages 100000]

Target (issue 11): a flood in one tab keeps the largest stall in the others under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from inspector.settings.profiles import EnvVar, Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.event_loop import run_qt_async
from inspector.ui.shell.gui_command import build_gui_app, settle_heap
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.connection_tab import ConnectionTab

REPO = Path(__file__).resolve().parents[1]
FLOOD = REPO / "tests" / "servers" / "misbehaving" / "server.py"
TABS = 8


def _run_queue_wait() -> float:
    """Seconds this thread waited for a CPU others held (0.0 where Linux does not say)."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def _progress(text: str) -> None:
    sys.stderr.write(f"... {text}\n")
    sys.stderr.flush()


def _rss_mb() -> float:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


class StallMeter:
    """The longest gap between ticks of a 10 ms timer, less run-queue wait."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.reset()

    def reset(self) -> None:
        self.last, self.last_wait = time.monotonic(), _run_queue_wait()
        self.worst = 0.0
        self.worst_wall = 0.0

    def _tick(self) -> None:
        now, wait = time.monotonic(), _run_queue_wait()
        wall = now - self.last
        self.worst_wall = max(self.worst_wall, wall)
        self.worst = max(self.worst, wall - (wait - self.last_wait))
        self.last, self.last_wait = now, wait

    def start(self) -> None:
        self.reset()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()


def _python(name: str, *args: str) -> Profile:
    return Profile(
        name=name,
        stdio=StdioSettings(
            command=sys.executable,
            args=list(args),
            env=[EnvVar(name="PYTHONPATH", value=str(REPO))],
        ),
        max_message_mb=64,
    )


async def _until(predicate: object, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


class Pinger:
    """Pings the quiet tabs' servers every 100 ms; keeps the round trips."""

    def __init__(self, tabs: list[ConnectionTab]) -> None:
        self.tabs = tabs
        self.rtts: list[float] = []
        self.failed = 0
        self.running = False
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while self.running:
            for tab in self.tabs:
                session = tab.controller.model.session
                if session is None:
                    self.failed += 1
                    continue
                started = time.monotonic()
                call = session.start_request("ping", {})
                done, _ = await asyncio.wait({asyncio.ensure_future(call.result())}, timeout=10)
                if done and not next(iter(done)).exception():
                    self.rtts.append(time.monotonic() - started)
                else:
                    self.failed += 1
            await asyncio.sleep(0.1)

    def start(self) -> None:
        self.rtts.clear()
        self.failed = 0
        self.running = True
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Let the round of pings in flight finish (a cancelled ping would be a lost one)."""
        self.running = False
        if self._task is not None:
            await asyncio.wait({self._task}, timeout=30)

    def summary(self) -> str:
        if not self.rtts:
            return "no pings answered"
        ms = sorted(r * 1000 for r in self.rtts)
        p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
        return (
            f"{len(ms)} pings answered, median {statistics.median(ms):.1f} ms, "
            f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms, lost {self.failed}"
        )


async def _flood(
    window: MainWindow,
    flooder: ConnectionTab,
    meter: StallMeter,
    pinger: Pinger,
    messages: int,
) -> tuple[float, float, float]:
    """One flood; returns (stall, wall stall, messages/s into the flooding tab's log)."""
    session = flooder.controller.model.session
    assert session is not None
    before = len(flooder.traffic.entries)
    pinger.start()
    meter.start()
    started = time.monotonic()
    call = session.start_request("tools/call", {"name": "flood", "arguments": {}})
    await asyncio.wait_for(call.result(), 300)
    await _until(
        lambda: len(flooder.traffic.entries) - before >= messages,
        f"the flood rows ({len(flooder.traffic.entries) - before:,} of {messages:,})",
        120,
    )
    elapsed = time.monotonic() - started
    await asyncio.sleep(0.3)  # the rows' batches land in the model
    meter.stop()
    await pinger.stop()
    return meter.worst, meter.worst_wall, messages / elapsed


async def bench(messages: int) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="eight-tabs-"))
    os.environ["MCP_INSPECTOR_CONFIG_DIR"] = str(tmp / "config")
    settings = QSettings(str(tmp / "window.ini"), QSettings.Format.IniFormat)
    store = ProfileStore(tmp / "profiles.json", SecretStore())
    window = MainWindow(build_gui_app(store, settings), settings)
    app = QApplication.instance()
    if isinstance(app, QApplication):
        app.setQuitOnLastWindowClosed(False)  # the report comes after the window closes
    window.show()
    settle_heap()
    await asyncio.sleep(0.5)
    rss_empty = _rss_mb()
    quiet = [_python(f"demo {i + 1}", "-m", "inspector.demo") for i in range(TABS - 1)]
    flood = _python("flood", str(FLOOD), "--mode", "flood", "--count", str(messages))
    tabs: list[ConnectionTab] = []
    started = time.monotonic()
    for index, profile in enumerate([*quiet, flood]):
        window.app.profiles.add_adhoc(profile)
        if index == 0:
            window.refresh_profiles()
            window.connect_profile(profile)
            tabs.append(window.current_tab)
        else:
            tabs.append(window.new_tab(profile))
    for tab in tabs:
        await _until(
            lambda t=tab: (
                t.controller.model.state is ConnState.CONNECTED and t.controller.model.tools
            ),
            f"{tab.display_title()} to connect",
            120,
        )
    connect_time = time.monotonic() - started
    _progress(f"eight tabs connected in {connect_time:.1f} s; the quiet floor")
    await asyncio.sleep(2.0)  # list_changed re-lists and the first lint settle
    rss_tabs = _rss_mb()
    per_tab = (rss_tabs - rss_empty) / TABS
    flooder, others = tabs[-1], tabs[:-1]
    meter = StallMeter()
    pinger = Pinger(others)
    try:
        # The floor: the same eight tabs, quiet, the other seven pinging.
        window.tabs.setCurrentWidget(others[0])
        pinger.start()
        meter.start()
        await asyncio.sleep(3.0)
        meter.stop()
        await pinger.stop()
        floor, floor_wall = meter.worst, meter.worst_wall
        floor_pings = pinger.summary()
        _progress("the flood in a background tab")
        # The flood in a background tab (the user looks at the first tab).
        bg, bg_wall, bg_rate = await _flood(window, flooder, meter, pinger, messages)
        bg_pings = pinger.summary()
        _progress("the flood in the current tab")
        # The flood in the tab being looked at.
        window.tabs.setCurrentWidget(flooder)
        await asyncio.sleep(0.3)
        fg, fg_wall, fg_rate = await _flood(window, flooder, meter, pinger, messages)
        fg_pings = pinger.summary()
        rss_end = _rss_mb()
        _report(messages, connect_time, rss_empty, rss_tabs, per_tab, rss_end, floor,
                floor_wall, floor_pings, [
                    ("flood in a background tab", bg, bg_wall, bg_rate, bg_pings),
                    ("flood in the current tab", fg, fg_wall, fg_rate, fg_pings),
                ])  # fmt: skip
    finally:
        await window.shutdown()
        window.close()
    return 0


def _report(
    messages: int,
    connect_time: float,
    rss_empty: float,
    rss_tabs: float,
    per_tab: float,
    rss_end: float,
    floor: float,
    floor_wall: float,
    floor_pings: str,
    floods: list[tuple[str, float, float, float, str]],
) -> None:
    print(f"eight tabs, {TABS - 1} demo servers + 1 flooding server ({messages:,} messages)")
    print(f"  all eight connected and listed in {connect_time:.1f} s")
    print(
        f"  RSS: window {rss_empty:.0f} MB, with eight tabs {rss_tabs:.0f} MB: "
        f"{per_tab:.1f} MB per tab (after the floods: {rss_end:.0f} MB)"
    )
    print(
        f"  FLOOR (quiet, same eight tabs): largest stall {floor * 1000:.1f} ms "
        f"(wall {floor_wall * 1000:.1f} ms); {floor_pings}"
    )
    for label, stall, wall, rate, pings in floods:
        ratio = stall / floor if floor > 0 else float("inf")
        verdict = "OK" if stall < 0.050 else "OVER 50 ms"
        print(
            f"  {label}: largest stall {stall * 1000:.1f} ms (wall {wall * 1000:.1f} ms), "
            f"{ratio:.1f}x the floor, {verdict}; {rate:,.0f} msg/s into its log"
        )
        print(f"    the other seven tabs meanwhile: {pings}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    args = parser.parse_args()
    return run_qt_async(lambda: bench(args.messages))


if __name__ == "__main__":
    sys.exit(main())
