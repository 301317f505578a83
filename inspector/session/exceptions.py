"""What the session raises. Every message is a sentence for the user; `RequestError`
carries the protocol core's `RequestFailed` event, so callers can tell why a request ended."""

from __future__ import annotations

from typing import Any

from inspector.protocol.machine.events import RequestFailed
from inspector.protocol.wire.errors import LocalProtocolError

__all__ = [
    "ConnectError",
    "ConnectTimeout",
    "ConnectionClosed",
    "InputRejected",
    "NotSentAgain",
    "ProtocolFailure",
    "RequestCancelled",
    "RequestError",
    "RequestNotAllowed",
    "RequestTimeout",
    "ServerError",
    "SessionError",
    "TransportFailure",
    "error_for",
]


class SessionError(Exception):
    """Base of everything the session raises; the message is for the user."""


class ConnectError(SessionError):
    """Could not start the server, or the handshake failed."""


class ConnectTimeout(ConnectError):
    """The handshake got no answer in time (the CLI's exit code 5, not 3)."""


class RequestNotAllowed(SessionError):
    """The protocol forbids sending this now (before the handshake, undeclared capability,
    a method the negotiated version lacks). `cause` is the protocol core's error."""

    def __init__(self, cause: LocalProtocolError) -> None:
        super().__init__(str(cause))
        self.cause = cause


class RequestError(SessionError):
    def __init__(self, failure: RequestFailed) -> None:
        super().__init__(failure.message)
        self.failure = failure


class ServerError(RequestError):
    """The server answered with a JSON-RPC error."""

    @property
    def code(self) -> int:
        assert self.failure.error is not None
        return self.failure.error.code

    @property
    def data(self) -> Any:
        assert self.failure.error is not None
        return self.failure.error.data


class RequestTimeout(RequestError):
    pass


class RequestCancelled(RequestError):
    pass


class ConnectionClosed(RequestError):
    pass


class NotSentAgain(ConnectionClosed):
    """The server lost the session (HTTP 404) before answering, a new session was started,
    and this request was not sent again in it: it may have run (a tool call). The caller
    (the user) decides whether to send it again."""


class InputRejected(RequestError):
    pass


class ProtocolFailure(RequestError):
    pass


class TransportFailure(RequestError):
    """The request could not be delivered or answered at the transport level (HTTP 500 with
    an HTML body, a wrong content type, a refused connection...). The session goes on."""


_ERROR_FOR: dict[str, type[RequestError]] = {
    "error": ServerError,
    "timeout": RequestTimeout,
    "cancelled": RequestCancelled,
    "closed": ConnectionClosed,
    "rejected": InputRejected,
    "protocol": ProtocolFailure,
    "transport": TransportFailure,
}


def error_for(failure: RequestFailed) -> RequestError:
    """The exception a failed request raises in its caller."""
    return _ERROR_FOR[failure.kind](failure)
