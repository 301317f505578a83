"""`Handshake`: legacy initialize, modern server/discover, the auto-era probe and its fallback.

The handshake is the only part that moves the connection towards READY (or FAILED): it
fires the lifecycle triggers and records what the server said about itself in the shared
`Negotiated`. Its requests are ordinary pending requests marked `internal`, so timeouts,
cancels and transport failures reach it through the connection.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.protocol.machine.config import META_SERVER_INFO
from inspector.protocol.machine.events import (
    Event,
    ProtocolViolation,
    RequestFailed,
    VersionRenegotiated,
)
from inspector.protocol.machine.parts import ConnectionParts
from inspector.protocol.machine.pending import Pending
from inspector.protocol.machine.state import ConnectionState, Trigger
from inspector.protocol.machine.version_retry import best_mutual, supported_list
from inspector.protocol.wire.errors import LocalProtocolError
from inspector.protocol.wire.jsonrpc import (
    HEADER_MISMATCH,
    METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    UNSUPPORTED_PROTOCOL_VERSION,
    ErrorResponse,
    Notification,
    Response,
    error_name,
)
from inspector.protocol.wire.versions import (
    LATEST_MODERN,
    LEGACY_VERSIONS,
    MODERN_VERSIONS,
    Era,
    EraSetting,
)

__all__ = ["Handshake"]


@dataclass(slots=True, eq=False)
class Handshake:
    """Starts the session in the configured era and reads the server's first answer."""

    _parts: ConnectionParts

    def start(self, now: float) -> int:
        """Queue the handshake for the configured era. Returns the handshake request key."""
        if self._parts.lifecycle.state is not ConnectionState.IDLE:
            raise LocalProtocolError(f"start() called in state {self._parts.lifecycle.state}")
        setting = self._parts.config.era
        if setting is EraSetting.LEGACY:
            self._parts.lifecycle.fire(Trigger.START_LEGACY)
            return self._send_initialize(now)
        self._parts.negotiated.era = Era.MODERN
        self._parts.negotiated.protocol_version = self._parts.config.modern_version
        if setting is EraSetting.AUTO:
            self._parts.lifecycle.fire(Trigger.START_AUTO)
            timeout: float | None = self._parts.config.auto_probe_timeout
        else:
            self._parts.lifecycle.fire(Trigger.START_MODERN)
            timeout = self._parts.config.request_timeout
        return self._parts.wire.queue(
            "server/discover", {}, now, internal="discover", timeout=timeout, progress=False
        )

    def is_probe(self, p: Pending) -> bool:
        """Is `p` the auto era's server/discover, whose failure means "try initialize"?"""
        return p.internal == "discover" and self._parts.lifecycle.state is ConnectionState.PROBING

    def on_answer(self, p: Pending, msg: Response | ErrorResponse, now: float) -> list[Event]:
        """The server answered the handshake request `p` (its wire id is already unbound)."""
        if p.internal == "initialize":
            return self._on_initialize_answer(p, msg, now)
        return self._on_discover_answer(p, msg, now)

    def fall_back_to_legacy(self, now: float, why: str) -> list[Event]:
        """The auto-era probe failed (the caller already ended it): try initialize."""
        old = self._parts.negotiated.protocol_version or LATEST_MODERN
        self._parts.lifecycle.fire(Trigger.FALLBACK_TO_LEGACY)
        self._send_initialize(now)
        return [
            VersionRenegotiated(old, self._parts.config.legacy_version, f"{why}; trying initialize")
        ]

    def fail(self, why: str) -> list[Event]:
        """The handshake cannot finish: the connection fails, and so does every request."""
        self._parts.lifecycle.fire(Trigger.HANDSHAKE_FAILED, why=why)
        events: list[Event] = []
        for p in self._parts.pending.all():
            self._parts.pending.forget(p)
            self._parts.given_up.remember(p.wire_id, (p.method, why))
            events.append(RequestFailed(p.key, p.method, "closed", why, wire_id=p.wire_id))
        return events

    # ------------------------------------------------------------- legacy
    def _send_initialize(self, now: float) -> int:
        self._parts.negotiated.era = Era.LEGACY
        self._parts.negotiated.protocol_version = None
        params = {
            "protocolVersion": self._parts.config.legacy_version,
            "capabilities": self._parts.config.capabilities,
            "clientInfo": self._parts.config.client_info,
        }
        return self._parts.wire.queue(
            "initialize", params, now, internal="initialize", progress=False
        )

    def _on_initialize_answer(
        self, p: Pending, msg: Response | ErrorResponse, now: float
    ) -> list[Event]:
        if isinstance(msg, ErrorResponse):
            back = self._back_to_modern(p, msg, now)
            if back is not None:
                return back
            events: list[Event] = [self._parts.pending.fail_with_error(p, msg)]
            return events + self.fail(f"initialize failed: {msg.code} {msg.message}")
        result = msg.result
        version = result.get("protocolVersion")
        offered = self._parts.config.legacy_version
        if not isinstance(version, str) or version not in LEGACY_VERSIONS:
            shown = version if isinstance(version, str) else repr(version)
            why = (
                f"the server answered initialize with protocol version {shown}, which this "
                f"client does not support (we offered {offered}; we speak "
                f"{', '.join(LEGACY_VERSIONS)})"
            )
            self._parts.pending.forget(p)
            events = [RequestFailed(p.key, p.method, "protocol", why, wire_id=p.wire_id)]
            return events + self.fail(why)
        self._parts.negotiated.protocol_version = version
        self._parts.negotiated.record_server(result, result.get("serverInfo"))
        self._parts.lifecycle.fire(Trigger.INITIALIZE_ANSWERED)
        self._parts.outbox.put(Notification("notifications/initialized"))
        self._parts.negotiated.initialized_sent = True
        return [self._parts.pending.complete(p, result), self._parts.negotiated.ready_event(result)]

    def _back_to_modern(self, p: Pending, msg: ErrorResponse, now: float) -> list[Event] | None:
        """Auto era: initialize refused with -32022, listing a modern version we speak, is a
        modern server whose answer to the probe came too late (one slow to start: an npx
        or uvx first run). Ask it server/discover again, with the request timeout, rather
        than fail a server that speaks a version we do."""
        if self._parts.config.era is not EraSetting.AUTO:
            return None
        if msg.code != UNSUPPORTED_PROTOCOL_VERSION:
            return None
        version = best_mutual(supported_list(msg.data), MODERN_VERSIONS)
        if version is None:
            return None
        self._parts.pending.forget(p)
        self._parts.negotiated.era = Era.MODERN
        self._parts.negotiated.protocol_version = version
        self._parts.lifecycle.fire(Trigger.BACK_TO_MODERN)
        self._parts.wire.queue(
            "server/discover",
            {},
            now,
            internal="discover",
            timeout=self._parts.config.request_timeout,
            progress=False,
        )
        why = (
            f"initialize answered -32022 ({msg.message}): the server speaks {version}; "
            "trying server/discover again"
        )
        return [VersionRenegotiated(self._parts.config.legacy_version, version, why)]

    # ------------------------------------------------------------- modern
    def _on_discover_answer(
        self, p: Pending, msg: Response | ErrorResponse, now: float
    ) -> list[Event]:
        if isinstance(msg, ErrorResponse):
            return self._on_discover_error(p, msg, now)
        probing = self._parts.lifecycle.state is ConnectionState.PROBING
        result = msg.result
        supported = supported_list(result.get("supportedVersions"))
        mutual = best_mutual(supported, MODERN_VERSIONS)
        if mutual is None:
            if probing:
                self._parts.pending.forget(p)
                return self.fall_back_to_legacy(
                    now, f"server/discover lists no modern version we speak ({supported})"
                )
            listed = ", ".join(supported) or "none"
            why = f"server/discover lists versions {listed}; none is one we speak in modern mode"
            self._parts.pending.forget(p)
            events: list[Event] = [
                RequestFailed(p.key, p.method, "protocol", why, wire_id=p.wire_id)
            ]
            return events + self.fail(why)
        self._parts.negotiated.protocol_version = mutual
        meta = result.get("_meta")
        server_info = meta.get(META_SERVER_INFO) if isinstance(meta, dict) else None
        self._parts.negotiated.record_server(result, server_info)
        self._parts.lifecycle.fire(Trigger.DISCOVER_ANSWERED)
        return [self._parts.pending.complete(p, result), self._parts.negotiated.ready_event(result)]

    def _on_discover_error(self, p: Pending, msg: ErrorResponse, now: float) -> list[Event]:
        probing = self._parts.lifecycle.state is ConnectionState.PROBING
        supported = supported_list(msg.data) if msg.code == UNSUPPORTED_PROTOCOL_VERSION else []
        retried = self._parts.versions.retry(p, supported, now, "server/discover answered -32022")
        if retried is not None:
            return [retried]
        if probing and msg.code in (HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY):
            # spec 2026-07-28 backward compatibility: a recognised modern error means a
            # modern server; correct the request rather than fall back to initialize.
            why = (
                f"the server speaks the 2026-07-28 protocol but refused server/discover "
                f"({msg.code} {error_name(msg.code)}: {msg.message}); not falling back "
                "to initialize"
            )
            return [self._parts.pending.fail_with_error(p, msg, why), *self.fail(why)]
        if probing:
            self._parts.pending.forget(p)
            return self.fall_back_to_legacy(
                now, f"server/discover failed ({msg.code} {msg.message})"
            )
        if msg.code == METHOD_NOT_FOUND:
            # spec 2026-07-28: servers MUST implement server/discover; flag it, and go on
            # without server info (a debugger still lets the user try the rest).
            events: list[Event] = [self._parts.pending.fail_with_error(p, msg)]
            self._parts.lifecycle.fire(Trigger.DISCOVER_NOT_IMPLEMENTED)
            events.append(
                ProtocolViolation(
                    "discover",
                    "the server does not implement server/discover, which protocol "
                    "2026-07-28 requires (servers MUST implement it); going on without "
                    "server info",
                )
            )
            events.append(self._parts.negotiated.ready_event(None))
            return events
        if msg.code == UNSUPPORTED_PROTOCOL_VERSION:
            listed = ", ".join(supported) or "no list given"
            why = (
                f"the server does not support protocol version "
                f"{self._parts.negotiated.protocol_version} (it supports: {listed}); pick the "
                "legacy or auto era to use an older one"
            )
            return [self._parts.pending.fail_with_error(p, msg, why), *self.fail(why)]
        return [
            self._parts.pending.fail_with_error(p, msg),
            *self.fail(f"server/discover failed: {msg.code} {msg.message}"),
        ]
