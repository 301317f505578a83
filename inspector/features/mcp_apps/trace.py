"""App <-> host messages as rows of the connection's traffic log (and so of its session
file): their own directions, "from-app" and "to-app", transport "app", paired by id like any
JSON-RPC. A note flags a row (refused, invalid, rate-limited, blocked request)."""

from __future__ import annotations

import time
from typing import Final

from inspector.protocol.wire.jsonrpc import Invalid, ParsedFrame, parse_frame
from inspector.traffic.record import Direction, TrafficRecord, kind_of, note_record

__all__ = ["APP_TRANSPORT", "app_note_record", "app_record"]

APP_TRANSPORT: Final = "app"


def app_record(
    direction: Direction,
    text: str,
    note: str | None = None,
    frame: ParsedFrame | None = None,
) -> TrafficRecord:
    """A row for one message; `frame` when the caller already parsed `text`."""
    if frame is None:
        frame = parse_frame(text)
    if isinstance(frame, Invalid) and note is None:
        note = f"invalid JSON-RPC from the app: {frame.reason}"
    return TrafficRecord(
        direction=direction,
        kind=kind_of(frame),
        raw=text,
        mono=time.monotonic(),
        wall=time.time(),
        transport=APP_TRANSPORT,
        frame=frame,
        size=len(text),
        note=note,
    )


def app_note_record(text: str) -> TrafficRecord:
    """What the host did about the app that is not a message: a blocked request, a refused
    navigation, the handshake timeout, dropped messages."""
    return note_record(text, APP_TRANSPORT, text)
