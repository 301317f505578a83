"""A JSON value as a tree of nodes (for a tree view), Qt-free.

Children are made when first asked for, and a container shows at most CHILD_LIMIT of them
(then one "… N more" node), so a huge structuredContent opens instantly. Nodes carry their
path, so validation errors can be marked on the node they belong to.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.features.forms.fields import Path, path_str

__all__ = ["CHILD_LIMIT", "JsonNode", "json_kind", "summary"]

CHILD_LIMIT: Final = 1000
_STRING_SHOWN: Final = 300


def json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    return type(value).__name__


def summary(value: Any) -> str:
    """One line for the value column."""
    if isinstance(value, dict):
        n = len(value)
        return f"{{{n} key{'s' if n != 1 else ''}}}"
    if isinstance(value, list):
        n = len(value)
        return f"[{n} item{'s' if n != 1 else ''}]"
    if isinstance(value, str):
        shown = value if len(value) <= _STRING_SHOWN else value[:_STRING_SHOWN] + "…"
        return json.dumps(shown, ensure_ascii=False)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


@dataclass(eq=False)
class JsonNode:
    key: str
    value: Any
    path: Path
    parent: JsonNode | None = None
    row: int = 0
    more: int = 0  # a "… N more" placeholder node
    _children: list[JsonNode] | None = field(default=None, repr=False)

    @classmethod
    def root(cls, value: Any) -> JsonNode:
        """An invisible root whose one child is the value itself."""
        holder = cls("", None, ())
        holder._children = [cls("(root)", value, (), holder, 0)]
        return holder

    @property
    def kind(self) -> str:
        return "…" if self.more else json_kind(self.value)

    @property
    def summary(self) -> str:
        return f"{self.more:,} more not shown" if self.more else summary(self.value)

    @property
    def where(self) -> str:
        return path_str(self.path)

    def has_children(self) -> bool:
        return not self.more and isinstance(self.value, dict | list) and bool(self.value)

    def children(self) -> list[JsonNode]:
        if self._children is not None:
            return self._children
        kids: list[JsonNode] = []
        items: list[tuple[str, str | int, Any]]
        if self.more:
            items = []
        elif isinstance(self.value, dict):
            items = [(str(k), str(k), v) for k, v in self.value.items()]
        elif isinstance(self.value, list):
            items = [(f"[{i}]", i, v) for i, v in enumerate(self.value)]
        else:
            items = []
        for row, (label, step, value) in enumerate(items[:CHILD_LIMIT]):
            kids.append(JsonNode(label, value, (*self.path, step), self, row))
        if len(items) > CHILD_LIMIT:
            hidden = len(items) - CHILD_LIMIT
            kids.append(JsonNode("…", None, self.path, self, CHILD_LIMIT, more=hidden))
        self._children = kids
        return kids

    def find(self, path: Path) -> JsonNode | None:
        """The node at `path` below this one (the root holder: below the value)."""
        node = (
            self._children[0] if self.parent is None and self.key == "" and self._children else self
        )
        for step in path:
            label = f"[{step}]" if isinstance(step, int) else str(step)
            match = next((c for c in node.children() if c.key == label and not c.more), None)
            if match is None:
                return None
            node = match
        return node
