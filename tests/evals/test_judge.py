"""A run judged against its case: each failure is a sentence a person reads."""

from __future__ import annotations

from typing import Any

from inspector.evals.cases import EvalCase, ExpectedCall
from inspector.evals.judge import judge
from inspector.host.records import ToolCallRecord, TurnRecord


def call(name: str, arguments: Any, tab: str = "demo", **kw: Any) -> ToolCallRecord:
    return ToolCallRecord(f"{tab}__{name}", tab, name, arguments, str(arguments), **kw)


CASE = EvalCase(
    "adds",
    "What is 2 + 3?",
    expected_calls=(ExpectedCall("add", {"a": 2}),),
    must_not_call=("delete_all",),
    answer_contains=("Paris",),
)


def test_a_run_that_does_what_the_case_expects_passes() -> None:
    turn = TurnRecord("q", "It is paris.", [call("add", {"a": 2, "b": 3})])
    assert judge(CASE, turn).passed and judge(CASE, turn).reasons == ()


def test_each_failure_is_a_sentence() -> None:
    turn = TurnRecord("q", "It is Rome.", [call("echo", {"text": "x"}), call("delete_all", {})])
    assert judge(CASE, turn).reasons == (
        'expected a call to add with {"a": 2}; the model called demo__echo, demo__delete_all',
        "called delete_all, which must not be called",
        "the answer lacks 'Paris'",
    )
    wrong = TurnRecord("q", "Paris", [call("add", {"a": 3}), call("add", None)])
    assert judge(CASE, wrong).reasons == (
        'expected a call to add with {"a": 2}; the model called demo__add with {"a": 3}, '
        "demo__add with arguments that are not JSON",
    )
    nothing = TurnRecord("q", "Paris", [], outcome="step-limit")
    assert judge(CASE, nothing).reasons == (
        "stopped at the step limit",
        'expected a call to add with {"a": 2}; the model called no tool',
    )
    failed = TurnRecord("q", "", outcome="model-error", error="no answer from x within 5 s")
    assert judge(CASE, failed).reasons[0] == "model error: no answer from x within 5 s"


def test_names_pointers_and_patterns() -> None:
    case = EvalCase(
        "c",
        "p",
        expected_calls=(
            ExpectedCall("other__add", pointers=(("/nums/1", 3),)),
            ExpectedCall("add", patterns=(("/note", "^hi"), ("/nums", r"\[2,"))),
        ),
    )
    args = {"nums": [2, 3], "note": "hi there"}
    assert judge(case, TurnRecord("p", "", [call("add", args, "other"), call("add", args)])).passed
    # each expected call needs a call of its own; the qualified name takes only that tab's
    only_demo = judge(case, TurnRecord("p", "", [call("add", args), call("add", args)]))
    assert only_demo.reasons == (
        "expected a call to other__add with /nums/1 = 3; the model called "
        'demo__add with {"note": "hi there", "nums": [2, 3]}',
    )
    assert not judge(
        case, TurnRecord("p", "", [call("add", {"nums": [2, 4], "note": "hi"})])
    ).passed
    boolean = EvalCase("b", "p", expected_calls=(ExpectedCall("t", {"flag": 1}),))
    assert not judge(boolean, TurnRecord("p", "", [call("t", {"flag": True})])).passed
