"""The lint of one big listing (a gateway's 10,000 tools), in bounded slices.

Checking a whole `tools/list` result at once costs about 0.15 ms per tool for the schema
and up to a millisecond more per distinct inputSchema (its JSON Schema meta-validation):
seconds, for a big catalog, that would freeze the window. A `ListingLint` checks the
listing item by item instead, as many as fit in each slice it is given: the rest of the
message first (the envelope), then each item against its definition (`Tool`, `Resource`,
...), its name (unique, well formed) and, for a tool, its schemas. Its findings are the
ones `MessageLinter.incoming` finds checking the message at once, with the same
pointers, rules and schema paths (of the at most `MAX_FINDINGS` schema findings of a
message, which ones are kept can differ when there are more).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from inspector.lint import rules
from inspector.lint.finding import Finding
from inspector.lint.messages import MessageLinter
from inspector.lint.schema_bundle import ItemSplit
from inspector.lint.schema_check import MAX_FINDINGS, validator_findings

__all__ = ["LISTINGS", "SLICED_FROM", "ListingLint"]

SLICED_FROM: Final = 256  # items: a smaller listing is linted at once
_CHUNK: Final = 8  # items between clock reads
_NOUNS: Final = {
    "tools/list": "tools",
    "prompts/list": "prompts",
    "resources/list": "resources",
    "resources/templates/list": "resource templates",
}
LISTINGS: Final = frozenset(_NOUNS)  # the methods whose responses are listings


class ListingLint:
    """A listing being linted: `step` lints the next items; `done` of `total` are."""

    def __init__(
        self,
        linter: MessageLinter,
        index: int,
        method: str,
        value: dict[str, Any],
        result: dict[str, Any],
        items: list[Any],
        cursor: Any,
        split: ItemSplit,
        wrapped: bool,
        definition: str,
    ) -> None:
        self.linter = linter
        self.index = index
        self.method = method
        self.noun = _NOUNS.get(method, "items")
        self.total = len(items)
        self.done = 0
        self.finished = False
        self._value = value
        self._result = result
        self._items = items
        self._cursor = cursor
        self._split = split
        self._wrapped = wrapped
        self._definition = definition
        bundle = linter.bundle
        self._version = bundle.version
        self._draft = bundle.draft
        self._item_validator = bundle.validator(split.item)
        # Items found valid, by their shape: the item with its free strings (names,
        # descriptions) blanked. A catalog repeats shapes; an item of a known valid shape
        # is valid (those strings are constrained only to be strings).
        self._strings = bundle.string_members(split.item)
        self._valid_shapes: set[str] = set()
        self._schema_found = 0  # schema findings so far (at most MAX_FINDINGS a message)
        self._enveloped = False
        self._listing = linter.ctx.listing(method, cursor)

    @classmethod
    def start(
        cls,
        linter: MessageLinter,
        index: int,
        method: str | None,
        value: Any,
        request: dict[str, Any] | None,
        *,
        sliced_from: int = SLICED_FROM,
    ) -> ListingLint | None:
        """A sliced lint of response `value` to `method`; None when it is better linted at
        once (not a listing, a small one, or a shape the slices cannot follow)."""
        if method not in _NOUNS or not isinstance(value, dict):
            return None
        result = value.get("result")
        if not isinstance(result, dict):
            return None
        items = result.get(rules.list_key(method))
        if not isinstance(items, list) or len(items) < sliced_from:
            return None
        if result.get("resultType") == "input_required" or (
            "task" in result and "content" not in result
        ):
            return None  # another definition judges it: the message is linted at once
        bundle = linter.bundle
        definition = bundle.result_def(method)
        if definition is None:
            return None
        wrapped = bundle.has(definition + "Response")
        name = definition + "Response" if wrapped else definition
        split = bundle.item_split(name, wrapped, rules.list_key(method))
        if split is None:
            return None
        params = request.get("params") if isinstance(request, dict) else None
        cursor = params.get("cursor") if isinstance(params, dict) else None
        return cls(linter, index, method, value, result, items, cursor, split, wrapped, name)

    def step(self, deadline: float | None, clock: Callable[[], float]) -> list[Finding]:
        """Lint items until `deadline` (None: all of them); the findings of those."""
        found: list[Finding] = []
        if not self._enveloped:
            self._enveloped = True
            found += self._schema(
                self._split.envelope, self._value if self._wrapped else self._result, (), ()
            )
        stop = self.total
        while self.done < stop:
            end = min(stop, self.done + _CHUNK)
            for i in range(self.done, end):
                found += self._item(i, self._items[i])
            self.done = end
            if deadline is not None and clock() >= deadline:
                break
        if self.done >= stop and not self.finished:
            self.finished = True
            found += rules.cursor_findings(self._listing, self.index, self._result, self._cursor)
        return self.linter.stamp(found)

    def _item(self, i: int, item: Any) -> list[Finding]:
        shape = self._shape(item)
        if shape is not None and shape in self._valid_shapes:
            found: list[Finding] = []
        else:
            looked = self._schema_found < MAX_FINDINGS
            found = self._schema(
                self._item_validator,
                item,
                (*self._split.instance_path, rules.list_key(self.method), i),
                self._split.schema_path,
            )
            if shape is not None and looked and not found:
                self._valid_shapes.add(shape)
        found += rules.list_item_findings(
            self._listing, self.index, self.method, i, item, self._version
        )
        if self.method == "tools/list":
            found += rules.tool_schema_findings(self.linter.ctx, self.index, i, item, self._draft)
        return found

    def _shape(self, item: Any) -> str | None:
        if not self._strings or not isinstance(item, dict):
            return None
        blank = {k: "" if k in self._strings and isinstance(v, str) else v for k, v in item.items()}
        try:
            return json.dumps(blank, sort_keys=True)
        except (TypeError, ValueError, RecursionError):
            return None

    def _schema(
        self,
        validator: Any,
        instance: Any,
        prefix: tuple[Any, ...],
        schema_prefix: tuple[str, ...],
    ) -> list[Finding]:
        found = validator_findings(
            validator,
            instance,
            index=self.index,
            where=f"{self._version} {self._definition}",
            version=self._version,
            prefix=prefix if self._wrapped else ("result", *prefix),
            schema_prefix=schema_prefix,
            limit=MAX_FINDINGS - self._schema_found,
        )
        self._schema_found += len(found)
        return found
