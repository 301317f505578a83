"""`task_failure`: what a done task ended with, for the callbacks that report it."""

from __future__ import annotations

import asyncio

from inspector.common.tasks import task_failure


async def _ok() -> None:
    return None


async def _boom() -> None:
    raise ValueError("boom")


async def _forever() -> None:
    await asyncio.Event().wait()


async def test_a_failed_task_gives_its_exception_and_the_others_none() -> None:
    ok, failed, cancelled = (asyncio.create_task(c) for c in (_ok(), _boom(), _forever()))
    cancelled.cancel()
    await asyncio.wait({ok, failed, cancelled})
    assert task_failure(ok) is None
    assert isinstance(task_failure(failed), ValueError)
    assert task_failure(cancelled) is None
