"""Ending the asyncio tasks an object started: each gets a grace period to finish on its
own, then is cancelled; a failure is logged, never raised from a close. And what a done
task failed with (`task_failure`), for the callbacks that report it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

__all__ = ["settle_tasks", "task_failure"]


def task_failure(task: asyncio.Task[Any]) -> BaseException | None:
    """The exception a done task ended with; None when it succeeded or was cancelled."""
    return None if task.cancelled() else task.exception()


async def settle_tasks(
    tasks: Iterable[asyncio.Task[None]], grace: float, log: logging.Logger, what: str
) -> None:
    for task in tasks:
        if task.done():
            continue
        try:
            await asyncio.wait_for(asyncio.shield(task), grace)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()
        except Exception:
            log.exception("%s ended with an error", what)
