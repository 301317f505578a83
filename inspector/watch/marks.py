"""Watch mode's marks in the traffic log and the session file: a `note` row (like the
tap's "recording gap" notes) before a restart, at the start of the new session, and with
each run's result. Through `ServerConnection.report_side_traffic`, so the log shows them and the
session's recording keeps them."""

from __future__ import annotations

from typing import Final

from inspector.core.server_connection import ServerConnection
from inspector.traffic.record import note_record

__all__ = ["WATCH_NOTE", "mark"]

WATCH_NOTE: Final = "watch mode"  # the note column of every row watch mode adds


def mark(session: ServerConnection | None, text: str) -> None:
    """A `note` row saying `text` in `session`'s log and recording (no session: none)."""
    if session is None:
        return
    session.report_side_traffic(note_record(text, session.transport_kind, WATCH_NOTE))
