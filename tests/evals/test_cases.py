"""The evals file: a good file is read whole, every bad input is refused with its place named,
and a case written back (or made from a playground turn) reads again the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.evals import cases as cases_module
from inspector.evals.cases import (
    MISSING,
    EvalsFileError,
    ExpectedCall,
    case_from_turn,
    load_evals,
    parse_evals,
    pointer_value,
)
from inspector.host.records import ToolCallRecord, TurnRecord

GOOD: dict[str, Any] = {
    "version": 1,
    "defaults": {"runs": 3, "passRate": 0.66},
    "cases": [
        {
            "name": "adds",
            "prompt": "What is 2 + 3?",
            "expectedCalls": [
                {"tool": "add", "arguments": {"a": 2}},
                {"tool": "demo__add", "pointers": {"/b": 3}, "patterns": {"/a": "^\\d+$"}},
            ],
            "mustNotCall": ["delete_all"],
            "answerContains": "5",
        },
        {
            "name": "follows up",
            "messages": [
                {"role": "user", "text": "Remember 7."},
                {"role": "assistant", "text": "OK."},
                {"role": "user", "text": "Echo it."},
            ],
            "system": "Be terse.",
            "runs": 1,
            "passRate": 1,
        },
    ],
}


def test_a_good_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "evals.json"
    path.write_text(json.dumps(GOOD))
    evals = load_evals(path)
    adds, follows = evals.cases
    assert (adds.runs, adds.pass_rate, adds.answer_contains) == (3, 0.66, ("5",))
    assert adds.expected_calls[1] == ExpectedCall(
        "demo__add", None, (("/b", 3),), (("/a", "^\\d+$"),)
    )
    assert follows.prompt == "Echo it." and [m.role for m in follows.history] == [
        "user",
        "assistant",
    ]
    assert follows.system == "Be terse." and follows.runs == 1
    assert parse_evals(evals.to_json()).cases == evals.cases  # written back, read the same


C = '{"version": 1, "cases": [%s]}'
BAD = [
    ("[1, 2]", "an evals file is a JSON object"),
    (
        '{"version": 2, "cases": [{"name": "a", "prompt": "p"}]}',
        "version 2 is newer than this app reads (1)",
    ),
    ('{"version": 1, "cases": []}', '"cases" must be a non-empty list'),
    (
        '{"version": 1, "cases": [{"name": "a", "prompt": "p"}], "extra": 1}',
        'the file: unknown key "extra"',
    ),
    (C % '{"prompt": "p"}', 'cases[0]: "name" must be a non-empty string'),
    (
        C % '{"name": "a"}',
        'cases[0] "a": give either "prompt" or "messages"',
    ),
    (
        C % '{"name": "a", "prompt": "p", "runs": -2}',
        'cases[0] "a": "runs" must be a whole number from 1 to 1000, not -2',
    ),
    (
        C % '{"name": "a", "prompt": "p", "runs": "3"}',
        '"runs" must be a whole number from 1 to 1000, not "3"',
    ),
    (
        C % '{"name": "a", "prompt": "p", "passRate": 1.5}',
        '"passRate" must be a number from 0 to 1, not 1.5',
    ),
    (
        C % '{"name": "a", "prompt": "p", "passrate": 1}',
        'cases[0] "a": unknown key "passrate"',
    ),
    (
        C
        % '{"name": "a", "prompt": "p", "expectedCalls": [{"tool": "t", "patterns": {"/x": "("}}]}',
        'expectedCalls[0].patterns "/x": not a regular expression',
    ),
    (
        C % '{"name": "a", "prompt": "p", "expectedCalls": [{"tool": "t", "pointers": {"x": 1}}]}',
        "expectedCalls[0].pointers \"x\": a JSON pointer starts with '/'",
    ),
    (
        C
        % '{"name": "a", "prompt": "p", "expectedCalls": [{"tool": "t", "pointers": {"/~2": 1}}]}',
        "'~' in a JSON pointer must be '~0' or '~1'",
    ),
    (
        C % '{"name": "a", "prompt": "p", "expectedCalls": [{"arguments": []}]}',
        'expectedCalls[0]: "tool" must be a tool\'s name',
    ),
    (
        C % '{"name": "a", "prompt": "p", "mustNotCall": [1]}',
        '"mustNotCall" must be a non-empty string or a list of them',
    ),
    (
        C % '{"name": "a", "messages": [{"role": "assistant", "text": "hi"}]}',
        'the last of "messages" must be the user\'s',
    ),
    (
        C % '{"name": "a", "prompt": "p"}, {"name": "a", "prompt": "q"}',
        'cases[1] "a": the name is used twice',
    ),
    ("{not json", "is not JSON"),
]


@pytest.mark.parametrize(("text", "said"), BAD)
def test_every_bad_input_is_refused_with_its_place(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(EvalsFileError) as info:
        load_evals(path)
    assert said in str(info.value) and str(path) in str(info.value)


def test_all_problems_are_said_at_once_and_a_huge_file_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {"version": 1, "cases": [{"name": "a", "prompt": "p", "runs": 0, "passRate": -1}]}
    with pytest.raises(EvalsFileError) as info:
        parse_evals(data)
    assert len(info.value.problems) == 2
    monkeypatch.setattr(cases_module, "MAX_FILE_BYTES", 100)
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(GOOD))
    with pytest.raises(EvalsFileError, match="the file is over"):
        load_evals(path)
    with pytest.raises(EvalsFileError, match="cannot be read"):
        load_evals(tmp_path / "missing.json")


def test_json_pointers() -> None:
    doc = {"a/b": {"c~d": [10, 20]}, "": 1}
    assert pointer_value(doc, "/a~1b/c~0d/1") == 20
    assert pointer_value(doc, "/") == 1
    assert pointer_value(doc, "") is doc
    assert pointer_value(doc, "/a~1b/c~0d/2") is MISSING
    assert pointer_value(doc, "/a~1b/c~0d/01") is MISSING
    assert pointer_value(None, "/x") is MISSING


def test_a_turn_becomes_a_case() -> None:
    turn = TurnRecord(
        "add 2 and 3",
        final_text="5",
        tool_calls=[
            ToolCallRecord("demo__add", "demo", "add", {"a": 2, "b": 3}, '{"a":2,"b":3}'),
            ToolCallRecord("demo__rm", "demo", "rm", {}, "{}", decision="refused"),
        ],
    )
    case = case_from_turn(turn, "adds")
    assert case.prompt == "add 2 and 3"
    assert case.expected_calls == (ExpectedCall("add", {"a": 2, "b": 3}),)
    assert parse_evals({"version": 1, "cases": [case.to_json()]}).cases == (case,)
