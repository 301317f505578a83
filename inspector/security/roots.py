"""The roots rule: a server offering files the client did not open to it.

- `resource.file-outside-roots` (medium): a resource whose `file://` URI is outside every
  root the client declared (`ServerDefinitions.roots`). URIs are compared as paths:
  percent-decoded and normalized (`..` and `.` resolved, no file system is read), so
  `file:///project/../etc/passwd` is outside `file:///project`. A root with another host,
  or a resource on another host, never contains the other. No roots declared: no finding
  (there is nothing to be outside of).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from typing import Final
from urllib.parse import unquote, urlsplit

from inspector.security.definitions import ServerDefinitions
from inspector.security.finding import SecurityFinding, Severity, evidence
from inspector.security.strings import item_name

__all__ = ["file_path", "outside_roots"]

_SPEC: Final = "Client features: roots (servers respect root boundaries)"
_LOCAL: Final = frozenset({"", "localhost"})


def file_path(uri: str) -> tuple[str, str] | None:
    """(host, normalized path) of a `file://` URI; None for any other URI. A Windows
    drive path (`/C:/x`) is case-folded, as Windows compares it."""
    try:
        parts = urlsplit(uri.strip())
    except ValueError:
        return None
    if parts.scheme.lower() != "file":
        return None
    host = parts.hostname or ""
    path = posixpath.normpath("/" + unquote(parts.path).lstrip("/"))
    if len(path) >= 3 and path[2] == ":" and path[1].isalpha():
        path = path.casefold()
    return ("" if host.lower() in _LOCAL else host.lower()), path


def _inside(path: tuple[str, str], root: tuple[str, str]) -> bool:
    if path[0] != root[0]:
        return False
    base = root[1]
    return path[1] == base or path[1].startswith(base.rstrip("/") + "/")


def outside_roots(server: ServerDefinitions) -> Iterator[SecurityFinding]:
    roots = [p for r in server.roots if isinstance(r, str) and (p := file_path(r)) is not None]
    if not roots:
        return
    for kind, raw in server.items():
        if kind != "resource":
            continue
        uri = item_name(kind, raw)
        path = file_path(uri)
        if path is None or any(_inside(path, root) for root in roots):
            continue
        shown = ", ".join(r for r in server.roots if isinstance(r, str))[:200]
        yield SecurityFinding(
            rule="resource.file-outside-roots",
            severity=Severity.MEDIUM,
            server=server.name,
            kind="resource",
            item=uri,
            field="uri",
            pointer="/uri",
            offset=0,
            evidence=evidence(uri, 0, len(uri)),
            reason=f"a file outside the declared roots ({path[1]} is under none of {shown})",
            spec=_SPEC,
        )
