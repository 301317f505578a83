""" "Update snapshot": take what a run saw as the new expected result."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from inspector.collections.checks import judge_call, prune_ignored
from inspector.collections.collection import (
    Assertion,
    Collection,
    InputSchemaAssertion,
    SavedCall,
    SnapshotAssertion,
)
from inspector.collections.results import CallResult
from inspector.recording.diff import IgnoreRules

__all__ = ["rejudge", "snapshot_of", "update_call_snapshot", "update_snapshots"]


def snapshot_of(result: dict[str, Any]) -> dict[str, Any]:
    """What is stored as a snapshot: the result without the volatile fields that are
    never compared (the default ignores), so the file holds no noise."""
    pruned: dict[str, Any] = prune_ignored(result, IgnoreRules())
    return pruned


def update_call_snapshot(call: SavedCall, result: CallResult, *, add: bool = False) -> SavedCall:
    """`call` with its snapshot assertions set to what `result` saw (the result; for a
    catalog entry the tool's inputSchema). Ignore paths are kept. With `add`, a call
    without a snapshot gets one. Unchanged when the run got no result to keep."""
    assertions: list[Assertion] = []
    has_snapshot = False
    for a in call.assertions:
        if isinstance(a, SnapshotAssertion):
            has_snapshot = True
            if result.result is not None:
                a = replace(a, snapshot=snapshot_of(result.result))
        elif isinstance(a, InputSchemaAssertion):
            has_snapshot = True
            if result.tool is not None and isinstance(result.tool.get("inputSchema"), dict):
                a = replace(a, schema=result.tool["inputSchema"])
        assertions.append(a)
    if add and not has_snapshot:
        if call.kind == "catalog":
            if result.tool is not None and isinstance(result.tool.get("inputSchema"), dict):
                assertions.append(InputSchemaAssertion(result.tool["inputSchema"]))
        elif result.result is not None:
            assertions.append(SnapshotAssertion(snapshot_of(result.result)))
    return call.with_assertions(tuple(assertions))


def update_snapshots(
    collection: Collection, results: Iterable[CallResult], *, names: Iterable[str] | None = None
) -> list[str]:
    """Update, in place, the snapshots of the calls among `results` (only `names`, when
    given) whose snapshot failed; returns the names of the calls changed."""
    wanted = None if names is None else set(names)
    changed: list[str] = []
    for result in results:
        if wanted is not None and result.name not in wanted:
            continue
        stale = any(
            not r.passed and isinstance(r.assertion, SnapshotAssertion | InputSchemaAssertion)
            for r in result.assertions
        )
        current = collection.call(result.name)
        if not stale or current is None:
            continue
        updated = update_call_snapshot(current, result)
        if updated != current:
            collection.put(updated)
            changed.append(result.name)
    return changed


def rejudge(result: CallResult, call: SavedCall) -> None:
    """Judge `result` again by `call`'s assertions (after its snapshots were updated)."""
    result.call = call
    result.assertions = judge_call(call, result)
