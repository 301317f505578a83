"""After the server lost the session (HTTP 404 for its Mcp-Session-Id, e.g. it restarted):
which waiting requests go again in the new session, and what the others are told.

spec (streamable HTTP, session management): the client MUST start a new session with a new
initialize. A list or a read changes nothing on the server, so it is safe to send again in
the new session, and its caller gets the answer as if nothing happened (the log says so).
A tool call is not: it may have run before the server lost the session, so it fails with a
message that says so, and the user decides whether to run it again. Once only: a request
sent again that meets a 404 again is not sent a third time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from inspector.protocol.machine.events import RequestFailed
from inspector.session.call import Call, ProgressCallback
from inspector.session.exceptions import NotSentAgain, SessionError, error_for

__all__ = ["SAFE_TO_REPLAY", "ExpiryReplay", "Held", "not_replayed"]

# Requests that change nothing on the server: sent again after a re-initialize.
SAFE_TO_REPLAY: Final = frozenset(
    {
        "ping",
        "tools/list",
        "resources/list",
        "resources/templates/list",
        "prompts/list",
        "resources/read",
        "prompts/get",
        "completion/complete",
        "logging/setLevel",
    }
)


@dataclass
class Held:
    """A request whose session ended before its answer, kept to be sent again."""

    call: Call
    method: str
    params: dict[str, Any] | None
    progress: ProgressCallback | None


class ExpiryReplay:
    def __init__(self) -> None:
        self._held: list[Held] = []

    def hold(
        self,
        pending: Mapping[int, tuple[str, dict[str, Any] | None]],
        calls: dict[int, Call],
        progress: dict[int, ProgressCallback],
        again: bool = True,
    ) -> set[int]:
        """Take the safe requests out of `calls` (their keys end with the old session) and
        keep them; returns their keys. The others fail as the session ends. Nothing is
        kept unless a new session will be started (`again`)."""
        keys: set[int] = set()
        if not again:
            return keys
        for key, (method, params) in pending.items():
            call = calls.get(key)
            if call is None or method not in SAFE_TO_REPLAY or call.future.done():
                continue
            del calls[key]
            self._held.append(Held(call, method, params, progress.pop(key, None)))
            keys.add(key)
        return keys

    def take(self) -> list[Held]:
        held, self._held = self._held, []
        return held

    def fail(self, why: str) -> None:
        """The new session did not start: the kept requests fail with the reason."""
        for held in self.take():
            failed = RequestFailed(held.call.key, held.method, "closed", why)
            held.call.future.set_exception(error_for(failed))

    def send_again(
        self, queue: Callable[..., int], calls: dict[int, Call], note: Callable[[str], None]
    ) -> None:
        """The new session is ready: queue each kept request again as it was asked
        (`queue(method, params, on_progress=...)` returns its new key); its `Call` takes
        the new key, so its caller gets the answer and can still cancel it."""
        for held in self.take():
            try:
                key = queue(held.method, held.params, on_progress=held.progress)
            except SessionError as exc:  # e.g. the new session lacks the capability
                held.call.future.set_exception(exc)
                continue
            held.call.key = key
            calls[key] = held.call
            note(f"sent {held.method} again in the new session (a list or a read: safe to repeat)")


def not_replayed(event: RequestFailed, calls: dict[int, Call]) -> RequestFailed:
    """A request that is not sent again (it may have run) fails with `NotSentAgain`, which
    says so; returns the event as the log and listeners see it."""
    failed = dataclasses.replace(
        event,
        message=(
            f"the server lost the session (HTTP 404) before answering {event.method}; a new "
            f"session was started, but {event.method} was not sent again (it may have run "
            "on the server): run it again if it should"
        ),
    )
    call = calls.pop(event.key, None)
    if call is not None and not call.future.done():
        call.future.set_exception(NotSentAgain(failed))
    return failed
