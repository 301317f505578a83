"""Bounded waits for a condition, without a Qt loop: a test waits for what it needs to have
happened, never for a fixed time (tests/architecture/test_no_fixed_sleeps.py counts what is left).
GUI tests poll with `tests.helpers.gui.until`, which runs inside the qasync loop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


async def until(predicate: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    """Poll `predicate` on the running loop until it holds; fail after `timeout` s."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(0.02)


def wait_until(predicate: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    """The blocking twin of `until`, for tests on threads and child processes."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.01)
