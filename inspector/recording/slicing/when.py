"""The times a user gives a slice: seconds since the recording started (`90`, `1.5`),
a duration (`1:30`, `1:02:03.5`), or a wall-clock time (`2026-12-01T10:05:00`, local
time unless it says its zone, `...Z` or `+01:00`), turned into the file's `t`."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Final

from inspector.recording.reader import RecordedSession

__all__ = ["parse_when", "session_origin"]

_DURATION: Final = re.compile(r"^(?:(\d+):)?(\d+):(\d+(?:\.\d*)?)$")


def session_origin(recorded: RecordedSession) -> float | None:
    """The Unix time of `t` = 0: from the first line with both times, else the header's
    `created`."""
    for event in recorded.events:
        wall, t = event.data.get("wall"), event.data.get("t")
        if isinstance(wall, int | float) and isinstance(t, int | float):
            return float(wall) - float(t)
    created = recorded.header.get("created")
    if isinstance(created, str):
        try:
            return datetime.fromisoformat(created).timestamp()
        except ValueError:
            return None
    return None


def parse_when(text: str, recorded: RecordedSession) -> float:
    """`text` as a `t` of `recorded`. Raises ValueError with a sentence for the user."""
    value = text.strip()
    try:
        return float(value)
    except ValueError:
        pass
    match = _DURATION.match(value)
    if match is not None:
        hours, minutes, seconds = match.groups()
        return int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00").replace(" ", "T", 1))
    except ValueError:
        raise ValueError(
            f"{text!r} is not a time: give seconds since the recording started (90, 1.5), "
            "a duration (1:30, 1:02:03) or a date and time (2026-12-01T10:05:00)"
        ) from None
    origin = session_origin(recorded)
    if origin is None:
        raise ValueError(
            f"{text!r} is a wall-clock time, but this recording has no times to match it "
            "against: give seconds since its start"
        )
    return moment.timestamp() - origin  # a naive time is local, as `date` shows it
