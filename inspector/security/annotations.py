"""The annotations rule: a tool's hints contradicted by its own name or description.

- `annotations.read-only-writes` (low): `readOnlyHint: true` on a tool whose name (any
  word) or description (its first word) says it writes, deletes or sends;
  `destructiveHint: false` on one that says it deletes. Low: annotations are hints,
  untrusted unless the server is, and a client must not decide on them alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from inspector.security.finding import SecurityFinding, Severity
from inspector.security.hit import finding_at
from inspector.security.strings import Text, item_name

__all__ = ["annotation_findings"]

_SPEC: Final = "Tools: annotations ('clients MUST consider tool annotations to be untrusted')"
_WRITES: Final = frozenset(
    form
    for verb in (
        "write",
        "delete",
        "remove",
        "send",
        "post",
        "update",
        "create",
        "drop",
        "kill",
        "erase",
        "overwrite",
        "upload",
        "execute",
        "modify",
    )
    for form in (verb, verb + "s", verb + "d" if verb.endswith("e") else verb + "ed")
) | {"modifies", "modified", "dropped", "sent"}
_DELETES: Final = frozenset(
    form
    for verb in (
        "delete",
        "remove",
        "drop",
        "erase",
        "destroy",
        "wipe",
        "overwrite",
        "kill",
    )
    for form in (verb, verb + "s", verb + "d" if verb.endswith("e") else verb + "ed")
) | {"dropped"}
_TOKEN: Final = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_FIRST_WORD: Final = re.compile(r"\s*([A-Za-z]+)")


def _verb(field: str, value: str, verbs: frozenset[str]) -> tuple[int, int] | None:
    """Where `value` says one of `verbs`: any word of a name (`delete_file`, `sendEmail`),
    the first word of a description ("Deletes a file."): prose further on is too loose."""
    if field == "name":
        for m in _TOKEN.finditer(value):
            if m.group(0).lower() in verbs:
                return m.span()
        return None
    first = _FIRST_WORD.match(value)
    return first.span(1) if first and first.group(1).lower() in verbs else None


def _says(
    server: str, raw: dict[str, Any], verbs: frozenset[str], reason: str
) -> Iterator[SecurityFinding]:
    name = item_name("tool", raw)
    for field in ("name", "description"):
        value = raw.get(field)
        if not isinstance(value, str):
            continue
        span = _verb(field, value, verbs)
        if span is not None:
            text = Text("tool", name, field, f"/{field}", value)
            said = f"{reason}, but its {field} says {value[span[0] : span[1]]!r}"
            rule = "annotations.read-only-writes"
            yield finding_at(server, text, rule, Severity.LOW, span, said, _SPEC)
            return


def annotation_findings(server: str, raw: dict[str, Any]) -> Iterator[SecurityFinding]:
    """The annotation finding of one tool's definition, if any."""
    hints = raw.get("annotations")
    if not isinstance(hints, dict):
        return
    if hints.get("readOnlyHint") is True:
        yield from _says(server, raw, _WRITES, "annotated read-only")
    elif hints.get("destructiveHint") is False:
        yield from _says(server, raw, _DELETES, "annotated not destructive")
