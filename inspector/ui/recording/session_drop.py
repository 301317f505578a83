"""Session files dropped on the main window: what a drag carries (its URLs) as the local
files to open, and what cannot be opened (a web link, say) for the window to tell the user.
Each file is then opened as File ▸ Open Session opens one (`SessionFiles.open_sessions`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QMimeData

__all__ = ["Dropped", "dropped", "may_drop"]


@dataclass
class Dropped:
    files: list[Path] = field(default_factory=list)  # local files, in the order dragged
    others: list[str] = field(default_factory=list)  # URLs that are not local files


def may_drop(mime: QMimeData | None) -> bool:
    """A drag the window accepts: one carrying URLs (a file manager's files)."""
    return mime is not None and mime.hasUrls()


def dropped(mime: QMimeData | None) -> Dropped:
    found = Dropped()
    if mime is None:
        return found
    for url in mime.urls():
        if url.isLocalFile():
            found.files.append(Path(url.toLocalFile()))
        else:
            found.others.append(url.toDisplayString())
    return found
