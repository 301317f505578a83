"""The sessions folder: file names for new recordings, and cleanup of old ones.

Always-on recording writes one file per connection into the sessions folder
(`inspector.storage.paths.sessions_dir()`), named after the profile and the start time. Old
files go by a setting: a maximum age and a maximum total size (oldest first). Cleanup
only ever touches files this module named (`<profile>_<YYYYmmdd-HHMMSS>[-N].jsonl`, or
`.jsonl.gz` / `.jsonl.zst` when compressed, and their rotated parts `...partN.jsonl[.gz]`)
in that folder, never the file being recorded.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = [
    "DEFAULT_MAX_AGE_DAYS",
    "DEFAULT_MAX_TOTAL_MB",
    "RecordingSettings",
    "SessionFile",
    "cleanup",
    "list_sessions",
    "new_session_path",
    "slug",
]

log = logging.getLogger(__name__)

DEFAULT_MAX_TOTAL_MB: Final = 500
DEFAULT_MAX_AGE_DAYS: Final = 30
_NAME: Final = re.compile(
    r"^(?P<slug>[a-z0-9][a-z0-9.-]*)_(?P<stamp>\d{8}-\d{6})(-\d+)?(\.part\d+)?\.jsonl(\.gz|\.zst)?$"
)
COMPRESSION_SUFFIXES: Final = {"none": "", "gzip": ".gz", "zstd": ".zst"}
_MB: Final = 1024 * 1024
_DAY: Final = 86400.0


@dataclass(frozen=True)
class RecordingSettings:
    """`max_total_mb` / `max_age_days` of 0 mean no limit. `compression`: "none", "gzip"
    or "zstd" (the file's suffix then says so); a recording goes on in a new part after
    `rotate_mb` MB or `rotate_hours` hours (0: never)."""

    enabled: bool = True
    max_total_mb: int = DEFAULT_MAX_TOTAL_MB
    max_age_days: int = DEFAULT_MAX_AGE_DAYS
    compression: str = "none"
    rotate_mb: int = 0
    rotate_hours: int = 0

    @property
    def suffix(self) -> str:
        """The file name's ending for new recordings: `.jsonl`, `.jsonl.gz`, `.jsonl.zst`."""
        return ".jsonl" + COMPRESSION_SUFFIXES.get(self.compression, "")


@dataclass(frozen=True)
class SessionFile:
    path: Path
    size: int
    mtime: float
    profile: str  # the slug of the profile name


def slug(name: str) -> str:
    """A file-name-safe form of a profile name: "Demo server" -> "demo-server"."""
    text = re.sub(r"[^a-z0-9.]+", "-", name.lower()).strip("-.")
    return text[:60].rstrip("-.") or "server"


def new_session_path(
    folder: Path, profile_name: str, when: float | None = None, suffix: str = ".jsonl"
) -> Path:
    """A fresh file name in `folder` (not created): `<profile>_<YYYYmmdd-HHMMSS>.jsonl`
    (or the `suffix` given: `.jsonl.gz`...), with `-2`, `-3`... when two sessions start
    within the same second."""
    stamp = dt.datetime.fromtimestamp(time.time() if when is None else when).strftime(
        "%Y%m%d-%H%M%S"
    )
    base = f"{slug(profile_name)}_{stamp}"
    path = folder / f"{base}{suffix}"
    n = 2
    while path.exists():
        path = folder / f"{base}-{n}{suffix}"
        n += 1
    return path


def list_sessions(folder: Path) -> list[SessionFile]:
    """The recordings this app named in `folder`, oldest first."""
    found: list[SessionFile] = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    for path in entries:
        match = _NAME.match(path.name)
        if match is None:
            continue
        try:
            st = path.stat()
        except OSError:
            continue
        if not path.is_file():
            continue
        found.append(SessionFile(path, st.st_size, st.st_mtime, match["slug"]))
    found.sort(key=lambda f: (f.mtime, f.path.name))
    return found


def cleanup(
    folder: Path,
    settings: RecordingSettings,
    *,
    keep: Iterable[Path] = (),
    now: float | None = None,
) -> list[Path]:
    """Delete recordings older than the maximum age, then the oldest ones until the
    folder fits the maximum total size. Returns the deleted paths. `keep` (the file
    being recorded) is never deleted, and counts towards the size."""
    now = time.time() if now is None else now
    kept = {p.resolve() for p in keep}
    files = list_sessions(folder)
    removed: list[Path] = []

    def delete(f: SessionFile) -> bool:
        try:
            f.path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.warning("could not delete old session %s: %s", f.path, exc)
            return False
        removed.append(f.path)
        return True

    survivors: list[SessionFile] = []
    for f in files:
        protected = f.path.resolve() in kept
        too_old = settings.max_age_days > 0 and now - f.mtime > settings.max_age_days * _DAY
        if too_old and not protected and delete(f):
            continue
        survivors.append(f)
    if settings.max_total_mb > 0:
        limit = settings.max_total_mb * _MB
        total = sum(f.size for f in survivors)
        for f in survivors:  # oldest first
            if total <= limit:
                break
            if f.path.resolve() in kept:
                continue
            if delete(f):
                total -= f.size
    return removed
