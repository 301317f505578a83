"""Kept asyncio tasks: what a connection starts runs to its end, and a failure is reported.

A task nobody holds may be garbage-collected mid-flight, and an exception nobody awaits
is lost. Everything a connection starts (connects, listings, reads, calls the views
await) goes through one runner, which keeps it and hands a failure to the Errors store.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from inspector.common.tasks import task_failure

__all__ = ["TaskRunner"]

log = logging.getLogger(__name__)


class TaskRunner:
    def __init__(self, report: Callable[[str], None]) -> None:
        """`report(sentence)`: a task failed (the sentence names it and its exception)."""
        self._report = report
        self._tasks: set[asyncio.Task[Any]] = set()

    def start(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run `coro` as a kept task; a failure is reported, never lost."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        exc = task_failure(task)
        if exc is not None:
            log.error("%s failed", task.get_name(), exc_info=exc)
            self._report(f"{task.get_name()} failed: {exc!r}")

    def cancel_all(self) -> None:
        """Cancel every kept task but the one running this call (a shutdown in a task)."""
        for task in list(self._tasks):
            if task is not asyncio.current_task():
                task.cancel()
