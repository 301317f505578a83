"""A semantic JSON diff: structure, not text.

Lists of objects that all carry a `name` (tools, prompts, arguments) or a `uri`
(resources) are matched by that key, so a reordered list is not drift. Volatile values are
ignored by default (progress tokens, MRTR requestState, session ids, timestamps), and the
user adds ignore paths as JSON Pointers where `*` matches one segment and `**` any number.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from inspector.common.terminal_text import terminal_value

__all__ = ["DEFAULT_IGNORES", "Change", "IgnoreRules", "diff_json", "list_key"]

DEFAULT_IGNORES: Final = (
    "/resultType",  # modern servers stamp "complete"; legacy ones leave it out
    "/_meta/io.modelcontextprotocol~1serverInfo",  # compared once, in the handshake diff
    "/**/progressToken",
    "/**/requestState",
    "/**/sessionId",
    "/**/mcp-session-id",
    "/**/timestamp",
)
_ABSENT: Final = object()  # a member one side of a diff does not have
_ISO: Final = re.compile(
    r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$"
)


@dataclass(frozen=True, slots=True)
class Change:
    path: str  # a JSON Pointer into the result
    kind: Literal["added", "removed", "changed"]
    old: Any = None
    new: Any = None

    def describe(self) -> str:
        where = self.path or "(the whole result)"
        if self.kind == "added":
            return f"+ {where}: {_short(self.new)}"
        if self.kind == "removed":
            return f"- {where}: {_short(self.old)}"
        return f"~ {where}: {_short(self.old)} → {_short(self.new)}"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "kind": self.kind, "old": self.old, "new": self.new}


def _short(value: Any, limit: int = 80) -> str:
    return terminal_value(value, limit)


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


class IgnoreRules:
    def __init__(self, patterns: Iterable[str] = DEFAULT_IGNORES) -> None:
        self.patterns = [self._split(p) for p in patterns]

    @staticmethod
    def _split(pattern: str) -> list[str]:
        if pattern in ("", "/"):
            return []
        if not pattern.startswith("/"):
            raise ValueError(f"an ignore path is a JSON Pointer starting with '/': {pattern!r}")
        # Segments are unescaped like any JSON Pointer ("~1" is "/", "~0" is "~"), so that
        # "/_meta/io.modelcontextprotocol~1serverInfo" names the key with a slash in it.
        return [seg.replace("~1", "/").replace("~0", "~") for seg in pattern[1:].split("/")]

    def ignores(self, path: Sequence[str]) -> bool:
        return any(_match(p, list(path)) for p in self.patterns)


def _match(pattern: list[str], path: list[str]) -> bool:
    if not pattern:
        return not path
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_match(rest, path[i:]) for i in range(len(path) + 1))
    if not path:
        return False
    return (head == "*" or head == path[0]) and _match(rest, path[1:])


def diff_json(old: Any, new: Any, ignore: IgnoreRules | None = None) -> list[Change]:
    rules = ignore or IgnoreRules()
    changes: list[Change] = []
    _diff(old, new, [], rules, changes)
    return changes


def _pointer(path: Sequence[str]) -> str:
    return "".join("/" + _escape(p) for p in path)


def _diff(old: Any, new: Any, path: list[str], rules: IgnoreRules, out: list[Change]) -> None:
    if rules.ignores(path):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        # The recorded key order first, then new keys: a stable, readable order.
        keys = [*old, *(k for k in new if k not in old)]
        members = (([*path, str(k)], old.get(k, _ABSENT), new.get(k, _ABSENT)) for k in keys)
        _diff_members(members, rules, out)
        return
    if isinstance(old, list) and isinstance(new, list):
        key = _list_key(old, new)
        if key is not None:
            _diff_keyed(old, new, key, path, rules, out)
            return
        indexes = range(max(len(old), len(new)))
        members = (([*path, str(i)], _at(old, i), _at(new, i)) for i in indexes)
        _diff_members(members, rules, out)
        return
    if old == new and (type(old) is type(new) or _both_numbers(old, new)):
        return  # 1 and 1.0 are the same JSON number; true and 1 are not the same value
    if isinstance(old, str) and isinstance(new, str) and _is_timestamp(old) and _is_timestamp(new):
        return  # both are points in time: volatile by nature
    out.append(Change(_pointer(path), "changed", old=old, new=new))


def _both_numbers(a: Any, b: Any) -> bool:
    return all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))


def _list_key(old: list[Any], new: list[Any]) -> str | None:
    """The key both lists are matched by; an empty list takes the other side's key, so a
    list that lost all its tools still reports them by name."""
    old_key, new_key = _identity_key(old), _identity_key(new)
    if not old:
        return new_key
    if not new:
        return old_key
    return old_key if old_key == new_key else None


def list_key(old: list[Any], new: list[Any]) -> str | None:
    """The key two lists are matched by ("name", "uri", "uriTemplate"), or None when they
    are compared by position: the side-by-side view lays them out the same way."""
    return _list_key(old, new)


def _identity_key(items: list[Any]) -> str | None:
    if not items or not all(isinstance(i, dict) for i in items):
        return None
    for key in ("name", "uri", "uriTemplate"):
        values = [i.get(key) for i in items]
        if all(isinstance(v, str) for v in values) and len(set(values)) == len(values):
            return key
    return None


def _diff_keyed(
    old: list[dict[str, Any]],
    new: list[dict[str, Any]],
    key: str,
    path: list[str],
    rules: IgnoreRules,
    out: list[Change],
) -> None:
    old_by = {o[key]: o for o in old}
    new_by = {n[key]: n for n in new}
    names = [*old_by, *(n for n in new_by if n not in old_by)]
    _diff_members(
        (([*path, f"{key}={n}"], old_by.get(n, _ABSENT), new_by.get(n, _ABSENT)) for n in names),
        rules,
        out,
    )


def _at(items: list[Any], index: int) -> Any:
    return items[index] if index < len(items) else _ABSENT


def _diff_members(
    members: Iterable[tuple[list[str], Any, Any]], rules: IgnoreRules, out: list[Change]
) -> None:
    """The members of two objects or lists, each (path, old, new) with `_ABSENT` for the
    side it is missing from: removed, added, or the changes inside it."""
    for sub, old, new in members:
        if rules.ignores(sub):
            continue
        if new is _ABSENT:
            out.append(Change(_pointer(sub), "removed", old=old))
        elif old is _ABSENT:
            out.append(Change(_pointer(sub), "added", new=new))
        else:
            _diff(old, new, sub, rules, out)


def _is_timestamp(value: str) -> bool:
    if not _ISO.match(value):
        return False
    try:
        dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True
