"""How the app finds running taps without a listening socket: each tap writes one small
JSON file into `<runtime dir>/mcp-inspector-qt/taps/` (the folder 0700, the file 0600) and
removes it when it ends. The app lists the folder, and trusts only files owned by this
user with no group or other permissions, whose tap process is still alive.

`MCP_INSPECTOR_RUNTIME_DIR` points the folder elsewhere (tests, portable setups).
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import platformdirs

from inspector.storage.paths import APP_NAME

__all__ = ["RUNTIME_DIR_ENV", "TapEntry", "list_taps", "pid_alive", "register", "taps_dir"]

RUNTIME_DIR_ENV: Final = "MCP_INSPECTOR_RUNTIME_DIR"
_MAX_ENTRY: Final = 64 * 1024


def taps_dir() -> Path:
    override = os.environ.get(RUNTIME_DIR_ENV)
    if override:
        return Path(override).expanduser() / "taps"
    with warnings.catch_warnings():  # no XDG_RUNTIME_DIR: a warning on the host's stderr
        warnings.simplefilter("ignore")
        base = platformdirs.user_runtime_dir(APP_NAME, appauthor=False)
    return Path(base) / "taps"


@dataclass(frozen=True)
class TapEntry:
    pid: int  # the tap's own process
    server_pid: int
    name: str
    command: str
    args: tuple[str, ...]
    session_file: Path
    started: str  # ISO 8601 UTC
    transport: str = "stdio"
    entry_file: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "pid": self.pid,
            "server_pid": self.server_pid,
            "name": self.name,
            "command": self.command,
            "args": list(self.args),
            "session_file": str(self.session_file),
            "started": self.started,
            "transport": self.transport,
        }

    @property
    def alive(self) -> bool:
        return pid_alive(self.pid)

    @staticmethod
    def from_json(data: Any, entry_file: Path | None = None) -> TapEntry | None:
        if not isinstance(data, dict):
            return None
        try:
            return TapEntry(
                pid=int(data["pid"]),
                server_pid=int(data.get("server_pid", 0)),
                name=str(data.get("name", "")),
                command=str(data.get("command", "")),
                args=tuple(str(a) for a in data.get("args", [])),
                session_file=Path(str(data["session_file"])),
                started=str(data.get("started", "")),
                transport=str(data.get("transport", "stdio")),
                entry_file=entry_file,
            )
        except (KeyError, TypeError, ValueError):
            return None


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive, but not ours (the uid check decides)
    return True


def _private_dir(folder: Path) -> None:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        folder.chmod(0o700)


def register(entry: TapEntry, folder: Path | None = None) -> Path:
    """Write the entry (owner-only, atomically) and return its file. Raises OSError."""
    folder = folder or taps_dir()
    _private_dir(folder)
    target = folder / f"{entry.pid}.json"
    tmp = folder / f".{entry.pid}.json.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(entry.to_json(), f)
    os.replace(tmp, target)
    return target


def _trusted(path: Path) -> bool:
    try:
        info = path.lstat()
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_ENTRY:
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    return not info.st_mode & 0o077


def list_taps(folder: Path | None = None, *, clean_stale: bool = True) -> list[TapEntry]:
    """The running taps, oldest first. Entries of taps that died without cleaning up
    (killed) are removed when `clean_stale`; files that are not owner-only are ignored."""
    folder = folder or taps_dir()
    try:
        names = sorted(folder.glob("*.json"))
    except OSError:
        return []
    found: list[TapEntry] = []
    for path in names:
        if not _trusted(path):
            continue
        try:
            entry = TapEntry.from_json(json.loads(path.read_text(encoding="utf-8")), path)
        except (OSError, ValueError):
            continue
        if entry is None:
            continue
        if not entry.alive:
            if clean_stale:
                with contextlib.suppress(OSError):
                    path.unlink()
            continue
        found.append(entry)
    found.sort(key=lambda e: e.started)
    return found
