"""From a session file to a test: each call recorded in it becomes a saved call whose
snapshot is the recorded result (volatile fields ignored when compared), with the answers
given to the server's asks during that call. Works on files recorded by the app, by
`cli --record` and by a tap (whose header knows no era: it is read from the frames)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.collections.answers import answers_by_request
from inspector.collections.collection import (
    Assertion,
    Collection,
    InputSchemaAssertion,
    SavedAnswer,
    SavedCall,
    ToolExistsAssertion,
)
from inspector.collections.file import save_collection
from inspector.collections.saving import KIND_OF_METHOD, saved_call_for
from inspector.protocol.machine.config import META_VERSION
from inspector.recording.format import REDACTED
from inspector.recording.reader import RecordedSession, read_session
from inspector.recording.replay import clean_params, extract_calls

__all__ = [
    "SessionConversion",
    "collection_from_session",
    "recorded_era",
    "save_session_as_collection",
]


@dataclass
class SessionConversion:
    collection: Collection
    era: str  # the era the session was recorded in: legacy | modern
    notes: list[str] = field(default_factory=list)  # what was left out, and why


def _json(raw: str | bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, TypeError):
        return None


def recorded_era(recorded: RecordedSession) -> str:
    """legacy or modern: the ready line's era; for a tap (era auto) the frames say it (an
    `initialize` sent is legacy; requests stamped with a protocol version are modern)."""
    ready = recorded.ready
    if ready is not None and ready.get("era") in ("legacy", "modern"):
        return str(ready["era"])
    if recorded.header.get("era") in ("legacy", "modern"):
        return str(recorded.header["era"])
    for event in recorded.frames():
        msg = _json(event.raw) if event.direction == "out" else None
        if not isinstance(msg, dict) or not isinstance(msg.get("method"), str):
            continue
        if msg["method"] == "initialize":
            return "legacy"
        meta = msg.get("params", {}).get("_meta") if isinstance(msg.get("params"), dict) else None
        if isinstance(meta, dict) and META_VERSION in meta:
            return "modern"
    return "legacy"


def collection_from_session(recorded: RecordedSession, name: str = "") -> SessionConversion:
    """A collection of the session's calls (tools/call, resources/read, prompts/get,
    completion/complete), each with the recorded outcome and result as its assertions,
    then a catalog entry per tool in the last tools/list (listed, inputSchema unchanged)."""
    calls = extract_calls(recorded)
    answers = answers_by_request(recorded.frames())
    era = recorded_era(recorded)
    collection = Collection(name=name or recorded.path.stem, era=era)
    conversion = SessionConversion(collection, era)
    skipped: dict[str, int] = {}
    listed: dict[str, dict[str, Any]] = {}
    saved: list[SavedCall] = []
    for call in calls:
        if call.method == "tools/list" and isinstance(call.result, dict):
            if not (call.params or {}).get("cursor"):
                listed = {}
            for tool in call.result.get("tools") or []:
                if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                    listed[tool["name"]] = tool
            continue
        if call.method not in KIND_OF_METHOD:
            skipped[call.method] = skipped.get(call.method, 0) + 1
            continue
        if call.cancelled or not call.answered:
            why = "cancelled" if call.cancelled else "never answered"
            conversion.notes.append(f"{call.label}: {why} in the recording; left out")
            continue
        try:
            made = saved_call_for(
                call.method,
                clean_params(call.params) or {},
                result=call.result,
                error=call.error,
                answers=_answers_for(answers, call.wire_id),
            )
        except ValueError:
            made = None
        if made is None:
            conversion.notes.append(f"{call.label}: its params are not usable; left out")
            continue
        if REDACTED in json.dumps(made.params(), ensure_ascii=False):
            conversion.notes.append(
                f"{made.name}: its arguments held a secret, redacted when it was recorded; "
                "write ${env:NAME} in its place in the collection"
            )
        saved.append(made)
    for call_made in saved:
        collection.add(call_made)
    # The catalog entries last: a server that settles its tool list just after the
    # handshake (list_changed) has done so by the time they run.
    for tool_name, tool in listed.items():
        asserts: list[Assertion] = [ToolExistsAssertion(True)]
        if isinstance(tool.get("inputSchema"), dict):
            asserts.append(InputSchemaAssertion(tool["inputSchema"]))
        collection.add(
            SavedCall(f"catalog: {tool_name}", "catalog", tool=tool_name, assertions=tuple(asserts))
        )
    for method, count in sorted(skipped.items()):
        conversion.notes.append(f"{count} {method} request(s) are not saved calls; left out")
    return conversion


def save_session_as_collection(
    session_path: str | Path, collection_path: str | Path, name: str = ""
) -> SessionConversion:
    """ "Save session as test collection": read the session file, convert it, write the
    collection. Raises SessionFileError (an unreadable session) or OSError (the write)."""
    recorded = read_session(session_path)
    conversion = collection_from_session(recorded, name=name or Path(collection_path).stem)
    conversion.notes[:0] = recorded.problems
    save_collection(collection_path, conversion.collection)
    return conversion


def _answers_for(answers: dict[Any, list[SavedAnswer]], wire_id: Any) -> tuple[SavedAnswer, ...]:
    if isinstance(wire_id, bool) or not isinstance(wire_id, str | int):
        return ()
    return tuple(answers.get(wire_id, ()))
