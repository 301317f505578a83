"""The files this process holds open for writing: its stdout and stderr redirected into a
file (`watch -- ... > watch.out 2> watch.err`), a log. Watch mode's own output, which
must never count as a change to the server (each report written would restart it).

Found by their file descriptors (`/proc/self/fd` on Linux, `/dev/fd` elsewhere, else
stdout and stderr alone), each named by its (st_dev, st_ino) and, where the system says,
its path. Only regular files open for writing count: a pipe or a terminal is never one.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = ["OwnFile", "open_for_writing"]

_FD_FOLDERS: Final = ("/proc/self/fd", "/dev/fd")
_ACCESS: Final = getattr(os, "O_ACCMODE", os.O_RDONLY | os.O_WRONLY | os.O_RDWR)


@dataclass(frozen=True)
class OwnFile:
    """A file held open for writing: its identity, and its path when known."""

    ident: tuple[int, int]  # (st_dev, st_ino)
    path: Path | None = None


def _descriptors() -> tuple[list[int], str | None]:
    for folder in _FD_FOLDERS:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        return [int(name) for name in names if name.isdigit()], folder
    return [1, 2], None


def _writable(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # no fcntl (Windows): stdout and stderr are output
        return fd in (1, 2)
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    except OSError:
        return False
    return flags & _ACCESS in (os.O_WRONLY, os.O_RDWR)


def _path(folder: str | None, fd: int) -> Path | None:
    if folder != "/proc/self/fd":  # /dev/fd entries are not links on every system
        return None
    try:
        target = os.readlink(f"{folder}/{fd}")
    except OSError:
        return None
    return Path(target) if target.startswith("/") and not target.endswith(" (deleted)") else None


def open_for_writing() -> list[OwnFile]:
    """The regular files this process has open for writing now."""
    fds, folder = _descriptors()
    out: list[OwnFile] = []
    for fd in fds:
        try:
            info = os.fstat(fd)  # never reads or probes: a pipe's fd is only looked at
        except OSError:  # closed meanwhile (the listing's own descriptor)
            continue
        if stat.S_ISREG(info.st_mode) and _writable(fd):
            out.append(OwnFile((info.st_dev, info.st_ino), _path(folder, fd)))
    return out
