"""A Playground turn saved as an eval case: appended to an evals file the person picks (a new
file is made with just that case).

The file is checked first (`parse_evals`): one that is not an evals file, or is of a newer
version, is left as it is and the problem said; nothing else in it changes (its defaults,
its other cases and their order). The case expects the calls the turn sent, by the tool's
own name and the arguments sent (a subset), and is named after the prompt (made unique in
the file). The write is atomic: a crash leaves the old file or the new one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from inspector.evals.cases import (
    EVALS_VERSION,
    MAX_FILE_BYTES,
    EvalsFileError,
    case_from_turn,
    parse_evals,
)
from inspector.host.records import TurnRecord
from inspector.storage.atomic_file import write_text_atomically

__all__ = ["append_case", "case_name"]

_NAME_LENGTH: Final = 60


def case_name(turn: TurnRecord, taken: set[str]) -> str:
    """The prompt's first words, made unique among `taken` ("…", then " (2)", " (3)")."""
    words = " ".join(turn.user_text.split()) or "playground turn"
    base = words if len(words) <= _NAME_LENGTH else words[: _NAME_LENGTH - 1] + "…"
    name, n = base, 2
    while name in taken:
        name = f"{base} ({n})"
        n += 1
    return name


def _read(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {"version": EVALS_VERSION, "cases": []}
    if path.stat().st_size > MAX_FILE_BYTES:
        raise EvalsFileError(str(path), ["the file is too big to be an evals file"])
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise EvalsFileError(str(path), ["is not UTF-8 text"]) from exc
    except ValueError as exc:
        raise EvalsFileError(str(path), [f"is not JSON: {exc}"]) from exc
    parse_evals(data, str(path))  # every problem said, nothing written
    return dict(data)


def append_case(path: Path, turn: TurnRecord) -> str:
    """Append `turn` as a case to the evals file at `path` (made when missing); the case's
    name. Raises EvalsFileError (the file is not one we may add to) or OSError."""
    data = _read(path)
    cases = list(data.get("cases") or [])
    taken = {str(c.get("name")) for c in cases if isinstance(c, dict)}
    case = case_from_turn(turn, case_name(turn, taken))
    cases.append(case.to_json())
    data["cases"] = cases
    parse_evals(data, str(path))  # what is written reads back
    write_text_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return case.name
