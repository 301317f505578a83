"""The approver of a run with no person to ask (`chat`, `eval`): it decides by the flags the
command line was given, which are the consent.

- a call the policy would ask about (`ask`, or `read-only` for a tool not annotated so) is
  refused: headless, there is no one to ask;
- a tool annotated destructive is refused unless destructive tools are allowed;
- arguments that break the tool's inputSchema are refused (the model is told the problems)
  unless invalid arguments are to be sent anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from inspector.host.interface import Approval, PendingCall

__all__ = ["FlagApprover"]


@dataclass(slots=True)
class FlagApprover:
    """Decides by `allow_destructive` and `send_invalid`; `on_refusal` hears each refusal's
    sentence (a command writes it on stderr)."""

    allow_destructive: bool = False
    send_invalid: bool = False
    on_refusal: Callable[[str], None] | None = None

    async def __call__(self, pending: PendingCall) -> Approval:
        record = pending.record
        why = ""
        if "policy" in pending.reasons:
            why = "The approval policy of this run does not allow this tool."
        elif "destructive" in pending.reasons and not self.allow_destructive:
            why = "The tool is annotated destructive and this run does not allow such tools."
        elif "schema" in pending.reasons and not self.send_invalid:
            why = ""  # the engine tells the model the schema problems
        else:
            return Approval.send()
        if self.on_refusal is not None:
            problems = "; ".join(record.schema_problems)
            said = why or f"its arguments break the input schema: {problems}"
            self.on_refusal(f"refused {record.qualified}: {said}")
        return Approval.refuse(why)
