"""Benchmark: how long watch mode takes from a save to its report (the server restarted,
its catalog listed and diffed, the collection re-run), against the floor of the same
server's own cold start.

Measured in the same run, each the median of --runs:

* the floor: a ConnectionModel connects to the watch test server (an `mcp` 2.x server,
  tests/servers/sdk/watch_server.py, copied to a temporary folder) until its catalog is
  listed: the interpreter's and the SDK's start-up, the handshake and the listing;
* watch: a WatchSupervisor over the same folder; the time from writing server.py (a tool
  added) to the report, which includes the debounce (--debounce, 0.5 s by default), the old
  server's shutdown ladder, the same start and listing, the diff and a one-call collection;
* a burst: 10,000 files written by another process, then the time from the last write to
  the report (and the number of restarts: it must be 1).

    python bench/watch_restart.py [--runs 5] [--debounce 0.5]

Reports the ratios watch/floor, burst/floor and watch/(floor + ladder + debounce): what
watch mode adds beyond the server's own start and stop and the debounce (the listing's
diff, the collection's call, detecting the end of the save) should stay well under 1 s, so
that a save is seen "within a few seconds".
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from inspector.core.connection import ConnectionModel  # noqa: E402
from inspector.core.connection_state import ConnState  # noqa: E402
from inspector.settings.profiles import EnvVar, Profile, StdioSettings  # noqa: E402
from inspector.watch.catalog_wait import settled_snapshot  # noqa: E402
from inspector.watch.changes import ChangeFeed  # noqa: E402
from inspector.watch.collection_step import FileCollectionStep  # noqa: E402
from inspector.watch.paths import WatchSpec  # noqa: E402
from inspector.watch.report import RunReport  # noqa: E402
from inspector.watch.supervisor import WatchOptions, WatchSupervisor  # noqa: E402

SERVER = REPO / "tests" / "servers" / "sdk" / "watch_server.py"
COLLECTION = """{"version": 1, "name": "bench", "calls": [
  {"name": "echo", "kind": "tool", "tool": "echo", "arguments": {"text": "x"},
   "assert": [{"pointer": "/content/0/text", "equals": "x"}]}]}"""
WRITER = """
import sys, pathlib
folder = pathlib.Path(sys.argv[1])
for i in range(10000):
    (folder / f"gen_{i:05}.py").write_text("x = 1\\n")
"""


def _profile(folder: Path) -> Profile:
    return Profile(
        name="bench",
        stdio=StdioSettings(
            command=sys.executable,
            args=["server.py"],
            cwd=str(folder),
            env=[EnvVar(name="PYTHONPATH", value=str(REPO))],
        ),
    )


async def _until(predicate: object, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise TimeoutError
        await asyncio.sleep(0.005)


async def floor(folder: Path) -> tuple[float, float]:
    """(connect and list, the shutdown ladder) of one cold start."""
    model = ConnectionModel()
    start = time.perf_counter()
    await model.connect_profile(_profile(folder))
    assert model.state is ConnState.CONNECTED and model.session is not None, model.detail
    await settled_snapshot(model, model.session, 30)
    took = time.perf_counter() - start
    start = time.perf_counter()
    await model.disconnect_server()
    ladder = time.perf_counter() - start
    await model.shutdown()
    return took, ladder


async def watch(
    folder: Path, calls: Path, debounce: float, runs: int
) -> tuple[list[float], float, int]:
    model = ConnectionModel()
    feed = ChangeFeed(WatchSpec(folder).resolve(), quiet=debounce)
    sup = WatchSupervisor(
        model,
        _profile(folder),
        feed=feed,
        collection=FileCollectionStep(calls),
        options=WatchOptions(quiet=debounce),
    )
    reports: list[RunReport] = []
    sup.reports.add(reports.append)
    task = asyncio.create_task(sup.run())
    times: list[float] = []
    try:
        await _until(lambda: len(reports) == 1)
        server = folder / "server.py"
        for i in range(runs):
            text = server.read_text()
            start = time.perf_counter()
            server.write_text(text.replace("\n# more tools", f"\n# edit {i}\n# more tools", 1))
            await _until(lambda n=i: len(reports) == n + 2)
            times.append(time.perf_counter() - start)
            assert reports[-1].passed, reports[-1].details()
        before = len(reports)
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(folder)])
        while writer.poll() is None:
            await asyncio.sleep(0.005)
        last_write = time.perf_counter()
        await _until(lambda: len(reports) > before)
        burst = time.perf_counter() - last_write
        await asyncio.sleep(debounce * 4 + 3)
        restarts = len(reports) - before
    finally:
        await sup.stop()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await model.shutdown()
    return times, burst, restarts


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--debounce", type=float, default=0.5)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="watch-bench-"))
    try:
        folder = tmp / "srv"
        folder.mkdir()
        shutil.copy(SERVER, folder / "server.py")
        calls = tmp / "calls.json"
        calls.write_text(COLLECTION)
        pairs = [await floor(folder) for _ in range(args.runs)]
        floors, ladders = [p[0] for p in pairs], [p[1] for p in pairs]
        times, burst, restarts = await watch(folder, calls, args.debounce, args.runs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    f, w = statistics.median(floors), statistics.median(times)
    ladder = statistics.median(ladders)
    print(f"floor (cold start + listing): median {f:.2f} s  {[round(x, 2) for x in floors]}")
    print(f"shutdown ladder (close):      median {ladder:.2f} s  {[round(x, 2) for x in ladders]}")
    print(f"watch (save -> report):       median {w:.2f} s  {[round(x, 2) for x in times]}")
    print(f"ratio watch/floor: {w / f:.2f}  (debounce {args.debounce:g} s)")
    print(f"10,000-file save -> report: {burst:.2f} s, ratio {burst / f:.2f}; restarts: {restarts}")
    floor_all = f + ladder + args.debounce
    print(
        f"ratio watch/(floor + ladder + debounce): {w / floor_all:.2f}; watch mode's own "
        f"overhead (diff, collection, detection): {w - floor_all:.2f} s"
    )


if __name__ == "__main__":
    asyncio.run(main())
