"""One request in flight, as the connection tracks it (stable key, changing wire id)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.protocol.wire.jsonrpc import RequestId


@dataclass
class Pending:
    key: int
    method: str
    params: dict[str, Any] | None  # as the caller gave them (no MRTR fields, no our _meta)
    wire_id: RequestId
    started: float
    timeout: float | None
    max_total: float | None
    progress_token: str | None
    last_activity: float
    internal: str | None = None  # "initialize" | "discover" for the handshake
    raw: bool = False  # sent verbatim by the user: no MRTR, no retries
    on_wire: bool = True  # False while a modern request waits for the user's input
    wire_rounds: int = 1
    mrtr_rounds: int = 0
    request_state: str | None = None
    asks: dict[str, int] = field(default_factory=dict)  # input key -> ask id
    responses: dict[str, Any] = field(default_factory=dict)
    retry_at: float | None = None  # state-only MRTR backoff
    waiting_since: float | None = None  # MRTR: when the user was asked (not the server's time)
    state_only_streak: int = 0
    same_version_retried: bool = False  # -32022 listing the version we sent: retried once

    def deadline(self) -> float | None:
        if not self.on_wire:
            return self.retry_at
        candidates = []
        if self.timeout is not None:
            candidates.append(self.last_activity + self.timeout)
        if self.max_total is not None:
            candidates.append(self.started + self.max_total)
        return min(candidates) if candidates else None
