"""A Playground turn appended to an evals file: a new file, an existing one (its defaults and
cases kept, a name made unique), and a file that is not an evals file (left alone, said)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.evals.cases import EvalsFileError, load_evals
from inspector.host.records import ToolCallRecord, TurnRecord
from inspector.ui.playground.save_case import append_case


def _turn() -> TurnRecord:
    sent = ToolCallRecord("demo__add", "demo", "add", {"a": 2, "b": 3}, '{"a":2,"b":3}')
    refused = ToolCallRecord("demo__rm", "demo", "rm", {}, "{}", decision="refused")
    return TurnRecord("What is 2 + 3?", "5", [sent, refused])


def test_a_turn_becomes_a_case_in_a_new_then_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "evals.json"
    assert append_case(path, _turn()) == "What is 2 + 3?"
    assert append_case(path, _turn()) == "What is 2 + 3? (2)"
    cases = load_evals(path).cases
    assert [c.name for c in cases] == ["What is 2 + 3?", "What is 2 + 3? (2)"]
    assert [(e.tool, e.arguments) for e in cases[0].expected_calls] == [("add", {"a": 2, "b": 3})]

    data = json.loads(path.read_text())
    data["defaults"] = {"runs": 3}
    path.write_text(json.dumps(data))
    append_case(path, _turn())
    assert json.loads(path.read_text())["defaults"] == {"runs": 3}


def test_a_file_that_is_not_an_evals_file_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"version": 9, "cases": []}')
    with pytest.raises(EvalsFileError, match="newer than this app reads"):
        append_case(path, _turn())
    assert path.read_text() == '{"version": 9, "cases": []}'
    path.write_text("not json")
    with pytest.raises(EvalsFileError, match="is not JSON"):
        append_case(path, _turn())
