"""One run of an eval case judged: did the model do what the case expects? Passed, or the
reasons it failed, each a sentence a person reads ("expected a call to add with {"a": 2};
the model called echo", "called delete_all, which must not be called", "the answer lacks
'Paris'", "stopped at the step limit", "model error: …").

What the model asked for is judged, whatever became of the call (refused by the policy,
an unknown tool, arguments that were not JSON): evals judge the model's choices. Pure.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from inspector.evals.cases import MISSING, EvalCase, ExpectedCall, pointer_value
from inspector.host.records import ToolCallRecord, TurnRecord

__all__ = ["Verdict", "describe_expected", "judge", "matches"]

_SHOWN = 120  # characters of arguments quoted in a reason


@dataclass(frozen=True, slots=True)
class Verdict:
    passed: bool
    reasons: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"passed": self.passed, "reasons": list(self.reasons)}


def _json(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _subset(expected: Any, actual: Any) -> bool:
    """`expected` is in `actual`: objects by their keys (recursively), lists item by item
    (same length), anything else equal (1 == 1.0, but true is not 1)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and _subset(value, actual[key]) for key, value in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(_subset(e, a) for e, a in zip(expected, actual, strict=True))
        )
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def _found(pattern: str, value: Any) -> bool:
    if value is MISSING:
        return False
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return re.search(pattern, text) is not None


def _names(call: ToolCallRecord) -> set[str]:
    return {n for n in (call.qualified, call.tool) if n}


def matches(expected: ExpectedCall, call: ToolCallRecord) -> bool:
    """`call` is the call `expected` describes: the name (bare: the server's own name, or
    qualified "tab__tool"), the arguments subset, each pointer's value, each pattern."""
    if expected.tool not in _names(call):
        return False
    arguments = call.arguments
    if expected.arguments is not None and not _subset(expected.arguments, arguments):
        return False
    for pointer, value in expected.pointers:
        found = pointer_value(arguments, pointer)
        if found is MISSING or not _subset(value, found):
            return False
    return all(_found(p, pointer_value(arguments, ptr)) for ptr, p in expected.patterns)


def describe_expected(expected: ExpectedCall) -> str:
    """ "add with {"a": 2}", "add with /a = 2 and /b matching '^x'", or just "add"."""
    parts = []
    if expected.arguments is not None:
        parts.append(_json(expected.arguments))
    parts += [f"{ptr or '(the arguments)'} = {_json(v)}" for ptr, v in expected.pointers]
    parts += [f"{ptr or '(the arguments)'} matching {p!r}" for ptr, p in expected.patterns]
    return expected.tool + (" with " + " and ".join(parts) if parts else "")


def _same_tool(name: str, call: ToolCallRecord) -> bool:
    """`call` is of the tool `name` says, maybe at another tab ("other__add" and demo's add)."""
    return name in _names(call) or bool(call.tool and name.endswith("__" + call.tool))


def _called(calls: list[ToolCallRecord], expected: ExpectedCall) -> str:
    """What the model called instead, for the reason: the calls of the same tool with their
    arguments, the others by name."""
    if not calls:
        return "the model called no tool"
    said = []
    for call in calls:
        name = call.qualified or call.tool
        if _same_tool(expected.tool, call):
            if call.arguments is None:
                said.append(f"{name} with arguments that are not JSON")
            else:
                said.append(f"{name} with {_json(call.arguments)}")
        else:
            said.append(name)
    unique = list(dict.fromkeys(said))
    return "the model called " + ", ".join(unique)


_OUTCOMES = {
    "step-limit": "stopped at the step limit",
    "stopped": "the turn was stopped before its end",
}


def judge(case: EvalCase, turn: TurnRecord) -> Verdict:
    """`turn` (one run of `case`) against what the case expects."""
    reasons: list[str] = []
    if turn.outcome == "model-error":
        reasons.append(f"model error: {turn.error or 'no reason given'}")
    elif turn.outcome in _OUTCOMES:
        said = _OUTCOMES[turn.outcome]
        reasons.append(f"{said} ({turn.error})" if turn.error else said)
    elif turn.outcome != "answered":
        reasons.append(f"the turn ended as {turn.outcome!r}: {turn.error}".rstrip(": "))
    unused = list(turn.tool_calls)
    for expected in case.expected_calls:
        hit = next((c for c in unused if matches(expected, c)), None)
        if hit is None:
            reasons.append(
                f"expected a call to {describe_expected(expected)}; "
                f"{_called(turn.tool_calls, expected)}"
            )
        else:
            unused.remove(hit)
    for name in case.must_not_call:
        if any(name in _names(c) for c in turn.tool_calls):
            reasons.append(f"called {name}, which must not be called")
    answer = turn.final_text.casefold()
    for text in case.answer_contains:
        if text.casefold() not in answer:
            reasons.append(f"the answer lacks {text!r}")
    return Verdict(not reasons, tuple(reasons))
