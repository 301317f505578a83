"""The assertions of the "Save call" dialog as rows (Qt-free): each row one assertion of
the collection file's kinds, as the user typed it, checked and turned into the model's
`Assertion` with a sentence that says what is wrong (a bad JSON Pointer, JSON value,
regular expression or type name).

A tool call's catalog assertions (the tool is listed, its inputSchema is unchanged) are
not the call's own: they go into the tool's catalog entry, `catalog: NAME`, saved with
the call (`catalog_entry`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from inspector.collections.call_draft import CallDraft
from inspector.collections.collection import (
    JSON_TYPES,
    OUTCOMES,
    Assertion,
    Collection,
    InputSchemaAssertion,
    LatencyAssertion,
    OutcomeAssertion,
    OutputSchemaAssertion,
    PointerAssertion,
    SavedCall,
    SnapshotAssertion,
    ToolExistsAssertion,
)
from inspector.collections.pointer import parse_pointer
from inspector.collections.snapshots import snapshot_of

__all__ = [
    "JSON_TYPE_NAMES",
    "KINDS",
    "OUTCOMES",
    "AssertionRow",
    "KindInfo",
    "RowError",
    "add_catalog_entry",
    "build_assertions",
    "catalog_entry",
    "kind_info",
    "unavailable",
]

RowKind = Literal[
    "outcome",
    "equals",
    "contains",
    "matches",
    "type",
    "outputSchema",
    "latency",
    "snapshot",
    "toolExists",
    "inputSchema",
]
# The file format's words (inspector.collections.collection), under the names the editor uses.
JSON_TYPE_NAMES: Final = JSON_TYPES


@dataclass(frozen=True)
class KindInfo:
    kind: RowKind
    title: str  # in the "Add assertion" menu and the table
    pointer: bool  # the row takes a JSON Pointer
    hint: str  # what the value column takes
    catalog: bool = False  # goes into the tool's catalog entry


KINDS: Final[tuple[KindInfo, ...]] = (
    KindInfo("outcome", "Outcome is", False, "ok, isError, a JSON-RPC error (code), timeout"),
    KindInfo("equals", "Value equals", True, 'JSON, e.g. "text" or 42'),
    KindInfo("contains", "Value contains", True, "a substring, list item or sub-object (JSON)"),
    KindInfo("matches", "Value matches regex", True, "a regular expression (Python)"),
    KindInfo("type", "Value has type", True, ", ".join(JSON_TYPE_NAMES)),
    KindInfo("outputSchema", "structuredContent valid", False, "against the tool's outputSchema"),
    KindInfo("latency", "Latency under", False, "milliseconds"),
    KindInfo("snapshot", "Result matches snapshot", False, "the current result"),
    KindInfo("toolExists", "Tool is listed", False, "in tools/list", catalog=True),
    KindInfo("inputSchema", "inputSchema unchanged", False, "its current inputSchema", True),
)
_BY_KIND: Final = {k.kind: k for k in KINDS}


def kind_info(kind: str) -> KindInfo:
    return _BY_KIND[kind]  # type: ignore[index]


class RowError(ValueError):
    """A row that cannot become an assertion: `row` is its index, the message says why."""

    def __init__(self, row: int, column: Literal["pointer", "value"], message: str) -> None:
        super().__init__(message)
        self.row = row
        self.column = column


@dataclass(frozen=True)
class AssertionRow:
    """One row as typed: `value` is the outcome kind, the JSON, the regex, the type name or
    the milliseconds, by kind; `code` the JSON-RPC code of an "error" outcome."""

    kind: RowKind
    pointer: str = ""
    value: str = ""
    code: int | None = None


def unavailable(kind: RowKind, draft: CallDraft, tool: dict[str, Any] | None) -> str | None:
    """Why `kind` cannot be asserted on this call (None: it can)."""
    is_tool = draft.method == "tools/call"
    if kind == "snapshot" and draft.result is None:
        return "run the call first: there is no result to keep"
    if kind in ("outputSchema", "toolExists", "inputSchema") and not is_tool:
        return "tool calls only"
    if (
        kind == "outputSchema"
        and tool is not None
        and not isinstance(tool.get("outputSchema"), dict)
    ):
        return "the tool declares no outputSchema"
    if kind == "inputSchema" and (tool is None or not isinstance(tool.get("inputSchema"), dict)):
        return "the tool's definition is not known here (list the tools first)"
    return None


def _pointer(index: int, row: AssertionRow) -> str:
    text = row.pointer.strip()
    try:
        parse_pointer(text)
    except ValueError as exc:
        raise RowError(index, "pointer", str(exc)) from exc
    return text


def _json(index: int, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise RowError(
            index,
            "value",
            f'the value is not JSON ({exc}); write a string in quotes: "text"',
        ) from exc


def _assertion(
    index: int, row: AssertionRow, draft: CallDraft, tool: dict[str, Any] | None
) -> Assertion:
    why = unavailable(row.kind, draft, tool)
    if why is not None:
        raise RowError(index, "value", f"{kind_info(row.kind).title}: {why}")
    kind, value = row.kind, row.value.strip()
    if kind == "outcome":
        if value not in OUTCOMES:
            raise RowError(index, "value", f"the outcome must be one of {', '.join(OUTCOMES)}")
        return OutcomeAssertion(value, row.code if value == "error" else None)
    if kind in ("equals", "contains"):
        pointer = _pointer(index, row)
        return PointerAssertion(pointer, kind, _json(index, row.value))
    if kind == "matches":
        pointer = _pointer(index, row)
        if not row.value:
            raise RowError(index, "value", "write the regular expression to match")
        try:
            re.compile(row.value)
        except re.error as exc:
            raise RowError(
                index, "value", f"{row.value!r} is not a valid regular expression: {exc}"
            ) from exc
        return PointerAssertion(pointer, "matches", row.value)
    if kind == "type":
        pointer = _pointer(index, row)
        if value not in JSON_TYPE_NAMES:
            raise RowError(
                index,
                "value",
                f"{value!r} is not a JSON type: use one of {', '.join(JSON_TYPE_NAMES)}",
            )
        return PointerAssertion(pointer, "type", value)
    if kind == "latency":
        try:
            ms = float(value)
        except ValueError:
            ms = -1.0
        if not ms > 0 or ms != ms or ms == float("inf"):
            raise RowError(
                index, "value", f"the latency must be a number of ms above 0, not {value!r}"
            )
        return LatencyAssertion(ms)
    if kind == "snapshot":
        assert draft.result is not None  # unavailable() said so otherwise
        return SnapshotAssertion(snapshot_of(draft.result))
    if kind == "outputSchema":
        return OutputSchemaAssertion()
    if kind == "toolExists":
        return ToolExistsAssertion(True)
    assert tool is not None  # inputSchema: unavailable() said so otherwise
    return InputSchemaAssertion(tool["inputSchema"])


def build_assertions(
    rows: Sequence[AssertionRow], draft: CallDraft, tool: dict[str, Any] | None
) -> tuple[tuple[Assertion, ...], tuple[Assertion, ...]]:
    """(the call's assertions, its tool's catalog assertions), in row order. Raises
    RowError for the first row that is wrong, or when two rows say the outcome."""
    own: list[Assertion] = []
    catalog: list[Assertion] = []
    outcomes = [i for i, r in enumerate(rows) if r.kind == "outcome"]
    if len(outcomes) > 1:
        raise RowError(outcomes[1], "value", "a call has one outcome: remove the other row")
    for index, row in enumerate(rows):
        assertion = _assertion(index, row, draft, tool)
        (catalog if kind_info(row.kind).catalog else own).append(assertion)
    return tuple(own), tuple(catalog)


def catalog_entry(tool_name: str, assertions: tuple[Assertion, ...]) -> SavedCall:
    """The tool's catalog entry holding `assertions`."""
    return SavedCall(f"catalog: {tool_name}", "catalog", tool=tool_name, assertions=assertions)


def add_catalog_entry(collection: Collection, entry: SavedCall) -> SavedCall:
    """Put `entry` into `collection`: into the catalog entry of the same name and tool if
    there is one (its assertions of these kinds replaced, the others kept), else as a new
    call (renamed when the name is taken by another call)."""
    current = collection.call(entry.name)
    if current is None or current.kind != "catalog" or current.tool != entry.tool:
        return collection.add(entry)
    kinds = {type(a) for a in entry.assertions}
    kept = tuple(a for a in current.assertions if type(a) not in kinds)
    merged = current.with_assertions((*kept, *entry.assertions))
    collection.put(merged)
    return merged
