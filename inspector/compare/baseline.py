"""A saved side of a compare: a catalog baseline file, or a recorded session.

`diff --write-baseline FILE --left TARGET` lists a live server and writes its catalog
(`write_baseline`): one JSON document, `{"format": "mcp-inspector-qt/catalog", "version": 1,
"target": ..., "written": ..., "catalog": CatalogSnapshot.to_json()}`. Either side of a
`diff` may then be such a file, or a session file the app or `cli --record` wrote
(`load_saved_side`): a CI job pins a server's surface without running a second server.

A session file gives what it listed: the server's header from its `ready` line and the
last listing of each kind. A kind the server declared but the session never listed is in
`SavedSide.unlisted` (the caller leaves it out of the comparison and says so).
"""

from __future__ import annotations

import json
import os
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from inspector.compare.snapshot import CatalogSnapshot, snapshot_from_catalog
from inspector.features.catalog.lists import KINDS, CatalogKind
from inspector.features.catalog.loader import CAPABILITY_OF
from inspector.storage.atomic_file import write_text_atomically

__all__ = [
    "BASELINE_FORMAT",
    "BaselineError",
    "SavedSide",
    "load_saved_side",
    "names_a_file",
    "write_baseline",
]

BASELINE_FORMAT: Final = "mcp-inspector-qt/catalog"
BASELINE_VERSION: Final = 1
_FILE_SUFFIXES: Final = (".json", ".jsonl", ".gz", ".zst", ".zstd")
_SAVED_MAGIC: Final = (b"{", b"\x1f\x8b", b"\x28\xb5\x2f\xfd")  # JSON, gzip, zstd
_MAX_BYTES: Final = 512 * 1024 * 1024  # a baseline is small; a bigger file is a mistake


class BaselineError(Exception):
    """A saved side cannot be read: the message names the file and says why."""


@dataclass
class SavedSide:
    path: Path
    kind: str  # "baseline" | "session"
    snapshot: CatalogSnapshot
    unlisted: set[CatalogKind] = field(default_factory=set)  # declared, never listed
    notes: list[str] = field(default_factory=list)  # the session reader's problems

    @property
    def label(self) -> str:
        return f"{self.kind} {self.path}"


def names_a_file(target: str) -> bool:
    """Whether a `--left`/`--right` TARGET is a saved side rather than a server: one word
    that ends like a baseline or session file (`.json`, `.jsonl`, `.jsonl.gz`,
    `.jsonl.zst`), or an existing file that is not executable and starts like one (JSON,
    gzip, zstd). A missing `x.json` is still a file (reading it says it is missing), never
    a command to run."""
    text = target.strip()
    if not text or "://" in text or text.startswith("profile:"):
        return False
    try:
        words = shlex.split(text)
    except ValueError:
        return False
    if len(words) != 1:
        return False
    path = Path(words[0]).expanduser()
    if path.name.lower().endswith(_FILE_SUFFIXES):
        return True
    if not path.is_file() or os.access(path, os.X_OK):
        return False
    try:  # a JSON document or a compressed session, not a script run by its interpreter
        with path.open("rb") as handle:
            return handle.read(4).startswith(_SAVED_MAGIC)
    except OSError:
        return False


def load_saved_side(target: str) -> SavedSide:
    """The catalog a baseline or session file holds. Raises BaselineError."""
    path = Path(shlex.split(target.strip())[0]).expanduser()
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise BaselineError(f"cannot read {path}: {exc.strerror or exc}") from None
    if size > _MAX_BYTES:
        raise BaselineError(f"{path} is {size:,} bytes: too big for a catalog baseline")
    try:
        with path.open("rb") as handle:
            head = handle.read(1)
    except OSError as exc:
        raise BaselineError(f"cannot read {path}: {exc.strerror or exc}") from None
    if head == b"{" and not path.name.lower().endswith((".jsonl", ".gz", ".zst", ".zstd")):
        document = _json_document(path)
        if document is not None:
            return SavedSide(path, "baseline", _snapshot_of_baseline(path, document))
    return _from_session(path)


def _json_document(path: Path) -> dict[str, Any] | None:
    """The file as one JSON object, or None when it is not one (a session file's lines)."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _snapshot_of_baseline(path: Path, document: dict[str, Any]) -> CatalogSnapshot:
    fmt = document.get("format")
    if fmt == BASELINE_FORMAT:
        version = document.get("version")
        if version != BASELINE_VERSION:
            raise BaselineError(
                f"{path}: baseline version {version!r} is not one this version reads "
                f"({BASELINE_VERSION})"
            )
        catalog = document.get("catalog")
        if not isinstance(catalog, dict):
            raise BaselineError(f'{path}: its "catalog" is not an object')
        return CatalogSnapshot.from_json(catalog)
    if fmt is None and any(k in document for k in ("serverInfo", "tools", "prompts")):
        return CatalogSnapshot.from_json(document)  # a bare snapshot (`diff --json` side)
    raise BaselineError(
        f"{path} is neither a catalog baseline (format {BASELINE_FORMAT!r}, written by "
        "`diff --write-baseline`) nor a session file"
    )


def _from_session(path: Path) -> SavedSide:
    from inspector.recording.offline import load_offline
    from inspector.recording.reader import SessionFileError, read_session

    try:
        recorded = read_session(path)
    except SessionFileError as exc:
        raise BaselineError(
            f"{exc} (a saved side is a catalog baseline or a session file)"
        ) from None
    offline = load_offline(recorded)
    snap = snapshot_from_catalog(offline.catalog)
    ready = offline.ready
    if ready is None:
        raise BaselineError(f"{path}: the session never got past the handshake: no catalog")
    snap.server_info = dict(ready.server_info)
    snap.capabilities = dict(ready.capabilities)
    snap.instructions = ready.instructions
    snap.protocol_version = ready.protocol_version
    snap.era = ready.era.value
    transport = recorded.connection.get("transport")
    snap.transport = transport if isinstance(transport, str) else None
    unlisted: set[CatalogKind] = set()
    for kind in KINDS:
        listed = offline.catalog[kind].loaded or bool(offline.catalog[kind].items)
        if not listed and CAPABILITY_OF[kind] in ready.capabilities:
            unlisted.add(kind)
    return SavedSide(path, "session", snap, unlisted, list(recorded.problems))


def write_baseline(path: Path, snapshot: CatalogSnapshot, target: str) -> int:
    """Write `snapshot` as a baseline to `path` (atomically: a temporary file beside it,
    then a rename). Returns the bytes written. Raises OSError."""
    document = {
        "format": BASELINE_FORMAT,
        "version": BASELINE_VERSION,
        "target": target,
        "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "catalog": snapshot.to_json(),
    }
    text = json.dumps(document, ensure_ascii=False, indent=2, sort_keys=False) + "\n"
    write_text_atomically(path, text)
    return len(text.encode("utf-8"))
