"""What the HTTP tap accepts: loopback listening addresses only, and requests whose Host
and Origin name this machine (DNS-rebinding protection, as the MCP spec asks of local
servers: streamable HTTP transport, security warning)."""

from __future__ import annotations

import ipaddress
from typing import Final
from urllib.parse import urlsplit

__all__ = ["LOOPBACK_NAMES", "host_allowed", "origin_allowed", "parse_listen"]

LOOPBACK_NAMES: Final = ("127.0.0.1", "localhost", "::1", "[::1]")


def _is_loopback(host: str) -> bool:
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_listen(value: str) -> tuple[str, int]:
    """`127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT`. Raises ValueError otherwise."""
    host, sep, port_text = value.rpartition(":")
    if not sep or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"--listen {value!r}: give HOST:PORT, e.g. 127.0.0.1:8765")
    if not _is_loopback(host):
        raise ValueError(
            f"--listen {value!r}: the tap listens on loopback addresses only "
            "(127.0.0.1, ::1 or localhost), never on a network"
        )
    return host.strip("[]"), int(port_text)


def host_allowed(host_header: str | None, port: int) -> bool:
    """The Host header must name this machine (and our port, when it gives one)."""
    if not host_header:
        return False
    parts = urlsplit(f"//{host_header}")
    try:
        given = parts.port
    except ValueError:
        return False
    return _is_loopback(parts.hostname or "") and (given is None or given == port)


def origin_allowed(origin: str | None) -> bool:
    """No Origin (not a browser), or an Origin on this machine."""
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and _is_loopback(parts.hostname or "")
