"""The demo server in its HTTP mode, for tests: started on a free loopback port, its URL
read from the first line of its stdout, stopped (SIGTERM, then SIGKILL) at the end."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

from tests.helpers.peers import PY, REPO


@contextmanager
def demo_http_server(*args: str) -> Iterator[str]:
    proc = subprocess.Popen(
        [PY, "-m", "inspector", "demo-server", "--http", "127.0.0.1:0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=REPO,
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp"), url
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
