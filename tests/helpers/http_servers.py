"""Start HTTP server processes for tests: a free port, a bounded wait, a sure teardown."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    port: int
    log_path: str

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        with open(self.log_path, "rb") as handle:
            return handle.read().decode("utf-8", "replace")


def _wait_port(served: Served, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if served.process.poll() is not None:
            raise RuntimeError(
                f"the server exited with {served.process.returncode} before listening:\n"
                + served.log()[-2000:]
            )
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", served.port), timeout=0.2),
        ):
            return
        time.sleep(0.05)
    raise RuntimeError(f"port {served.port} not accepting after {timeout:g} s:\n{served.log()}")


def _stop(served: Served) -> None:
    process = served.process
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(3)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(3)
    with contextlib.suppress(OSError):
        os.unlink(served.log_path)


@contextlib.contextmanager
def serving(
    commands: Sequence[tuple[list[str], dict[str, str], int]], timeout: float = 20.0
) -> Iterator[list[Served]]:
    """Start every (argv, extra env, port) at once, wait until each port accepts, and
    kill them all (process groups) at the end."""
    started: list[Served] = []
    try:
        for argv, env, port in commands:
            fd, log_path = tempfile.mkstemp(prefix="mcp-peer-", suffix=".log")
            process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=fd,
                stderr=subprocess.STDOUT,
                env={**os.environ, **env},
                start_new_session=True,
            )
            os.close(fd)
            started.append(Served(process, port, log_path))
        for served in started:
            try:
                _wait_port(served, timeout)
            except RuntimeError as exc:
                pytest.fail(str(exc))
        yield started
    finally:
        for served in started:
            _stop(served)


@contextlib.contextmanager
def oauth_peer(token_ttl: int) -> Iterator[str]:
    """tests/servers/sdk/oauth_server.py (the mcp SDK's authorization server pieces in front
    of an MCP endpoint), its access tokens valid `token_ttl` seconds: yields its base URL
    once it answers, and stops it at the end. Skips when the SDK is not installed."""
    import httpx

    from tests.helpers.peers import PY, SERVERS

    pytest.importorskip("mcp.server.auth", reason="the mcp SDK is a test dependency")
    port = free_port()
    proc = subprocess.Popen(
        [PY, str(SERVERS / "sdk" / "oauth_server.py"), str(port), str(token_ttl)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(f"{base}/.well-known/oauth-protected-resource/mcp", timeout=1)
                break
            except httpx.HTTPError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"the OAuth peer did not start (exit code {proc.poll()})"
                    ) from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
