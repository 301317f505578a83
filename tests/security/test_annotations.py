"""Annotations contradicted by the tool's own name or description: low, and only where the
words are plain (a name's words, a description's first word)."""

from __future__ import annotations

import pytest

from inspector.security import Severity
from tests.security.scanning import found, rules, server, tool


def test_read_only_tool_named_to_delete() -> None:
    t = tool("deleteFile", description="A file tool.", annotations={"readOnlyHint": True})
    (f,) = found(server(t), rule="annotations.read-only-writes")
    assert (f.field, f.pointer, f.offset, f.severity) == ("name", "/name", 0, Severity.LOW)
    assert "says 'delete'" in f.reason


def test_read_only_tool_whose_description_starts_sending() -> None:
    t = tool("mail", description="Sends an email.", annotations={"readOnlyHint": True})
    (f,) = found(server(t), rule="annotations.read-only-writes")
    assert (f.pointer, f.offset) == ("/description", 0)


def test_not_destructive_but_drops() -> None:
    t = tool("drop_table", annotations={"destructiveHint": False})
    (f,) = found(server(t), rule="annotations.read-only-writes")
    assert f.offset == 0


@pytest.mark.parametrize(
    "definition",
    [
        tool(
            "get_settings",
            description="Reads settings; does NOT send anything.",
            annotations={"readOnlyHint": True},
        ),
        tool(
            "add_validation",
            description="Adds a dropdown list.",
            annotations={"destructiveHint": False},
        ),
        tool("delete_file", annotations={"readOnlyHint": False, "destructiveHint": True}),
        tool("delete_file", annotations="not a dict"),
    ],
)
def test_plain_or_honest_hints_are_quiet(definition: dict[str, object]) -> None:
    assert rules(server(definition)) == set()
