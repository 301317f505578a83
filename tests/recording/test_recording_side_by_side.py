"""The side-by-side view of a replayed answer: aligned by JSON path, drift marked only
where the semantic diff found it; and the replay targets the GUI offers."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.recording.diff import IgnoreRules, diff_json
from inspector.recording.format import REDACTED
from inspector.recording.reader import RecordedSession
from inspector.recording.replay_target import (
    recorded_target,
    replay_config,
    target_for_profile,
    target_from_text,
)
from inspector.recording.side_by_side import side_by_side
from inspector.settings.profiles import EnvVar, Profile, StdioSettings


def test_changed_values_are_marked_on_both_sides_and_aligned() -> None:
    old = {
        "content": [{"type": "text", "text": "hi"}],
        "isError": False,
        "when": "2026-01-01T10:00:00Z",
    }
    new = {
        "content": [{"type": "text", "text": "echo: hi"}],
        "isError": False,
        "when": "2026-02-01T10:00:00Z",
    }
    changes = diff_json(old, new, IgnoreRules())
    left, right = side_by_side(old, new, changes)
    assert len(left) == len(right)
    marked_left = [line.text.strip() for line in left if line.mark]
    marked_right = [line.text.strip() for line in right if line.mark]
    assert marked_left == ['"text": "hi"'] and marked_right == ['"text": "echo: hi"']
    row = next(i for i, line in enumerate(left) if line.mark)
    assert right[row].mark == "changed"  # the same row on both sides
    # A timestamp that differs is not drift, so it is not coloured.
    assert not any(line.mark for line in left if '"when"' in line.text)


def test_a_removed_tool_is_marked_by_name_with_filler_on_the_other_side() -> None:
    old = {"tools": [{"name": "echo", "x": 1}, {"name": "fail", "x": 2}]}
    new = {"tools": [{"name": "echo", "x": 1}]}
    changes = diff_json(old, new, IgnoreRules())
    assert [c.path for c in changes] == ["/tools/name=fail"]
    left, right = side_by_side(old, new, changes)
    assert len(left) == len(right)
    removed = [i for i, line in enumerate(left) if line.mark == "removed"]
    assert removed and all(right[i].mark == "filler" for i in removed)
    assert any('"fail"' in left[i].text for i in removed)
    assert not any(line.mark for line in right if line.mark != "filler")


def test_an_added_key_is_marked_on_the_new_side() -> None:
    changes = diff_json({"a": 1}, {"a": 1, "b": {"c": [1, 2]}}, IgnoreRules())
    left, right = side_by_side({"a": 1}, {"a": 1, "b": {"c": [1, 2]}}, changes)
    added = [line.text.strip() for line in right if line.mark == "added"]
    assert added[0].startswith('"b": {') and "]" in added[-2] and len(added) == 6
    assert [line.mark for line in left].count("filler") == 6


def recorded(connection: dict[str, object], **header: object) -> RecordedSession:
    return RecordedSession(
        Path("x.jsonl"), {"connection": connection, **header}, events=[], problems=[]
    )


def test_the_recorded_target_is_exact_and_refuses_redacted_secrets() -> None:
    target = recorded_target(
        recorded(
            {
                "transport": "stdio",
                "command": "python3",
                "args": ["-c", "print('hi there')"],
                "env": {"MODE": "x"},
                "cwd": "/tmp",
            }
        )
    )
    assert target.describe() == "python3 -c 'print('\"'\"'hi there'\"'\"')'"
    assert target.cwd == "/tmp" and dict(target.env) == {"MODE": "x"}
    with pytest.raises(ValueError, match="API_TOKEN"):
        recorded_target(
            recorded({"transport": "stdio", "command": "x", "env": {"API_TOKEN": REDACTED}})
        )
    http = recorded_target(
        recorded({"transport": "http", "url": "http://127.0.0.1:1/mcp", "header_names": ["X-A"]})
    )
    assert http.kind == "http" and "X-A" in http.notes[0]
    with pytest.raises(ValueError, match="no command or URL"):
        recorded_target(recorded({}))


def test_typed_targets_and_profiles() -> None:
    assert target_from_text("node server.js --flag 'a b'").argv == (
        "node",
        "server.js",
        "--flag",
        "a b",
    )
    assert target_from_text("http://127.0.0.1:9/mcp").url == "http://127.0.0.1:9/mcp"
    with pytest.raises(ValueError):
        target_from_text("   ")
    with pytest.raises(ValueError):
        target_from_text("node 'unclosed")
    profile = Profile(
        name="p",
        stdio=StdioSettings(
            command="srv", args=["-v"], env=[EnvVar(name="K", value="", secret=True)]
        ),
    )
    with pytest.raises(ValueError, match="keyring"):
        target_for_profile(profile, None)


def test_the_replay_speaks_as_the_recorded_client() -> None:
    session = recorded(
        {},
        era="legacy",
        protocol_version="2025-03-26",
        client_capabilities={"sampling": {}},
    )
    config = replay_config(session, 12.0)
    assert config.legacy_version == "2025-03-26"
    assert config.capabilities == {"sampling": {}}
    assert config.request_timeout == 12.0


def test_a_reordered_keyed_list_lines_up_in_the_recorded_order() -> None:
    old = {"tools": [{"name": "a"}, {"name": "echo", "d": 1}, {"name": "fail"}]}
    new = {"tools": [{"name": "a"}, {"name": "new"}, {"name": "echo", "d": 2}]}
    changes = diff_json(old, new, IgnoreRules())
    left, right = side_by_side(old, new, changes)
    for a, b in zip(left, right, strict=True):
        if a.mark in ("", "changed") and b.mark in ("", "changed"):
            assert a.path == b.path, (a, b)  # the same item side by side
    assert [line.text.strip() for line in right if line.mark == "changed"] == ['"d": 2']
    added = [line.text.strip() for line in right if line.mark == "added"]
    assert '"name": "new"' in added
