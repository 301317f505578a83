"""Prompts (Qt-free): argument schema, arguments to send, results read as a conversation."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.features.prompts import (
    arguments_schema,
    arguments_to_send,
    parse_get_prompt_result,
)


def test_schema_from_arguments() -> None:
    schema, problems = arguments_schema(
        {
            "name": "review_code",
            "arguments": [
                {"name": "code", "title": "Code", "description": "The code", "required": True},
                {"name": "language", "description": "Language"},
            ],
        }
    )
    assert problems == []
    assert schema == {
        "type": "object",
        "properties": {
            "code": {"type": "string", "title": "Code", "description": "The code"},
            "language": {"type": "string", "description": "Language"},
        },
        "required": ["code"],
    }
    assert arguments_schema({"name": "x"}) == ({"type": "object", "properties": {}}, [])


def test_bad_argument_declarations() -> None:
    schema, problems = arguments_schema(
        {"arguments": [{"name": "a"}, {"name": "a"}, {}, 5, {"name": "b", "required": "yes"}]}
    )
    assert list(schema["properties"]) == ["a", "b"]
    assert problems == [
        "argument 'a' is declared twice",
        "arguments[2] has no name",
        "arguments[3] is not an object",
        "argument 'b': 'required' is not a boolean",
    ]
    assert arguments_schema({"arguments": {}})[1] == ["'arguments' is not a list"]


def test_arguments_to_send() -> None:
    values = {"code": "x = 1", "language": "", "n": 3, "none": None}
    assert arguments_to_send(values) == {"code": "x = 1", "n": "3"}
    assert arguments_to_send(values, as_typed=True) == values


def test_conversation() -> None:
    conv = parse_get_prompt_result(
        {
            "description": "Greeting",
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "hi"}},
                {"role": "assistant", "content": {"type": "image", "data": "", "mimeType": "x"}},
            ],
        }
    )
    assert conv.description == "Greeting" and conv.all_problems == []
    assert [m.role for m in conv.messages] == ["user", "assistant"]
    assert conv.messages[1].blocks[0]["type"] == "image"


@pytest.mark.parametrize(
    ("result", "problem"),
    [
        (None, "not an object"),
        ({}, "no 'messages'"),
        ({"messages": {}}, "not a list"),
        ({"messages": []}, "'messages' is empty"),
        ({"messages": [3]}, "messages[0]: not an object"),
        ({"messages": [{"content": {"type": "text", "text": "x"}}]}, "messages[0]: no role"),
        ({"messages": [{"role": "system", "content": {}}]}, "unknown role 'system'"),
        ({"messages": [{"role": "user"}]}, "no content"),
        ({"messages": [{"role": "user", "content": "hi"}]}, "'content' is a str"),
        ({"messages": [{"role": "user", "content": [{"type": "text"}]}]}, "is a list"),
        ({"description": 5, "messages": []}, "'description' is not a string"),
    ],
)
def test_bad_results_are_described(result: Any, problem: str) -> None:
    conv = parse_get_prompt_result(result)
    assert any(problem in p for p in conv.all_problems), conv.all_problems
