"""The handshake: legacy initialize, modern server/discover, the auto-era probe, -32022."""

from __future__ import annotations

from typing import Any

from inspector.protocol.config import (
    META_SERVER_INFO,
    ConnectionState,
)
from inspector.protocol.core import ConnectionCore
from inspector.protocol.errors import LocalProtocolError
from inspector.protocol.events import (
    Event,
    ProtocolViolation,
    RequestFailed,
    VersionRenegotiated,
)
from inspector.protocol.jsonrpc import (
    HEADER_MISMATCH,
    METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    UNSUPPORTED_PROTOCOL_VERSION,
    ErrorResponse,
    Notification,
    Response,
    error_name,
)
from inspector.protocol.pending import Pending
from inspector.protocol.versions import (
    LATEST_MODERN,
    LEGACY_VERSIONS,
    MODERN_VERSIONS,
    Era,
    EraSetting,
    is_supported,
)


class HandshakeMixin(ConnectionCore):
    def start(self, now: float) -> int:
        """Queue the handshake for the configured era. Returns the handshake request key."""
        if self.state is not ConnectionState.IDLE:
            raise LocalProtocolError(f"start() called in state {self.state}")
        setting = self.config.era
        if setting is EraSetting.LEGACY:
            return self._send_initialize(now)
        self.era = Era.MODERN
        self.protocol_version = self.config.modern_version
        if setting is EraSetting.AUTO:
            self.state = ConnectionState.PROBING
            timeout: float | None = self.config.auto_probe_timeout
        else:
            self.state = ConnectionState.DISCOVERING
            timeout = self.config.request_timeout
        return self._queue(
            "server/discover", {}, now, internal="discover", timeout=timeout, progress=False
        )

    def _send_initialize(self, now: float) -> int:
        self.era = Era.LEGACY
        self.state = ConnectionState.INITIALIZING
        self.protocol_version = None
        params = {
            "protocolVersion": self.config.legacy_version,
            "capabilities": self.config.capabilities,
            "clientInfo": self.config.client_info,
        }
        return self._queue("initialize", params, now, internal="initialize", progress=False)

    def _on_initialize_answer(
        self, p: Pending, msg: Response | ErrorResponse, now: float
    ) -> list[Event]:
        if isinstance(msg, ErrorResponse):
            events: list[Event] = [self._fail_error(p, msg)]
            return events + self._handshake_failed(f"initialize failed: {msg.code} {msg.message}")
        result = msg.result
        version = result.get("protocolVersion")
        offered = self.config.legacy_version
        if not isinstance(version, str) or version not in LEGACY_VERSIONS:
            shown = version if isinstance(version, str) else repr(version)
            why = (
                f"the server answered initialize with protocol version {shown}, which this "
                f"client does not support (we offered {offered}; we speak "
                f"{', '.join(LEGACY_VERSIONS)})"
            )
            self._forget(p)
            events = [RequestFailed(p.key, p.method, "protocol", why, wire_id=p.wire_id)]
            return events + self._handshake_failed(why)
        self.protocol_version = version
        self._record_server(result, result.get("serverInfo"))
        self.state = ConnectionState.READY
        self._outbox.append(Notification("notifications/initialized"))
        self.initialized_sent = True
        events = self._complete(p, result)
        events.append(self._ready_event(result))
        return events

    def _on_discover_answer(
        self, p: Pending, msg: Response | ErrorResponse, now: float
    ) -> list[Event]:
        probing = self.state is ConnectionState.PROBING
        if isinstance(msg, ErrorResponse):
            supported = (
                _supported_list(msg.data) if msg.code == UNSUPPORTED_PROTOCOL_VERSION else []
            )
            better = self._retry_version(p, supported)
            if better is not None:
                old = self.protocol_version or ""
                self.protocol_version = better
                p.wire_rounds += 1
                self._put_on_wire(p, now)
                return [VersionRenegotiated(old, better, "server/discover answered -32022")]
            if probing and msg.code in (HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY):
                # spec 2026-07-28 backward compatibility: a recognised modern error means a
                # modern server; correct the request rather than fall back to initialize.
                why = (
                    f"the server speaks the 2026-07-28 protocol but refused server/discover "
                    f"({msg.code} {error_name(msg.code)}: {msg.message}); not falling back "
                    "to initialize"
                )
                return [self._fail_error(p, msg, why), *self._handshake_failed(why)]
            if probing:
                self._forget(p)
                why = f"server/discover failed ({msg.code} {msg.message})"
                return self._fall_back_to_legacy(now, why)
            if msg.code == METHOD_NOT_FOUND:
                # spec 2026-07-28: server/discover is optional; go on without server info.
                events: list[Event] = [self._fail_error(p, msg)]
                self.state = ConnectionState.READY
                events.append(
                    ProtocolViolation(
                        "discover", "the server does not implement server/discover (optional)"
                    )
                )
                events.append(self._ready_event(None))
                return events
            if msg.code == UNSUPPORTED_PROTOCOL_VERSION:
                listed = ", ".join(supported) or "no list given"
                why = (
                    f"the server does not support protocol version {self.protocol_version} "
                    f"(it supports: {listed}); pick the legacy or auto era to use an older one"
                )
                events = [self._fail_error(p, msg, why)]
                return events + self._handshake_failed(why)
            events = [self._fail_error(p, msg)]
            return events + self._handshake_failed(
                f"server/discover failed: {msg.code} {msg.message}"
            )
        result = msg.result
        supported = _supported_list(result.get("supportedVersions"))
        mutual = _best_mutual(supported, MODERN_VERSIONS)
        if mutual is None:
            if probing:
                self._forget(p)
                return self._fall_back_to_legacy(
                    now, f"server/discover lists no modern version we speak ({supported})"
                )
            listed = ", ".join(supported) or "none"
            why = f"server/discover lists versions {listed}; none is one we speak in modern mode"
            self._forget(p)
            events = [RequestFailed(p.key, p.method, "protocol", why, wire_id=p.wire_id)]
            return events + self._handshake_failed(why)
        if mutual != self.protocol_version:
            self.protocol_version = mutual
        meta = result.get("_meta")
        server_info = meta.get(META_SERVER_INFO) if isinstance(meta, dict) else None
        self._record_server(result, server_info)
        self.state = ConnectionState.READY
        events = self._complete(p, result)
        events.append(self._ready_event(result))
        return events

    def _fall_back_to_legacy(self, now: float, why: str) -> list[Event]:
        old = self.protocol_version or LATEST_MODERN
        self._send_initialize(now)
        return [VersionRenegotiated(old, self.config.legacy_version, f"{why}; trying initialize")]

    def _handshake_failed(self, why: str) -> list[Event]:
        self.state = ConnectionState.FAILED
        self.failure = why
        events: list[Event] = []
        for p in list(self._pending.values()):
            self._forget(p)
            self._remember(self._given_up, p.wire_id, (p.method, why))
            events.append(RequestFailed(p.key, p.method, "closed", why, wire_id=p.wire_id))
        return events

    def _retry_version(self, p: Pending, supported: list[str]) -> str | None:
        """The version to retry with after -32022: the best mutual one other than the one
        refused; else, once per request, the same one if the server lists it as supported
        (spec 2026-07-28: "choose a mutually supported version from this list and retry")."""
        better = _best_mutual(supported, MODERN_VERSIONS, exclude=self.protocol_version)
        current = self.protocol_version
        if (
            better is None
            and current is not None
            and current in supported
            and current in MODERN_VERSIONS
            and not p.same_version_retried
        ):
            p.same_version_retried = True
            return current
        return better


def _supported_list(value: Any) -> list[str]:
    if isinstance(value, dict):
        value = value.get("supported")
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, str)]


def _best_mutual(
    theirs: list[str], ours: tuple[str, ...], exclude: str | None = None
) -> str | None:
    mutual = [v for v in theirs if v in ours and v != exclude and is_supported(v)]
    return max(mutual) if mutual else None
