"""Benchmark: a server with 10,000 tools in the real GUI, against the same server with 10.

A stdio server lists N tools (gateway style: `github__create_issue`, `slack__post`, ... with
a small schema each); the real MainWindow (offscreen) connects to it as a user's click would.
Measured, each the best of --runs: from the connect until the tools pane shows every tool
and the window has painted it. The floor is the same run with 10 tools (start-up of the
server, the handshake and the window's own work); the difference is what the many tools
cost.

    QT_QPA_PLATFORM=offscreen python bench/many_tools.py [--tools 10000] [--runs 3]

Goal: <= 0.5 s more than with 10 tools.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings

from inspector.settings.profiles import Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.shell.event_loop import run_qt_async
from inspector.ui.shell.gui_command import build_gui_app, settle_heap
from inspector.ui.shell.main_window import MainWindow

SERVER = r"""
import json, sys
N = int(sys.argv[1])
NS = ["github", "slack", "jira", "gdrive", "postgres", "k8s", "aws", "notion"]
TOOLS = [{"name": f"{NS[i % len(NS)]}__tool_{i}", "description": f"Tool number {i}.",
          "inputSchema": {"type": "object", "properties": {
              "id": {"type": "integer"}, "text": {"type": "string"}}, "required": ["id"]}}
         for i in range(N)]
for raw in sys.stdin.buffer:
    msg = json.loads(raw)
    if "id" not in msg or "method" not in msg:
        continue
    if msg["method"] == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "many", "version": "1"}}
    elif msg["method"] == "tools/list":
        result = {"tools": TOOLS}
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\n")
    sys.stdout.flush()
"""


async def one_run(tmp: Path, n: int) -> float:
    server = tmp / "many_server.py"
    server.write_text(SERVER)
    store = ProfileStore(tmp / f"profiles-{n}.json", SecretStore())
    settings = QSettings(str(tmp / f"window-{n}.ini"), QSettings.Format.IniFormat)
    settings.setValue("recording/enabled", True)
    window = MainWindow(build_gui_app(store, settings), settings)
    window.show()
    settle_heap()
    profile = Profile(
        name=f"many-{n}", stdio=StdioSettings(command=sys.executable, args=[str(server), str(n)])
    )
    pane = window.current_tab.explorer.panes["tools"]
    t0 = time.perf_counter()
    window.connect_profile(profile)
    deadline = t0 + 60
    while not (
        window.current_tab.controller.model.state is ConnState.CONNECTED
        and len(pane.list) >= n
        and pane.model.rowCount()
    ):
        if (
            time.perf_counter() > deadline
            or window.current_tab.controller.model.state is ConnState.FAILED
        ):
            detail = window.current_tab.controller.model.detail
            raise SystemExit(f"could not list the tools: {detail}")
        await asyncio.sleep(0.005)
    window.repaint()  # the list as the user sees it (a synchronous paint)
    elapsed = time.perf_counter() - t0
    await window.current_tab.controller.model.shutdown()
    window.close()
    return elapsed


async def bench(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="many-tools-"))
    if args.profile:
        import cProfile
        import pstats

        await one_run(tmp, 10)
        profiler = cProfile.Profile()
        profiler.enable()
        await one_run(tmp, args.tools)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
        return 0
    few: list[float] = []
    many: list[float] = []
    for _ in range(args.runs):
        few.append(await one_run(tmp, 10))
        many.append(await one_run(tmp, args.tools))
    extra = min(many) - min(few)
    print(
        f"{args.tools:,} tools: {min(many):.3f} s from connect to shown (runs: "
        + ", ".join(f"{t:.3f}" for t in many)
        + ")"
    )
    print(f"10 tools (floor): {min(few):.3f} s")
    print(f"extra for {args.tools:,} tools: {extra:.3f} s (goal <= 0.5 s)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--tools", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", action="store_true", help="cProfile one run with many tools")
    args = ap.parse_args()
    return run_qt_async(lambda: bench(args))


if __name__ == "__main__":
    sys.exit(main())
