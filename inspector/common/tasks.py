"""Ending the asyncio tasks an object started: each gets a grace period to finish on its
own, then is cancelled; a failure is logged, never raised from a close."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

__all__ = ["settle_tasks"]


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
