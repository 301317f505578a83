"""A session file a command reads (export-har, export-otlp, export-slice, replay): read
whole, compressed or rotated as it is, its problems said as notes on stderr, or the
command fails with the reader's sentence (a usage error: the file given is not one)."""

from __future__ import annotations

from pathlib import Path

from inspector.cli.errors import EXIT_USAGE, CommandFailed, diag
from inspector.recording.reader import RecordedSession, SessionFileError, read_session

__all__ = ["read_session_file"]


def read_session_file(path: str | Path, *, notes: bool = True) -> RecordedSession:
    try:
        recorded = read_session(path)
    except SessionFileError as exc:
        raise CommandFailed(f"error: {exc}", EXIT_USAGE) from None
    if notes:
        for problem in recorded.problems:
            diag(f"note: {problem}")
    return recorded
