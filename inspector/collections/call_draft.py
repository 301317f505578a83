"""A call the user may save into a collection, as a view or a log row saw it.

Plain data (no Qt): the request (its method and params, exactly as it would be sent) and,
when the call already ran, what came back (the result, or the JSON-RPC error, or a timeout)
how long it took, and the answers given to what the server asked meanwhile (sampling,
elicitation, roots: a saved call carries them, to answer the same way when it runs).
"Save call…" turns it into a saved call with the assertions the user
picks; the views only describe what they have.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from inspector.collections.collection import SavedAnswer

__all__ = ["CallDraft", "DraftOutcome"]

DraftOutcome = Literal["ok", "isError", "error", "timeout"]


@dataclass(frozen=True)
class CallDraft:
    method: str  # tools/call, resources/read, prompts/get, completion/complete
    params: dict[str, Any]
    result: dict[str, Any] | None = None  # the last result, when there is one
    error_code: int | None = None  # the call ended in a JSON-RPC error with this code
    error_message: str = ""
    timed_out: bool = False
    latency_ms: float | None = None
    answers: tuple[SavedAnswer, ...] = ()  # what the client answered the server's asks

    @property
    def outcome(self) -> DraftOutcome | None:
        """How the call ended; None when it has not run (or ended otherwise, cancelled)."""
        if self.error_code is not None:
            return "error"
        if self.timed_out:
            return "timeout"
        if self.result is None:
            return None
        return "isError" if self.result.get("isError") is True else "ok"


def completion_draft(
    ref: dict[str, Any],
    argument: str,
    values: dict[str, Any],
    names: list[str],
    protocol_version: str | None,
) -> CallDraft:
    """completion/complete for `argument` with its current value as the prefix and the
    other filled arguments as context, as the form's completer sends it."""
    from inspector.features.completion import completion_params, context_arguments

    value = values.get(argument)
    prefix = value if isinstance(value, str) else "" if value is None else str(value)
    filled = context_arguments(values, argument, names)
    params = completion_params(ref, argument, prefix, filled, protocol_version)
    return CallDraft("completion/complete", params)
