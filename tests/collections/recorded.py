"""Record real sessions for the collection tests: as the app does (a SessionRecorder on a
live Session), or through the real `tap` command with our Session as its host."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspector.protocol.machine.config import ClientConfig
from inspector.protocol.wire.versions import EraSetting
from inspector.recording.format import Redactor, connection_summary, header_line
from inspector.recording.writer import SessionRecorder
from inspector.session import PolicyResponder, Session, SessionError
from inspector.transports.base import Transport
from inspector.transports.stdio import StdioParams, StdioTransport
from tests.collections.runs import ASK_CAPS
from tests.helpers.peers import PY, SERVERS, subprocess_env
from tests.helpers.tap import tap_argv, tap_env

ECHO_SERVER = [PY, str(SERVERS / "sdk" / "echo_drift_server.py")]
LLM_ANSWER = {
    "role": "assistant",
    "model": "recorded-model",
    "content": {"type": "text", "text": "forty-two"},
}

Call = tuple[str, dict[str, Any]]
ECHO_CALLS: list[Call] = [
    ("tools/list", {}),
    ("tools/call", {"name": "echo", "arguments": {"text": "hello"}}),
    ("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}}),
    ("tools/call", {"name": "sample_llm", "arguments": {"prompt": "the answer?"}}),
    ("resources/read", {"uri": "info://greeting"}),
    ("prompts/get", {"name": "greet", "arguments": {"name": "Ada"}}),
    ("tools/call", {"name": "no_such_tool", "arguments": {}}),
]


async def _drive(session: Session, calls: Sequence[Call]) -> None:
    for method, params in calls:
        if method == "tools/list":
            await session.client.list_tools()
            continue
        with contextlib.suppress(SessionError):  # an error answer is recorded too
            await session.request(method, params)


def record(
    path: Path,
    transport: Transport,
    calls: Sequence[Call],
    *,
    era: str = "legacy",
    secrets: Sequence[str] = (),
) -> Path:
    async def go() -> None:
        config = ClientConfig(era=EraSetting(era), capabilities=dict(ASK_CAPS))
        session = Session(transport, config, PolicyResponder({"sampling": LLM_ANSWER}))
        header = header_line(
            connection_summary(transport=transport.kind),
            era=era,
            client_info=config.client_info,
            client_capabilities=config.capabilities,
        )
        recorder = SessionRecorder(path, header, redactor=Redactor(secrets))
        recorder.start()
        session.add_traffic_observer(recorder.observe)
        try:
            recorder.ready(await session.connect(timeout=30))
            await _drive(session, calls)
        finally:
            await asyncio.wait_for(session.close(), 15)
            recorder.close()

    asyncio.run(asyncio.wait_for(go(), 90))
    return path


def record_through_tap(
    path: Path, runtime: Path, server: Sequence[str], calls: Sequence[Call], *, era: str
) -> Path:
    """The tap records the session; our Session is the host that drives it."""
    argv = tap_argv(path, server)
    env = tap_env(runtime)
    transport = StdioTransport(StdioParams(argv[0], argv[1:], env=env))

    async def go() -> None:
        config = ClientConfig(era=EraSetting(era), capabilities=dict(ASK_CAPS))
        session = Session(transport, config, PolicyResponder({"sampling": LLM_ANSWER}))
        try:
            await session.connect(timeout=30)
            await _drive(session, calls)
        finally:
            await asyncio.wait_for(session.close(), 15)

    asyncio.run(asyncio.wait_for(go(), 90))
    return path


def stdio_of(argv: Sequence[str]) -> StdioTransport:
    return StdioTransport(StdioParams(argv[0], list(argv[1:]), env=subprocess_env()))
