"""Judging one assertion against what a call gave: each verdict with a sentence that says
what was expected and what came instead."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from inspector.collections.collection import (
    Assertion,
    InputSchemaAssertion,
    LatencyAssertion,
    OutcomeAssertion,
    OutputSchemaAssertion,
    PointerAssertion,
    SavedCall,
    SnapshotAssertion,
    ToolExistsAssertion,
)
from inspector.collections.pointer import MISSING, resolve_pointer
from inspector.collections.results import AssertionResult, CallResult
from inspector.common.terminal_text import terminal_value
from inspector.recording.diff import DEFAULT_IGNORES, Change, IgnoreRules, diff_json

__all__ = ["json_equal", "json_type", "judge", "judge_call", "prune_ignored"]


def judge(assertion: Assertion, seen: CallResult) -> AssertionResult:
    """The verdict of `assertion` on the call's result so far."""
    return _JUDGES[type(assertion)](assertion, seen)


def judge_call(call: SavedCall, seen: CallResult) -> list[AssertionResult]:
    """Every assertion of `call` on what it gave; a call that says nothing of its outcome
    is expected to end ok. Nothing is judged for a call that was not run, or cancelled."""
    if seen.outcome.kind in ("not-run", "cancelled"):
        return []
    assertions = call.assertions
    if not any(isinstance(a, OutcomeAssertion) for a in assertions):
        assertions = (OutcomeAssertion("ok"), *assertions)
    return [judge(a, seen) for a in assertions]


def _short(value: Any, limit: int = 120) -> str:
    return terminal_value(value, limit)


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 and 1.0 are one number; true and 1 are not the same value."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__


def _outcome(a: Assertion, seen: CallResult) -> AssertionResult:
    assert isinstance(a, OutcomeAssertion)
    got = seen.outcome
    passed = got.kind == a.expect and (a.code is None or got.code == a.code)
    if passed:
        return AssertionResult(a, True, f"outcome {got.describe()}")
    detail = got.describe()
    if got.kind == "isError" and seen.result is not None:
        detail += f" ({_tool_error_text(seen.result)})"
    want = f"error {a.code}" if a.expect == "error" and a.code is not None else a.expect
    return AssertionResult(a, False, f"expected outcome {want}, got {detail}")


def _tool_error_text(result: dict[str, Any]) -> str:
    content = result.get("content")
    if isinstance(content, list):
        texts = [b.get("text") for b in content if isinstance(b, dict)]
        joined = " ".join(t for t in texts if isinstance(t, str))
        if joined:
            return _short(joined, 200)
    return "no text"


def subject(seen: CallResult) -> Any:
    """What pointers point into: the tool's definition for a catalog entry, else the
    result, else the JSON-RPC error object."""
    if seen.call.kind == "catalog":
        return seen.tool
    return seen.result if seen.result is not None else seen.error


def _pointer(a: Assertion, seen: CallResult) -> AssertionResult:
    assert isinstance(a, PointerAssertion)
    where = a.pointer or "(the whole result)"
    doc = subject(seen)
    if doc is None:
        return AssertionResult(a, False, f"nothing to look into: {seen.outcome.describe()}")
    value = resolve_pointer(doc, a.tokens)
    if value is MISSING:
        return AssertionResult(a, False, f"{where} is not there")
    if a.op == "equals":
        ok = json_equal(value, a.value)
        return AssertionResult(
            a, ok, f"{where} is {_short(value)}" + ("" if ok else f", expected {_short(a.value)}")
        )
    if a.op == "type":
        got = json_type(value)
        ok = got == a.value or (a.value == "number" and got == "integer")
        return AssertionResult(
            a, ok, f"{where} is of type {got}" + ("" if ok else f", expected {a.value}")
        )
    if a.op == "matches":
        if not isinstance(value, str):
            return AssertionResult(a, False, f"{where} is {json_type(value)}, not a string")
        found = re.search(a.value, value) is not None
        verb = "matches" if found else "does not match"
        return AssertionResult(a, found, f"{where} = {_short(value)} {verb} /{a.value}/")
    ok = _contains(value, a.value)
    verb = "contains" if ok else "does not contain"
    return AssertionResult(a, ok, f"{where} = {_short(value)} {verb} {_short(a.value)}")


def _contains(value: Any, part: Any) -> bool:
    if isinstance(value, str):
        return isinstance(part, str) and part in value
    if isinstance(value, list):
        return any(json_equal(item, part) or _sub_object(item, part) for item in value)
    if isinstance(value, dict):
        return _sub_object(value, part)
    return False


def _sub_object(value: Any, part: Any) -> bool:
    """Every key of `part` is in `value` with an equal value (objects nest)."""
    if not isinstance(value, dict) or not isinstance(part, dict):
        return False
    return all(
        k in value and (json_equal(value[k], v) or _sub_object(value[k], v))
        for k, v in part.items()
    )


def _output_schema(a: Assertion, seen: CallResult) -> AssertionResult:
    assert isinstance(a, OutputSchemaAssertion)
    tool = seen.tool
    if tool is None:
        return AssertionResult(a, False, f"the tool {seen.call.target!r} is not in tools/list")
    schema = tool.get("outputSchema")
    if not isinstance(schema, dict):
        return AssertionResult(a, False, "the tool declares no outputSchema")
    if seen.result is None:
        return AssertionResult(a, False, f"no result: {seen.outcome.describe()}")
    if "structuredContent" not in seen.result:
        return AssertionResult(a, False, "the result has no structuredContent")
    import jsonschema
    import jsonschema.exceptions

    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except jsonschema.exceptions.SchemaError as exc:
        return AssertionResult(a, False, f"the tool's outputSchema is not valid: {exc.message}")
    errors = sorted(
        cls(schema).iter_errors(seen.result["structuredContent"]), key=lambda e: list(e.path)
    )
    if not errors:
        return AssertionResult(a, True, "structuredContent matches the outputSchema")
    parts = [
        f"{'/' + '/'.join(map(str, e.path)) if e.path else '(root)'}: {e.message}"
        for e in errors[:5]
    ]
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return AssertionResult(
        a, False, f"structuredContent does not match the outputSchema: {'; '.join(parts)}{more}"
    )


def _snapshot(a: Assertion, seen: CallResult) -> AssertionResult:
    assert isinstance(a, SnapshotAssertion)
    if seen.result is None:
        return AssertionResult(a, False, f"no result to compare: {seen.outcome.describe()}")
    rules = IgnoreRules([*(DEFAULT_IGNORES if a.default_ignores else ()), *a.ignore])
    changes = tuple(
        diff_json(prune_ignored(a.snapshot, rules), prune_ignored(seen.result, rules), rules)
    )
    if not changes:
        return AssertionResult(a, True, "the result matches the snapshot")
    first = _first_changes(changes)
    return AssertionResult(
        a, False, f"{len(changes)} change(s) from the snapshot: {first}", changes
    )


def prune_ignored(value: Any, rules: IgnoreRules, path: tuple[str, ...] = ()) -> Any:
    """`value` without the object members the rules ignore; an object left empty by that
    goes too (a modern result's `_meta` holding only the serverInfo stamp)."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            sub = (*path, str(key))
            if rules.ignores(sub):
                continue
            pruned = prune_ignored(item, rules, sub)
            if pruned == {} and item != {}:
                continue
            out[key] = pruned
        return out
    if isinstance(value, list):
        return [prune_ignored(item, rules, (*path, str(i))) for i, item in enumerate(value)]
    return value


def _latency(a: Assertion, seen: CallResult) -> AssertionResult:
    assert isinstance(a, LatencyAssertion)
    if seen.ms is None:
        return AssertionResult(a, False, "no latency: the call was not sent")
    ok = seen.ms < a.max_ms
    return AssertionResult(
        a, ok, f"took {seen.ms:.0f} ms" + ("" if ok else f", the limit is {a.max_ms:g} ms")
    )


def _tool_exists(a: Assertion, seen: CallResult) -> AssertionResult:
    assert isinstance(a, ToolExistsAssertion)
    listed = seen.tool is not None
    name = seen.call.target
    text = f"the tool {name!r} is {'listed' if listed else 'not listed'}"
    return AssertionResult(a, listed == a.exists, text)


def _input_schema(a: Assertion, seen: CallResult) -> AssertionResult:
    assert isinstance(a, InputSchemaAssertion)
    if seen.tool is None:
        return AssertionResult(a, False, f"the tool {seen.call.target!r} is not listed")
    changes = tuple(diff_json(a.schema, seen.tool.get("inputSchema"), IgnoreRules(())))
    if not changes:
        return AssertionResult(a, True, "the inputSchema is unchanged")
    first = _first_changes(changes)
    return AssertionResult(a, False, f"the inputSchema changed ({len(changes)}): {first}", changes)


def _first_changes(changes: Sequence[Change]) -> str:
    """The first three changes, and how many more there are."""
    first = "; ".join(c.describe() for c in changes[:3])
    return first + (f" (and {len(changes) - 3} more)" if len(changes) > 3 else "")


_JUDGES: Final[dict[type, Callable[[Any, CallResult], AssertionResult]]] = {
    OutcomeAssertion: _outcome,
    PointerAssertion: _pointer,
    OutputSchemaAssertion: _output_schema,
    SnapshotAssertion: _snapshot,
    LatencyAssertion: _latency,
    ToolExistsAssertion: _tool_exists,
    InputSchemaAssertion: _input_schema,
}
