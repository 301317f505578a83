"""What the checks share: the profile, a live session that is replaced by a fresh one when
a check broke it, the lint of everything the battery saw, and raw one-shot exchanges for
the messages the session would never send (an unsupported version, a bad header)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from inspector.core.server_connection import (
    ConnectError,
    ServerConnection,
    close_within,
    connection_for,
)
from inspector.lint import LintStore, LiveLinter
from inspector.lint.live import loop_scheduler
from inspector.protocol.machine.config import META_CLIENT_CAPS, META_CLIENT_INFO, META_VERSION
from inspector.protocol.machine.events import InvalidFrame
from inspector.protocol.wire.http_headers import request_headers
from inspector.protocol.wire.versions import Era
from inspector.settings.connect import client_config_for, transport_for
from inspector.settings.profiles import Profile
from inspector.storage.secrets import SecretStore
from inspector.traffic.log import TrafficLog
from inspector.transports.base import (
    FrameReceived,
    FramesReceived,
    Outgoing,
    StderrLine,
    TransportClosed,
)

__all__ = ["CheckContext", "CheckOptions", "RawAnswer"]


@dataclass(frozen=True)
class CheckOptions:
    call_read_only: bool = False
    timeout: float = 10.0  # per request
    check_timeout: float = 30.0  # per check
    max_items: int = 10  # resources read, prompts got, tools called


@dataclass
class RawAnswer:
    """What a raw exchange got back: the parsed answer, or why there was none."""

    message: dict[str, Any] | None = None
    frames: list[str] = field(default_factory=list)
    closed: TransportClosed | None = None
    timed_out: bool = False

    def describe(self) -> str:
        if self.message is not None:
            return json.dumps(self.message, ensure_ascii=False)[:400]
        if self.closed is not None:
            tail = " | ".join(self.closed.stderr_tail[-3:])
            return f"no answer: the connection closed ({self.closed.reason})" + (
                f"; last stderr: {tail}" if tail else ""
            )
        return "no answer within the time bound" if self.timed_out else "no answer"


class CheckContext:
    def __init__(
        self, profile: Profile, options: CheckOptions, secrets: SecretStore | None = None
    ) -> None:
        self.profile = profile
        self.options = options
        self.secrets = secrets
        self.traffic = TrafficLog()
        self.lint = LintStore()
        self.linter = LiveLinter(self.traffic, self.lint, loop_scheduler, huge_listings=False)
        self.session: ServerConnection | None = None
        self.sessions_opened = 0
        self.session_began = 0  # the traffic index where the current session began
        self.stderr_lines = 0
        self.invalid_frames: list[str] = []  # why and what, of each frame that was not JSON-RPC
        self.ready_version: str | None = None
        self.era: Era | None = None
        self.capabilities: dict[str, Any] = {}
        self.server_info: dict[str, Any] = {}

    @property
    def transport_kind(self) -> str:
        return "stdio" if self.profile.transport == "stdio" else "http"

    async def live(self) -> ServerConnection:
        """The battery's session; a fresh one if the last check broke the connection.
        Raises ConnectError when the server cannot be reached."""
        session = self.session
        if session is not None and session.is_ready and session.closed is None:
            return session
        if session is not None:
            await self.drop()
        session = connection_for(self.profile, self.secrets)
        self.session_began = len(self.traffic)
        self.linter.begin_session()
        session.add_traffic_observer(self.traffic.observe)
        session.add_listener(self._heard)
        self.session = session
        self.sessions_opened += 1
        try:
            await session.connect(timeout=self.options.timeout)
        except ConnectError as exc:
            self.linter.release()
            await self.drop()
            if self.invalid_frames:  # "no answer" is not the whole truth: it wrote, not JSON-RPC
                where = "line(s) to stdout" if self.transport_kind == "stdio" else "message(s)"
                first = self.invalid_frames[0]
                raise type(exc)(
                    f"{exc}; the server wrote {len(self.invalid_frames)} invalid {where},"
                    f" first: {first}"
                ) from exc
            raise
        self.linter.session_ready(session.protocol_version)
        self.ready_version = session.protocol_version
        self.era = session.era
        self.capabilities = dict(session.server_capabilities)
        self.server_info = dict(session.server_info)
        return session

    def _heard(self, item: object) -> None:
        if isinstance(item, StderrLine):
            self.stderr_lines += 1
        elif isinstance(item, InvalidFrame):
            raw = item.invalid.raw
            shown = raw if isinstance(raw, str) else repr(raw)
            self.invalid_frames.append(f"{item.invalid.reason}: {shown[:120]!r}")

    async def drop(self) -> None:
        session, self.session = self.session, None
        if session is not None:
            await close_within(session)

    async def close(self) -> None:
        await self.drop()
        self.linter.release()
        self.linter.flush()
        self.linter.close()

    async def raw(
        self,
        message: dict[str, Any],
        *,
        era: Era,
        version: str,
        headers: dict[str, str] | None = None,
        timeout: float | None = None,
    ) -> RawAnswer:
        """Send one message on a fresh transport of its own (no session, no handshake) and
        wait for its answer: the messages a session would never send (an unsupported
        version, a bad header). Malformed messages inside a live session go through the
        session's raw channel instead (`ServerConnection.send_raw`)."""
        transport = transport_for(self.profile, self.secrets)
        answer = RawAnswer()
        wire = json.dumps(message, separators=(",", ":"))
        method = message.get("method")
        hdrs = headers
        if hdrs is None and era is Era.MODERN and isinstance(method, str):
            hdrs = request_headers(method, message.get("params"), version)
        info = Outgoing(
            kind="request",
            method=method if isinstance(method, str) else None,
            wire_id=message.get("id"),
            era="modern" if era is Era.MODERN else "legacy",
            protocol_version=version,
            headers=hdrs or {},
        )
        deadline = time.monotonic() + (timeout or self.options.timeout)
        try:
            await transport.start()
            await transport.send(wire, info=info)
            events = transport.events().__aiter__()
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    answer.timed_out = True
                    break
                try:
                    event = await asyncio.wait_for(events.__anext__(), left)
                except (TimeoutError, StopAsyncIteration):
                    answer.timed_out = True
                    break
                if isinstance(event, TransportClosed):
                    answer.closed = event
                    break
                # stdio brings every frame of one read together (FramesReceived)
                frames = event.frames() if isinstance(event, FramesReceived) else [event]
                if self._collect(answer, frames, message.get("id")):
                    break
        except Exception as exc:  # a transport that cannot even start: evidence, not a crash
            answer.closed = TransportClosed(f"{type(exc).__name__}: {exc}", error=True)
        finally:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(transport.close(), 10)
        return answer

    @staticmethod
    def _collect(answer: RawAnswer, events: list[Any], msg_id: Any) -> bool:
        """Keep the frames among `events`; True once the answer to `msg_id` is among them."""
        for event in events:
            if not isinstance(event, FrameReceived):
                continue
            raw = event.raw if isinstance(event.raw, str) else event.raw.decode("utf-8", "replace")
            answer.frames.append(raw)
            try:
                value = json.loads(raw)
            except ValueError:
                continue
            if (
                isinstance(value, dict)
                and value.get("id") == msg_id
                and ("result" in value or "error" in value)
            ):
                answer.message = value
                return True
        return False

    def modern_meta(self, version: str) -> dict[str, Any]:
        config = client_config_for(self.profile)
        return {
            META_VERSION: version,
            META_CLIENT_INFO: config.client_info,
            META_CLIENT_CAPS: config.capabilities,
        }
