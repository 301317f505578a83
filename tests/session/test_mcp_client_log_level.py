"""McpClient.clear_log_level: the one way to stop asking for logs, in each era.

Modern requests carry the level in their _meta, so clearing it is local (the channel stops
stamping it). Legacy has no way to unset logging/setLevel: nothing is sent, and the caller
is told so.
"""

from __future__ import annotations

from typing import Any

from inspector.protocol.wire.versions import Era
from inspector.session import Call, McpClient
from inspector.session.tool_headers import ToolHeaderRegistry


class _Channel:
    """A RequestChannel that records the log level and refuses to send anything."""

    def __init__(self, era: Era) -> None:
        self.era = era
        self.transport_kind = "stdio"
        self.max_pages = 10
        self.levels: list[str | None] = []

    def start_request(self, method: str, *args: Any, **kwargs: Any) -> Call:
        raise AssertionError(f"nothing should be sent, not even {method}")

    def use_log_level(self, level: str | None) -> None:
        self.levels.append(level)


def test_modern_clearing_stops_stamping_requests() -> None:
    channel = _Channel(Era.MODERN)
    assert McpClient(channel, ToolHeaderRegistry()).clear_log_level() is True
    assert channel.levels == [None]


def test_legacy_clearing_sends_nothing_and_says_so() -> None:
    channel = _Channel(Era.LEGACY)
    assert McpClient(channel, ToolHeaderRegistry()).clear_log_level() is False
    assert channel.levels == []
