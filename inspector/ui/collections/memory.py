"""Which collection file the user saves into: the last one per profile, and a short list
of recent ones (kept in the window's settings). A new collection goes next to the
server's code: the profile's working folder, else the folder of the script it runs. When
there is no such folder on this machine (an HTTP server, `npx some-package`), it goes to the
app's data folder, `collections/` (beside the recorded sessions), never loose in $HOME."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from PySide6.QtCore import QSettings

from inspector.settings.profiles import Profile
from inspector.storage.paths import data_dir

__all__ = ["CollectionMemory", "collections_dir", "default_file_name", "default_folder"]

_MAX_RECENT: Final = 10
_LAST: Final = "collections/last/"
_RECENT: Final = "collections/recent"
_SLUG: Final = re.compile(r"[^A-Za-z0-9._-]+")


def default_folder(profile: Profile | None) -> Path:
    """Where the server's code is: its cwd, else the folder of the first argument that is
    a file (`python server.py`, `node dist/index.js`), else (an HTTP server, a package
    runner) the app's data folder's `collections/`: the file is named after the profile
    (`default_file_name`), so each profile has its own there."""
    if profile is not None and profile.transport == "stdio":
        stdio = profile.stdio
        base = Path(stdio.cwd).expanduser() if stdio.cwd else None
        if base is not None and base.is_dir():
            return base
        for arg in [stdio.command, *stdio.args]:
            if not arg or arg.startswith("-"):
                continue
            path = Path(arg).expanduser()
            if not path.is_absolute() and base is not None:
                path = base / path
            if path.is_file() and path.suffix not in ("", ".exe"):
                return path.parent
    return collections_dir()


def collections_dir() -> Path:
    """Where a collection of a server whose code is not on this machine goes by default
    (not created here: saving the first call creates it)."""
    return data_dir() / "collections"


def default_file_name(profile: Profile | None) -> str:
    stem = _SLUG.sub("-", profile.name).strip("-.").lower() if profile is not None else ""
    return f"{stem or 'server'}.collection.json"


class CollectionMemory:
    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def recent(self) -> list[Path]:
        value = self.settings.value(_RECENT, [])
        items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        return [Path(str(v)) for v in items if str(v)]

    def last(self, profile_id: str | None) -> Path | None:
        if profile_id is None:
            return None
        value = self.settings.value(_LAST + profile_id)
        return Path(str(value)) if value else None

    def choices(self, profile_id: str | None) -> list[Path]:
        """The profile's last file first, then the other recent files."""
        last = self.last(profile_id)
        out = [last] if last is not None else []
        out.extend(p for p in self.recent() if p != last)
        return out

    def used(self, path: Path, profile_id: str | None) -> None:
        path = path.absolute()
        if profile_id is not None:
            self.settings.setValue(_LAST + profile_id, str(path))
        recent = [path, *[p for p in self.recent() if p != path]][:_MAX_RECENT]
        self.settings.setValue(_RECENT, [str(p) for p in recent])
