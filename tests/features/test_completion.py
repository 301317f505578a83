"""completion/complete helper (Qt-free): gating by version and capability, context."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.features.completion import (
    Completer,
    completion_params,
    completions_available,
    context_arguments,
    parse_completion_result,
    prompt_ref,
    resource_ref,
)


@pytest.mark.parametrize(
    ("caps", "version", "ok"),
    [
        ({}, "2024-11-05", True),  # no capability existed then: allowed
        ({}, "2025-03-26", False),
        ({"completions": {}}, "2025-03-26", True),
        ({"completions": {}}, "2026-07-28", True),
        ({}, "2026-07-28", False),
        ({"completions": True}, "2025-06-18", False),  # not an object
        ({"completions": {}}, None, False),
    ],
)
def test_availability(caps: dict[str, Any], version: str | None, ok: bool) -> None:
    allowed, why = completions_available(caps, version)
    assert allowed is ok
    assert bool(why) is not ok


def test_context_holds_the_other_filled_arguments_as_strings() -> None:
    values = {"department": "Engineering", "name": "Al", "empty": "", "n": 3, "flag": False}
    assert context_arguments(values, "name") == {
        "department": "Engineering",
        "n": "3",
        "flag": "false",
    }
    assert context_arguments(values, "name", names=["department"]) == {"department": "Engineering"}


def test_params_add_context_only_where_the_version_has_it() -> None:
    ref = prompt_ref("completable-prompt")
    filled = {"department": "Sales"}
    new = completion_params(ref, "name", "D", filled, "2025-06-18")
    assert new == {
        "ref": {"type": "ref/prompt", "name": "completable-prompt"},
        "argument": {"name": "name", "value": "D"},
        "context": {"arguments": {"department": "Sales"}},
    }
    old = completion_params(ref, "name", "D", filled, "2025-03-26")
    assert "context" not in old
    assert "context" not in completion_params(ref, "name", "D", {}, "2026-07-28")
    assert resource_ref("demo://notes/{topic}") == {
        "type": "ref/resource",
        "uri": "demo://notes/{topic}",
    }


def test_parse_result_is_lenient() -> None:
    good = parse_completion_result(
        {"completion": {"values": ["a", "b"], "total": 9, "hasMore": True}}
    )
    assert (good.values, good.total, good.has_more, good.problems) == (["a", "b"], 9, True, [])
    mixed = parse_completion_result({"completion": {"values": ["a", 1, None]}})
    assert mixed.values == ["a"] and "2 value(s) are not strings" in mixed.problems
    many = parse_completion_result({"completion": {"values": [str(i) for i in range(101)]}})
    assert any("at most 100" in p for p in many.problems)
    assert parse_completion_result({}).problems
    assert parse_completion_result({"completion": {"values": "x"}}).problems


class FakeSession:
    def __init__(self, version: str, caps: dict[str, Any]) -> None:
        self.protocol_version = version
        self.server_capabilities = caps
        self.sent: list[dict[str, Any]] = []

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        assert method == "completion/complete" and params is not None
        self.sent.append(params)
        return {"completion": {"values": ["Alice", "Bob"]}}


async def test_completer_sends_context_and_skips_when_not_declared() -> None:
    session = FakeSession("2025-11-25", {"completions": {}})
    completer = Completer(session, prompt_ref("p"), names=["department", "name"])
    got = await completer.complete("name", "", {"department": "Engineering", "name": ""})
    assert got == ["Alice", "Bob"]
    assert session.sent[0]["context"] == {"arguments": {"department": "Engineering"}}
    quiet = FakeSession("2025-11-25", {})
    assert await Completer(quiet, prompt_ref("p")).complete("name", "", {}) == []
    assert quiet.sent == []
