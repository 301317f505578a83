"""From a session to a test: sessions recorded the app's way and through a tap become
collections that pass against the server they were recorded from."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.collections.collection import SnapshotAssertion
from inspector.collections.file import dumps_collection, loads_collection
from inspector.collections.from_session import collection_from_session
from inspector.recording.reader import read_session
from tests.collections.recorded import (
    ECHO_CALLS,
    ECHO_SERVER,
    LLM_ANSWER,
    record,
    record_through_tap,
    stdio_of,
)
from tests.collections.runs import run

pytestmark = pytest.mark.timeout(150)


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_recorded_session_becomes_a_passing_collection(era: str, tmp_path: Path) -> None:
    session_file = record(tmp_path / "s.jsonl", stdio_of(ECHO_SERVER), ECHO_CALLS, era=era)
    conversion = collection_from_session(read_session(session_file), name="echo")
    collection = conversion.collection
    assert conversion.era == era and collection.era == era
    names = [c.name for c in collection.calls]
    catalog = [n for n in names if n.startswith("catalog: ")]
    assert {"catalog: echo", "catalog: add", "catalog: sample_llm"} <= set(catalog)
    assert names[-len(catalog) :] == catalog  # the catalog entries come last
    assert {"echo", "add", "sample_llm", "read info://greeting", "prompt greet"} <= set(names)
    assert "no_such_tool" in names  # an error is a saved call too, its outcome asserted
    bad = collection.call("no_such_tool")
    assert bad is not None and bad.assertions[0].to_json()["outcome"] in ("error", "isError")
    llm = collection.call("sample_llm")
    assert llm is not None and llm.answers and llm.answers[0].result == LLM_ANSWER
    echo = collection.call("echo")
    assert echo is not None
    snap = next(a for a in echo.assertions if isinstance(a, SnapshotAssertion))
    assert "_meta" not in snap.snapshot  # the volatile serverInfo stamp is not stored
    # the file round-trips, and the collection passes against the same server
    again = loads_collection(dumps_collection(collection))
    report = run(stdio_of(ECHO_SERVER), again, era=era)
    assert report.failed == 0, [r.failure_text() for r in report.results if not r.passed]
    assert len(report.results) == len(collection.calls)


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_tap_session_knows_its_era_from_the_frames(era: str, tmp_path: Path) -> None:
    session_file = tmp_path / "tap.jsonl"
    record_through_tap(session_file, tmp_path / "run", ECHO_SERVER, ECHO_CALLS[:4], era=era)
    recorded = read_session(session_file)
    assert recorded.header.get("era") == "auto"
    conversion = collection_from_session(recorded)
    assert conversion.era == era
    assert conversion.collection.call("sample_llm") is not None
    report = run(stdio_of(ECHO_SERVER), conversion.collection, era=era)
    assert report.failed == 0, [r.failure_text() for r in report.results if not r.passed]


def test_secrets_stay_out_of_the_collection(tmp_path: Path) -> None:
    secret = "sk-test-0123456789abcdef"
    calls = [("tools/call", {"name": "echo", "arguments": {"text": f"key={secret}"}})]
    session_file = record(tmp_path / "s.jsonl", stdio_of(ECHO_SERVER), calls, secrets=[secret])
    conversion = collection_from_session(read_session(session_file))
    text = dumps_collection(conversion.collection)
    assert secret not in text and "•••redacted•••" in text
    assert any("write ${env:NAME} in its place" in note for note in conversion.notes)
