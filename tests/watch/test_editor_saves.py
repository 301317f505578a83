"""An editor's save, as the editor does it (temp files, backups, renames), is a change
to the saved file only: the burst names no temp file (issue 31, item 24)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from inspector.watch.changes import ChangeFeed
from inspector.watch.paths import WatchSpec


def _vim(folder: Path) -> None:
    (folder / ".server.py.swp").write_text("swap")
    (folder / ".server.py.swx").write_text("swap")
    (folder / "4913").write_text("")  # vim's can-I-write probe
    (folder / "4913").unlink()
    os.rename(folder / "server.py", folder / "server.py~")  # writebackup
    (folder / "server.py").write_text("x = 2\n")
    (folder / "server.py~").unlink()


def _emacs(folder: Path) -> None:
    os.symlink("user@host.1234:1", folder / ".#server.py")  # the lock
    (folder / "#server.py#").write_text("auto-save")
    (folder / "server.py").write_text("x = 2\n")
    (folder / "#server.py#").unlink()


def _jetbrains(folder: Path) -> None:  # "safe write"
    (folder / "server.py___jb_tmp___").write_text("x = 2\n")
    os.rename(folder / "server.py", folder / "server.py___jb_old___")
    os.rename(folder / "server.py___jb_tmp___", folder / "server.py")
    (folder / "server.py___jb_old___").unlink()


def _atomic(folder: Path) -> None:  # VS Code, write-file-atomic (npm), GIO, Kate, sed -i
    for temp in (
        "server.py.vsctmp",
        ".server.py.tmp.4f2a",
        "server.py.3141592653",
        ".goutputstream-ABC123",
        ".server.py.kate-swp",
        "sedXy12Zq",
        "server.py.tmp",
        "._server.py",
    ):
        (folder / temp).write_text("x = 2\n")
    os.replace(folder / "server.py.vsctmp", folder / "server.py")
    os.replace(folder / "server.py.3141592653", folder / "server.py")


@pytest.mark.parametrize("save", [_vim, _emacs, _jetbrains, _atomic])
async def test_an_editor_save_is_a_change_to_the_saved_file_only(
    save: object, tmp_path: Path
) -> None:
    (tmp_path / "server.py").write_text("x = 1\n")
    feed = ChangeFeed(WatchSpec(tmp_path).resolve(), quiet=0.2)
    feed.start()
    try:
        await feed.wait_started()
        assert callable(save)
        save(tmp_path)
        burst = await asyncio.wait_for(feed.next_burst(), 10)
        names = {Path(path).name for path, _action in burst.sample}
        assert names == {"server.py"}, burst.sample
    finally:
        await feed.stop()
