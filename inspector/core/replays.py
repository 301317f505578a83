"""A replay against a live server, over a `ServerConnection`: shared by `replay` (CLI) and
the replay window. Where it runs is a `ReplayTarget` (inspector/recording/replay_target.py);
what it compares is `inspector.recording.replay`."""

from __future__ import annotations

from collections.abc import Callable

from inspector.core.server_connection import ServerConnection
from inspector.recording.diff import IgnoreRules
from inspector.recording.reader import RecordedSession
from inspector.recording.replay import CallOutcome, ReplayReport, ReplayResponder, extract_answers
from inspector.recording.replay import replay as replay_session
from inspector.recording.replay_target import replay_config
from inspector.transports.base import Transport

__all__ = ["connect_and_replay"]


async def connect_and_replay(
    recorded: RecordedSession,
    transport: Transport,
    *,
    ignore: IgnoreRules,
    timeout: float = 60.0,
    on_progress: Callable[[int, int, CallOutcome], None] | None = None,
    on_session: Callable[[ServerConnection], None] | None = None,
) -> ReplayReport:
    """Connect, replay, close. Raises `ConnectError` when the server cannot be reached.
    `on_session` sees the connection first (to observe its traffic)."""
    conn = ServerConnection(
        transport, replay_config(recorded, timeout), ReplayResponder(extract_answers(recorded))
    )
    if on_session is not None:
        on_session(conn)
    try:
        await conn.connect(timeout=timeout)
        report = await replay_session(
            recorded, conn.session, ignore=ignore, on_progress=on_progress
        )
    finally:
        await conn.close()
    for problem in recorded.problems:
        report.problems.insert(0, f"recording: {problem}")
    return report
