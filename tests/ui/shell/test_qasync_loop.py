"""Regression: PySide6 6.12.0 + qasync on Python 3.11 dropped a reference to None per loop
iteration and aborted busy sessions ("Fatal Python error: none_dealloc"). Run the app's own
loop setup for 60,000 iterations plus a subprocess flood, in a child process, and require a
clean exit and a stable refcount of None.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tests.helpers.peers import PY, REPO

pytestmark = pytest.mark.timeout(120)

CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from inspector.ui.shell.event_loop import run_qt_async

    async def main():
        before = sys.getrefcount(None)
        for _ in range(60_000):
            await asyncio.sleep(0)
        # A busy subprocess: 20,000 stdout lines read through asyncio under qasync.
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", "import sys\\nfor i in range(20000): print(i)",
            stdout=asyncio.subprocess.PIPE,
        )
        assert proc.stdout is not None
        lines = 0
        while await proc.stdout.readline():
            lines += 1
        await proc.wait()
        return before, sys.getrefcount(None), lines

    before, after, lines = run_qt_async(main)
    print(before, after, lines)
    """
)


def test_qasync_loop_survives_many_iterations() -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([PY, "-c", CHILD], capture_output=True, text=True, timeout=110, env=env)
    assert proc.returncode == 0, f"rc={proc.returncode}\n{proc.stderr[-2000:]}"
    before, after, lines = (int(x) for x in proc.stdout.split())
    assert lines == 20_000
    if sys.version_info < (3, 12):
        # The bug lost one reference per iteration: 60k iterations would drop ~60k.
        assert after > before - 1000, f"None refcount fell from {before} to {after}"


def test_pyside6_pin_holds_on_python_311() -> None:
    from importlib.metadata import version

    pyside = version("PySide6-Essentials")
    if sys.version_info < (3, 12):
        major, minor = (int(p) for p in pyside.split(".")[:2])
        assert (major, minor) < (6, 12), f"PySide6 {pyside} leaks None under qasync on 3.11"
