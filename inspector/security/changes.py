"""The rug pull rule: a tool whose definition changed after it was trusted.

- `changes.definition-changed` (high): a tool's pinned fields (what the model reads and
  what decides how it is called: `PINNED_FIELDS`, the same as `features/catalog/pins.py`'s)
  differ from its pin (`ServerDefinitions.pinned`), or, with no pin that differs, from the
  definition first seen in this session (`ServerDefinitions.first_seen`: a server that
  changed a tool after the first listing, with or without `list_changed`). One finding per
  changed field; its pointer is the first place inside the field that differs, its
  evidence the value there before and now.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any, Final

from inspector.common.visible_text import visible_text
from inspector.security.definitions import ServerDefinitions
from inspector.security.finding import SecurityFinding, Severity
from inspector.security.strings import item_name, pointer_token

__all__ = ["PINNED_FIELDS", "changes", "first_difference"]

# What a pin covers (features/catalog/pins.py keeps the same tuple; a test holds them equal)
PINNED_FIELDS: Final = (
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
)
_SPEC: Final = "Tools: notifications/tools/list_changed; Security Best Practices (untrusted tools)"
_SHOWN: Final = 80
_MISSING: Final = object()


def first_difference(old: Any, new: Any, pointer: str = "") -> tuple[str, Any, Any] | None:
    """The first place (JSON Pointer) where `old` and `new` differ, with both values there
    (`_MISSING` where one has nothing); None when they are equal."""
    if old == new:
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            found = first_difference(
                old.get(key, _MISSING), new.get(key, _MISSING), f"{pointer}/{pointer_token(key)}"
            )
            if found is not None:
                return found
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            found = first_difference(a, b, f"{pointer}/{index}")
            if found is not None:
                return found
    return pointer, old, new


def _shown(value: Any, start: int = 0) -> str:
    if value is _MISSING:
        return "(none)"
    if isinstance(value, str):
        cut = value[max(0, start - 20) : max(0, start - 20) + _SHOWN]
        lead = "…" if start > 20 else ""
        tail = "…" if len(value) > max(0, start - 20) + _SHOWN else ""
        return lead + repr(visible_text(cut, keep="")) + tail
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return visible_text(text[:_SHOWN], keep="") + ("…" if len(text) > _SHOWN else "")


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _against(
    server: str, raw: dict[str, Any], before: Any, since: str
) -> Iterator[SecurityFinding]:
    if not isinstance(before, dict):
        return
    name = item_name("tool", raw)
    changed = [f for f in PINNED_FIELDS if before.get(f, _MISSING) != raw.get(f, _MISSING)]
    for field in changed:
        where = first_difference(
            before.get(field, _MISSING), raw.get(field, _MISSING), f"/{pointer_token(field)}"
        )
        assert where is not None
        pointer, old, new = where
        offset = -1
        if isinstance(old, str) and isinstance(new, str):
            offset = _common_prefix(old, new)
        start = max(offset, 0)
        yield SecurityFinding(
            rule="changes.definition-changed",
            severity=Severity.HIGH,
            server=server,
            kind="tool",
            item=name,
            field=field,
            pointer=pointer,
            offset=offset,
            evidence=f"was {_shown(old, start)}, now {_shown(new, start)}",
            reason=f"its {field} changed since it was {since} ({', '.join(changed)} changed): "
            "a rug pull changes what a tool does after it was trusted",
            spec=_SPEC,
        )


def _pinned_part(definition: Mapping[str, Any]) -> dict[str, Any]:
    return {k: definition[k] for k in PINNED_FIELDS if k in definition}


def changes(server: ServerDefinitions) -> Iterator[SecurityFinding]:
    """The rug pull findings of one server: against its pins first, else against what
    this session saw first."""
    for kind, raw in server.items():
        if kind != "tool":
            continue
        name = item_name(kind, raw)
        pin = server.pinned.get(name)
        if isinstance(pin, dict) and _pinned_part(pin) != _pinned_part(raw):
            yield from _against(server.name, raw, pin, "pinned")
            continue
        first = server.first_seen.get(name)
        if isinstance(first, dict) and _pinned_part(first) != _pinned_part(raw):
            yield from _against(server.name, raw, first, "first seen in this session")
