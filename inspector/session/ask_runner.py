"""Server asks in flight: each one handed to the `Responder` in a task of its own, its answer
or refusal given back to the connection, and the task cancelled when the server withdraws
the ask or the session closes (the responder can tell the user why)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.wire.errors import LocalProtocolError
from inspector.session.responder import AskRejected

__all__ = ["AskRunner"]

log = logging.getLogger(__name__)


class AskRunner:
    def __init__(
        self,
        respond: Callable[[ServerAsk], Awaitable[dict[str, Any]]],
        answer: Callable[[int, dict[str, Any]], None],
        reject: Callable[[int, str], None],
    ) -> None:
        self._respond = respond
        self._answer = answer
        self._reject = reject
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def start(self, ask: ServerAsk) -> None:
        async def run() -> None:
            try:
                result = await self._respond(ask)
            except asyncio.CancelledError:
                return
            except AskRejected as exc:
                self._reject(ask.ask_id, str(exc) or "rejected by the user")
            except Exception as exc:
                log.exception("responder failed")
                self._reject(ask.ask_id, f"the client failed to answer: {exc}")
            else:
                try:
                    self._answer(ask.ask_id, result)
                except LocalProtocolError as exc:  # e.g. NaN: the server gets a refusal
                    self._reject(ask.ask_id, f"the client's answer {exc}")
            finally:
                self._tasks.pop(ask.ask_id, None)

        self._tasks[ask.ask_id] = asyncio.create_task(run(), name=f"ask-{ask.ask_id}")

    def withdraw(self, ask_id: int, reason: str) -> None:
        """The server cancelled the ask (or the request it belongs to ended)."""
        task = self._tasks.pop(ask_id, None)
        if task is not None:
            task.cancel(reason)

    def cancel_all(self, reason: str) -> None:
        for task in list(self._tasks.values()):
            task.cancel(reason)
