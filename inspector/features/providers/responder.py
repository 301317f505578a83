"""Headless sampling through a model: giving the CLI's --sampling-* flags is the consent, so
each sampling ask is sent to the model and its answer returned as it is. Everything else
goes to the policy responder underneath. A model that fails rejects the ask with the reason
(legacy: error -1 to the server; modern: the request is abandoned), never a hang."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from inspector.features.asks.sampling import parse_sampling_request
from inspector.features.providers.drafter import Drafter
from inspector.features.providers.types import ModelError
from inspector.protocol.machine.asks import ServerAsk
from inspector.session.responder import AskRejected, Responder

__all__ = ["ModelResponder"]


class ModelResponder:
    def __init__(
        self,
        drafter: Drafter,
        fallback: Responder,
        *,
        request_timeout: float,
        on_note: Callable[[str], None],
    ) -> None:
        self.drafter = drafter
        self.fallback = fallback
        self.request_timeout = request_timeout
        self._on_note = on_note
        self.drafts = 0

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        if ask.kind != "sampling":
            return await self.fallback.respond(ask)
        request = parse_sampling_request(ask.params)
        deadline = time.monotonic() + self.request_timeout
        try:
            draft = await self.drafter.draft(request, deadline=deadline)
        except ModelError as exc:
            self._on_note(f"sampling ({ask.origin}): the model could not answer: {exc}")
            raise AskRejected(f"the model could not answer: {exc}") from exc
        self.drafts += 1
        waited = f" (after {draft.attempts - 1} rate-limit wait(s))" if draft.attempts > 1 else ""
        self._on_note(
            f"sampling ({ask.origin}) answered by {draft.choice.label}: {draft.choice.reason}; "
            f"{draft.summary()}{waited}"
        )
        for note in draft.notes:
            self._on_note(f"sampling note: {note}")
        return draft.result
