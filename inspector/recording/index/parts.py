"""The files that make one session, from the path a person chose, kept for as long as the
session is shown.

A session recorded with rotation is several parts, and a compressed one is decompressed
into a plain file first (`recording.parts.session_parts`); the index maps the plain files,
so the temporary folder that holds the decompressed copies lives as long as this object
(it is removed by `close()`, or when the object is collected).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from inspector.recording.parts import session_parts

__all__ = ["OpenedParts"]


class OpenedParts:
    """The plain files of the session `path` names, in order, with what was wrong with
    them (`problems`: a missing part, a cut-off stream...). Raises SessionFileError when
    `path` cannot be read at all."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._temp = tempfile.TemporaryDirectory(prefix="mcp-inspector-open-")
        try:
            found = session_parts(path, Path(self._temp.name))
        except BaseException:
            self._temp.cleanup()
            raise
        self.paths = found.plain_files
        self.names = [p.source.name for p in found.parts]
        self.sources = [p.source for p in found.parts]
        self.problems = list(found.problems)

    def close(self) -> None:
        self._temp.cleanup()
