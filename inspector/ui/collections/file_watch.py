"""Follows one file on disk: calls back (once, after a short quiet time) when it changes,
is replaced (editors and our own saves write a new file and rename it over the old one),
or appears again after being deleted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Final

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer

__all__ = ["FileWatch"]

_QUIET_MS: Final = 150


def _signature(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


class FileWatch(QObject):
    def __init__(self, changed: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.changed = changed
        self.path: Path | None = None
        self._seen: tuple[int, int] | None = None
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._poke)
        self._watcher.directoryChanged.connect(self._poke)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(_QUIET_MS)
        self._timer.timeout.connect(self._check)

    def follow(self, path: Path) -> None:
        old = self._watcher.files() + self._watcher.directories()
        if old:
            self._watcher.removePaths(old)
        self.path = path
        self._seen = _signature(path)
        self._rearm()

    def _rearm(self) -> None:
        path = self.path
        if path is None:
            return
        if path.exists() and str(path) not in self._watcher.files():
            self._watcher.addPath(str(path))
        if path.parent.is_dir() and str(path.parent) not in self._watcher.directories():
            self._watcher.addPath(str(path.parent))

    def _poke(self, _what: str) -> None:
        self._timer.start()

    def _check(self) -> None:
        path = self.path
        if path is None:
            return
        self._rearm()  # a rename over the file drops it from the watcher
        now = _signature(path)
        if now != self._seen:
            self._seen = now
            self.changed()

    def seen_now(self) -> None:
        """The file as it is now was read (our own write): no callback for it."""
        if self.path is not None:
            self._seen = _signature(self.path)
