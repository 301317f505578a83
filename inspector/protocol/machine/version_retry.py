"""`VersionRetry`: answering -32022 (unsupported protocol version) by retrying the request.

spec 2026-07-28: on -32022 the client should "choose a mutually supported version from
this list and retry". Both the handshake (server/discover) and any later request can be
answered this way, so both use this one object; it switches the agreed version and sends
the same request again under a new id.
"""

from __future__ import annotations

from typing import Any

from inspector.protocol.machine.events import VersionRenegotiated
from inspector.protocol.machine.negotiated import Negotiated
from inspector.protocol.machine.pending import Pending
from inspector.protocol.machine.request_wire import RequestWire
from inspector.protocol.wire.versions import MODERN_VERSIONS, is_supported

__all__ = ["VersionRetry", "best_mutual", "supported_list"]


class VersionRetry:
    """Picks the version to retry with and sends the retry."""

    __slots__ = ("_negotiated", "_wire")

    def __init__(self, negotiated: Negotiated, wire: RequestWire) -> None:
        self._negotiated = negotiated
        self._wire = wire

    def retry(
        self, p: Pending, supported: list[str], now: float, reason: str
    ) -> VersionRenegotiated | None:
        """Send `p` again under a better version; None if there is none to try."""
        better = self.choose(p, supported)
        if better is None:
            return None
        old = self._negotiated.protocol_version or ""
        self._negotiated.protocol_version = better
        self._wire.again(p, now)
        return VersionRenegotiated(old, better, reason)

    def choose(self, p: Pending, supported: list[str]) -> str | None:
        """The version to retry with after -32022: the best mutual one other than the one
        refused; else, once per request, the same one if the server lists it as supported
        (spec 2026-07-28: "choose a mutually supported version from this list and retry")."""
        current = self._negotiated.protocol_version
        better = best_mutual(supported, MODERN_VERSIONS, exclude=current)
        if (
            better is None
            and current is not None
            and current in supported
            and current in MODERN_VERSIONS
            and not p.same_version_retried
        ):
            p.same_version_retried = True
            return current
        return better


def supported_list(value: Any) -> list[str]:
    """The version list of a -32022 error's data (or of server/discover's result)."""
    if isinstance(value, dict):
        value = value.get("supported")
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, str)]


def best_mutual(theirs: list[str], ours: tuple[str, ...], exclude: str | None = None) -> str | None:
    mutual = [v for v in theirs if v in ours and v != exclude and is_supported(v)]
    return max(mutual) if mutual else None
