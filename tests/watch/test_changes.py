"""The change feed over watchfiles: noise is dropped, and a save that touches 10,000
files is ONE burst."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from inspector.watch.changes import ChangeFeed
from inspector.watch.paths import WatchSpec

_WRITER = """
import sys, pathlib
folder = pathlib.Path(sys.argv[1])
for i in range(int(sys.argv[2])):
    (folder / f"gen_{i:05}.py").write_text("x = 1\\n")
"""


def write_many(folder: Path, count: int) -> subprocess.Popen[bytes]:
    """Another process (an editor, a code generator) saving `count` files at once."""
    return subprocess.Popen([sys.executable, "-c", _WRITER, str(folder), str(count)])


async def test_ten_thousand_writes_are_one_burst(tmp_path: Path) -> None:
    feed = ChangeFeed(WatchSpec(tmp_path).resolve(), quiet=0.4)
    feed.start()
    try:
        await feed.wait_started()
        writer = write_many(tmp_path, 10_000)
        burst = await asyncio.wait_for(feed.next_burst(), 30)
        assert await asyncio.to_thread(writer.wait, 30) == 0
        assert burst.count >= 9_000  # every file of the save, in one burst
        assert "more" in burst.describe(str(tmp_path))
        await asyncio.sleep(0.8)  # not a wait: twice the quiet time, for a second burst to show
        assert not feed.pending, "the same save gave a second burst"
    finally:
        await feed.stop()


async def test_noise_is_no_change(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "__pycache__").mkdir()
    feed = ChangeFeed(WatchSpec(tmp_path).resolve(), quiet=0.2)
    feed.start()
    try:
        await feed.wait_started()
        (tmp_path / ".git" / "index").write_text("x")
        (tmp_path / "__pycache__" / "server.cpython-311.pyc").write_bytes(b"x")
        (tmp_path / ".server.py.swp").write_text("x")
        await asyncio.sleep(0.5)  # not a wait: over twice the quiet time, for a burst to show
        assert not feed.pending
        (tmp_path / "server.py").write_text("x")
        burst = await asyncio.wait_for(feed.next_burst(), 10)
        assert burst.sample[0][0].endswith("server.py")
    finally:
        await feed.stop()


async def test_stop_ends_the_watcher_promptly(tmp_path: Path) -> None:
    feed = ChangeFeed(WatchSpec(tmp_path).resolve(), quiet=0.2)
    feed.start()
    await feed.wait_started()
    await asyncio.wait_for(feed.stop(), 5)
    assert feed.error is None
