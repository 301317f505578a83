"""The session floor: the async driver (`Session`), the MCP client API composed over it
(`session.client`), requests in flight (`Call`), what they raise, and the `Responder` that
answers what a server asks. Import the public names from here."""

from inspector.session.call import Call, ProgressCallback
from inspector.session.client import McpClient
from inspector.session.driver import Session, SessionItem, SessionListener
from inspector.session.exceptions import (
    ConnectError,
    ConnectionClosed,
    ConnectTimeout,
    InputRejected,
    NotSentAgain,
    ProtocolFailure,
    RequestCancelled,
    RequestError,
    RequestNotAllowed,
    RequestTimeout,
    ServerError,
    SessionError,
    TransportFailure,
)
from inspector.session.responder import AskRejected, PolicyResponder, Responder, load_answers

__all__ = [
    "AskRejected",
    "Call",
    "ConnectError",
    "ConnectTimeout",
    "ConnectionClosed",
    "InputRejected",
    "McpClient",
    "NotSentAgain",
    "PolicyResponder",
    "ProgressCallback",
    "ProtocolFailure",
    "RequestCancelled",
    "RequestError",
    "RequestNotAllowed",
    "RequestTimeout",
    "Responder",
    "ServerError",
    "Session",
    "SessionError",
    "SessionItem",
    "SessionListener",
    "TransportFailure",
    "load_answers",
]
