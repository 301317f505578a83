"""Two JSON values pretty-printed side by side, aligned, with the drift marked.

Each printed line knows the JSON Pointer of the value it shows (list items of tools,
prompts, resources by `name=`/`uri=` as in `diff.py`), so the lines are aligned by path,
not by text, and a line is marked only when the semantic diff reported a change at or
above its path: a timestamp or an ignored field that differs is not coloured.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any, Final, Literal

from inspector.recording.diff import Change, list_key

__all__ = ["DiffLine", "Mark", "side_by_side"]

Mark = Literal["", "changed", "added", "removed", "filler"]
_MISSING: Final = object()
_END: Final = "\x00end"
_MAX_LINES: Final = 20_000  # per side; the rest is cut with a note


@dataclass(frozen=True)
class DiffLine:
    text: str
    path: str | None  # None for a filler line
    mark: Mark = ""


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


class _Printer:
    def __init__(self, follow_peer_order: bool = False) -> None:
        self.lines: list[tuple[str, str]] = []  # (token, text)
        # The new side lists keyed items (tools by name...) in the recorded order, then
        # the added ones: their order is not drift, and the sides line up.
        self.follow_peer_order = follow_peer_order

    def walk(self, value: Any, other: Any, path: str, indent: int, label: str, comma: str) -> None:
        pad = "  " * indent
        if len(self.lines) > _MAX_LINES:
            return
        if isinstance(value, dict) and value:
            peer_dict: dict[Any, Any] = other if isinstance(other, dict) else {}
            self.lines.append((path, f"{pad}{label}{{"))
            keys = list(value)
            for i, key in enumerate(keys):
                sub = f"{path}/{_escape(str(key))}"
                self.walk(
                    value[key],
                    peer_dict.get(key, _MISSING),
                    sub,
                    indent + 1,
                    f"{json.dumps(str(key), ensure_ascii=False)}: ",
                    "," if i < len(keys) - 1 else "",
                )
            self.lines.append((path + _END, f"{pad}}}{comma}"))
        elif isinstance(value, list) and value:
            peer_list = other if isinstance(other, list) else []
            key = list_key(value, peer_list)
            peers: dict[str, Any] = {}
            if key is not None:
                peers = {str(p.get(key)): p for p in peer_list if isinstance(p, dict)}
            self.lines.append((path, f"{pad}{label}["))
            if key is not None and self.follow_peer_order:
                value = _in_peer_order(value, peer_list, key)
            for i, item in enumerate(value):
                if key is not None and isinstance(item, dict):
                    name = str(item.get(key))
                    sub = f"{path}/{_escape(f'{key}={name}')}"
                    peer: Any = peers.get(name, _MISSING)
                else:
                    sub = f"{path}/{i}"
                    peer = peer_list[i] if i < len(peer_list) else _MISSING
                self.walk(item, peer, sub, indent + 1, "", "," if i < len(value) - 1 else "")
            self.lines.append((path + _END, f"{pad}]{comma}"))
        else:
            text = json.dumps(value, ensure_ascii=False)
            self.lines.append((path, f"{pad}{label}{text}{comma}"))


def _in_peer_order(items: list[Any], peers: list[Any], key: str) -> list[Any]:
    order = {str(p.get(key)): i for i, p in enumerate(peers) if isinstance(p, dict)}
    known = [i for i in items if isinstance(i, dict) and str(i.get(key)) in order]
    known.sort(key=lambda i: order[str(i.get(key))])
    return known + [i for i in items if not (isinstance(i, dict) and str(i.get(key)) in order)]


def _print(value: Any, other: Any, follow_peer_order: bool = False) -> list[tuple[str, str]]:
    if value is _MISSING:
        return []
    printer = _Printer(follow_peer_order)
    printer.walk(value, other, "", 0, "", "")
    if len(printer.lines) > _MAX_LINES:
        printer.lines = printer.lines[:_MAX_LINES]
        printer.lines.append(("\x00cut", f"… (cut after {_MAX_LINES:,} lines)"))
    return printer.lines


def _under(path: str, change: str) -> bool:
    return change == "" or path == change or path.startswith(change + "/")


def _mark(token: str, changes: list[Change], side: Literal["old", "new"]) -> Mark:
    path = token.removesuffix(_END)
    for change in changes:
        if change.kind == "changed" and _under(path, change.path):
            return "changed"
        if change.kind == "removed" and side == "old" and _under(path, change.path):
            return "removed"
        if change.kind == "added" and side == "new" and _under(path, change.path):
            return "added"
    return ""


def side_by_side(
    old: Any, new: Any, changes: list[Change]
) -> tuple[list[DiffLine], list[DiffLine]]:
    """(recorded lines, new lines), the same length, aligned; filler lines pad a side
    where the other has lines it lacks. Pass `_MISSING`-free values: None prints null."""
    left = _print(old, new)
    right = _print(new, old, follow_peer_order=True)
    out_left: list[DiffLine] = []
    out_right: list[DiffLine] = []

    def put(
        side: list[DiffLine], item: tuple[str, str] | None, which: Literal["old", "new"]
    ) -> None:
        if item is None:
            side.append(DiffLine("", None, "filler"))
        else:
            token, text = item
            side.append(DiffLine(text, token.removesuffix(_END), _mark(token, changes, which)))

    matcher = difflib.SequenceMatcher(
        None, [t for t, _ in left], [t for t, _ in right], autojunk=False
    )
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            for a, b in zip(left[i1:i2], right[j1:j2], strict=True):
                put(out_left, a, "old")
                put(out_right, b, "new")
            continue
        a_part, b_part = left[i1:i2], right[j1:j2]
        for k in range(max(len(a_part), len(b_part))):
            put(out_left, a_part[k] if k < len(a_part) else None, "old")
            put(out_right, b_part[k] if k < len(b_part) else None, "new")
    return out_left, out_right
