"""The files that make one session, from the path a person chose.

Today a session is one plain file. A session recorded with rotation is several parts, and
a compressed one must be decompressed first; the function that finds the parts and
decompresses them belongs here (the index takes the plain files, in order).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["session_parts"]


def session_parts(path: Path) -> list[Path]:
    """The plain files of the session `path` names, in order.

    The one place where the opener turns a chosen path into its parts: rotated parts
    (NAME.part2.jsonl, ...) and .gz/.zst decompression are wired in here.
    """
    return [path]
