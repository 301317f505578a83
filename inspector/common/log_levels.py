"""The server log levels, once for the whole app: the CLI's `--log-level`, the GUI's level
picker, the Notifications filter and the demo server all read this tuple."""

from __future__ import annotations

from typing import Final

__all__ = ["LOG_LEVELS", "level_index"]

# spec: logging levels follow RFC 5424 severities, lowest first.
LOG_LEVELS: Final = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)
_LEVEL_INDEX: Final = {name: i for i, name in enumerate(LOG_LEVELS)}


def level_index(level: str) -> int:
    """Index in LOG_LEVELS; an unknown level counts as info (it is shown, not dropped)."""
    return _LEVEL_INDEX.get(level.lower(), 1) if isinstance(level, str) else 1
