"""How the GUI answers server asks until the ask dialogs arrive (the next issue).

Roots are answered from the profile. Sampling and elicitation are declined with the
headless `PolicyResponder` semantics (sampling: rejected; elicitation: "decline"),
and the user is told, without a modal dialog, in the Errors tab.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from inspector.protocol.asks import ServerAsk
from inspector.responder import PolicyResponder

__all__ = ["GuiResponder"]


class GuiResponder(PolicyResponder):
    def __init__(
        self, roots: Sequence[dict[str, Any]], on_notice: Callable[[str, bool], None]
    ) -> None:
        """`on_notice(text, declined)`: declined asks belong in the Errors tab."""
        super().__init__(None, roots)
        self._on_notice = on_notice

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        if ask.kind == "roots":
            self._on_notice(
                f"The server asked for roots ({ask.origin}); answered with the profile's "
                f"{len(self.roots)} root(s).",
                False,
            )
        else:
            outcome = "declined" if ask.kind == "elicitation" else "rejected"
            self._on_notice(
                f"The server asked for {ask.kind} ({ask.method}, {ask.origin}); it was "
                f"{outcome} automatically. Answering sampling and elicitation by hand in a "
                "dialog comes in the next version of the app.",
                True,
            )
        return await super().respond(ask)
