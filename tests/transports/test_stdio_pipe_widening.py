"""Widening the server's stdout pipe is best effort: a server that exited at once (its
pipe already closed by asyncio) must not turn the connect into a traceback (it happened in
a `replay --use-recorded-command` of `sh` that exits at once, on a busy machine)."""

from __future__ import annotations

import asyncio
import sys

import pytest

from inspector.transports.stdio import _widen_pipe

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="F_SETPIPE_SZ")


async def test_a_pipe_closed_before_it_is_widened_is_left_alone() -> None:
    proc = await asyncio.create_subprocess_exec(
        "sh", "-c", "exit 0", stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdout is not None
    assert await proc.stdout.read() == b""  # EOF: asyncio closes the read pipe
    await proc.wait()
    for _ in range(50):  # the transport closes its pipe on the next turns
        await asyncio.sleep(0.01)
    _widen_pipe(proc)  # no ValueError
