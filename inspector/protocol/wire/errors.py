"""Errors of the protocol core, split the h11 way: our mistakes and the peer's."""

from __future__ import annotations

__all__ = [
    "CapabilityNotDeclared",
    "LocalProtocolError",
    "PaginationError",
    "ProtocolError",
    "RemoteProtocolError",
    "UnsupportedVersionError",
]


class ProtocolError(Exception):
    """Base class. `str(err)` is a sentence a person can read."""


class LocalProtocolError(ProtocolError):
    """We were asked to do something the protocol forbids (e.g. a request before initialize)."""


class CapabilityNotDeclared(LocalProtocolError):
    """The server did not declare the capability a method needs (override=True sends anyway)."""

    def __init__(self, method: str, capability: str) -> None:
        super().__init__(
            f"the server did not declare the '{capability}' capability needed for {method} "
            "(send anyway with the capability override)"
        )
        self.method = method
        self.capability = capability


class RemoteProtocolError(ProtocolError):
    """The server broke the protocol in a way that stops the session."""


class UnsupportedVersionError(RemoteProtocolError):
    def __init__(self, message: str, offered: str, server_versions: tuple[str, ...]) -> None:
        super().__init__(message)
        self.offered = offered
        self.server_versions = server_versions


class PaginationError(RemoteProtocolError):
    """A cursor loop, or more pages than the limit."""
