"""The import dialog's server.json half: whether a file holds a server.json, and what the
dialog says about one (a file or the clipboard's text): its profiles, its schema problems
(JSON pointer: sentence) and notes (secrets to enter, packages refused). The reading and
mapping are `inspector.registry`'s; the dialog lists the profiles. And the other way: a
profile as server.json text for "Copy server entry ▸ as server.json"."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from inspector.registry.from_profile import ExportError, server_json_from_profile
from inspector.registry.schema import MAX_BYTES, SchemaProblem
from inspector.registry.to_profiles import (
    ServerJsonImport,
    import_server_json,
    looks_like_server_json,
)
from inspector.settings.profiles import Profile

__all__ = [
    "ServerJsonShown",
    "file_is_server_json",
    "read_server_json",
    "server_json_text",
    "shown_import",
]


@dataclass(frozen=True)
class ServerJsonShown:
    profiles: list[Profile]
    status: str
    notes: str  # the problems, then every note
    problems: list[SchemaProblem] = field(default_factory=list)
    row_notes: list[str] = field(default_factory=list)  # each profile's notes, row for row


def file_is_server_json(path: Path) -> bool:
    """Whether a (small enough, readable) file holds a server.json rather than a config."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_BYTES + 1)
        return len(data) <= MAX_BYTES and looks_like_server_json(json.loads(data))
    except (OSError, ValueError, RecursionError):
        return False


def read_server_json(data: str | bytes, source: str) -> ServerJsonShown:
    """One server.json text as the dialog shows it."""
    return shown_import(import_server_json(data, source=f"server.json ({source})"), source)


def shown_import(result: ServerJsonImport, source: str) -> ServerJsonShown:
    """A server.json's import (pasted, a file, a registry entry) as the dialog shows it."""
    lines = [str(problem) for problem in result.problems] + result.notes
    if result.problems:
        count = len(result.problems)
        status = (
            f"Not imported: the server.json from {source} has {count} problem(s), listed below."
        )
    else:
        status = f"{len(result.profiles)} server(s) in the server.json from {source}."
    general = result.general_notes()
    also = ["Also, about the import as a whole:", *general] if general else []
    row_notes = ["\n".join(result.notes_of(row) + also) for row in range(len(result.profiles))]
    return ServerJsonShown(
        list(result.profiles), status, "\n".join(lines), list(result.problems), row_notes
    )


def server_json_text(profile: Profile) -> tuple[str | None, str]:
    """(the profile as server.json text, or None; the sentence for the status line)."""
    try:
        document = server_json_from_profile(profile)
    except ExportError as exc:
        return None, f"Cannot copy as server.json: {exc}."
    text = json.dumps(document, indent=2, ensure_ascii=False)
    return text, "Copied as server.json (secrets are named, never included)."
