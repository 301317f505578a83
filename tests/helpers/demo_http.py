"""The demo server in its HTTP mode, for tests: started on a free loopback port, its URL
read from the first line of its stdout, stopped (SIGTERM, then SIGKILL) at the end."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from tests.helpers.http_servers import free_port
from tests.helpers.peers import PY, REPO

# A legacy initialize, as a raw client sends it to the demo server (over HTTP or stdio).
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    },
}


@contextmanager
def demo_http_server(*args: str, address: str = "127.0.0.1:0") -> Iterator[str]:
    """`address` with a fixed port lets a test stop the server and start another on the
    same URL (a server restart, which forgets its sessions)."""
    proc = subprocess.Popen(
        [PY, "-m", "inspector", "demo-server", "--http", address, *args],
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


class RestartableDemo:
    """The demo server on a fixed port; `restart()` stops it and starts a fresh one."""

    def __init__(self) -> None:
        self.address = f"127.0.0.1:{free_port()}"
        self._stack = ExitStack()
        self.url = self._start()

    def _start(self) -> str:
        return self._stack.enter_context(demo_http_server(address=self.address))

    def restart(self) -> None:
        self._stack.close()
        self._stack = ExitStack()
        assert self._start() == self.url

    def close(self) -> None:
        self._stack.close()
