"""What a front end hands the application model: how server asks are answered, and how an
authorization URL reaches a browser.

The model is Qt-free, yet a sampling request needs a dialog and a login needs the system
browser. The front end supplies both as factories when it builds the model or opens a
connection; the model calls them when a session starts, never the other way round.
Without a front end (tests, scripts), asks are answered by policy: roots from the profile,
elicitation declined, sampling rejected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from inspector.protocol.machine.asks import ServerAsk
from inspector.session import PolicyResponder
from inspector.settings.profiles import Profile

if TYPE_CHECKING:
    # Types only: the auth machinery loads when a profile first needs it.
    from inspector.auth import Opener
    from inspector.auth.flow.events import Level

__all__ = [
    "AskNotice",
    "AuthNote",
    "ClientResponder",
    "OpenerFactory",
    "ResponderFactory",
    "policy_responders",
]

AskNotice = Callable[[str, bool], None]
"""`notice(sentence, to_errors)`: what happened to an ask, for the user (the Errors store
too when `to_errors`)."""

AuthNote = Callable[[str, str, "Level", str | None], None]
"""`ProfileAuth.note`: an event of ours (step, message, level, url) in the auth timeline."""

OpenerFactory = Callable[[AuthNote], "Opener"]
"""Builds a connection's browser opener; the opener says in the timeline what it did."""


class ClientResponder(Protocol):
    """Answers what the server asks; `roots` is what roots/list returns (the roots editor
    changes it while connected)."""

    roots: list[dict[str, Any]]

    async def respond(self, ask: ServerAsk) -> dict[str, Any]: ...


ResponderFactory = Callable[[Profile, list[dict[str, Any]], AskNotice], ClientResponder]
"""`factory(profile, roots, notice)`: the responder of one new session of `profile`."""


def policy_responders(
    profile: Profile, roots: list[dict[str, Any]], notice: AskNotice
) -> ClientResponder:
    """Answers without a person (a `ResponderFactory`; nothing to tell the user)."""
    del profile, notice
    return PolicyResponder(roots=roots)
