"""From a session file to a test: each call recorded in it becomes a saved call whose
snapshot is the recorded result (volatile fields ignored when compared), with the answers
given to the server's asks during that call. Works on files recorded by the app, by
`cli --record` and by a tap (whose header knows no era: it is read from the frames)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from inspector.collections.file import save_collection
from inspector.collections.model import (
    Assertion,
    Collection,
    InputSchemaAssertion,
    SavedAnswer,
    SavedCall,
    ToolExistsAssertion,
)
from inspector.collections.saving import KIND_OF_METHOD, saved_call_for
from inspector.protocol.asks import ask_kind
from inspector.protocol.config import META_VERSION
from inspector.recording.format import REDACTED
from inspector.recording.reader import RecordedSession, read_session
from inspector.recording.replay import RecordedCall, clean_params, extract_calls

__all__ = [
    "SessionConversion",
    "collection_from_session",
    "recorded_era",
    "save_session_as_collection",
]

_HANDSHAKE: Final = frozenset({"initialize", "server/discover"})


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


def _answers_by_call(
    recorded: RecordedSession, calls: list[RecordedCall]
) -> dict[int, list[SavedAnswer]]:
    """The answers given during each call (by call index): a legacy ask goes to the
    latest call still waiting when it came; a modern one to the call whose input_required
    result carried it."""
    out: dict[int, list[SavedAnswer]] = {}
    queue = iter(calls)
    by_id: dict[Any, RecordedCall] = {}
    open_calls: list[RecordedCall] = []
    awaiting_retry: dict[tuple[str, Any], RecordedCall] = {}
    legacy: dict[Any, tuple[RecordedCall, str, dict[str, Any]]] = {}
    modern: dict[str, tuple[RecordedCall, str, dict[str, Any]]] = {}
    for event in recorded.frames():
        msg = _json(event.raw)
        if not isinstance(msg, dict):
            continue
        method = msg.get("method")
        raw_params = msg.get("params")
        params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
        if event.direction == "out" and isinstance(method, str) and "id" in msg:
            if method in _HANDSHAKE:
                continue
            if isinstance(params.get("inputResponses"), dict):
                for key, value in params["inputResponses"].items():
                    asked = modern.pop(str(key), None)
                    if asked is not None and isinstance(value, dict):
                        call, ask_method, ask_params = asked
                        out.setdefault(call.index, []).append(
                            SavedAnswer(ask_method, ask_params, value)
                        )
            retry_key = (method, params.get("name"))
            if ("inputResponses" in params or "requestState" in params) and (
                retry_key in awaiting_retry
            ):
                by_id[msg["id"]] = awaiting_retry.pop(retry_key)
                continue
            sent = next(queue, None)
            if sent is not None:
                by_id[msg["id"]] = sent
                open_calls.append(sent)
        elif event.direction == "in" and isinstance(method, str) and "id" in msg:
            if ask_kind(method) is not None and open_calls:
                legacy[msg["id"]] = (open_calls[-1], method, params)
        elif event.direction == "out" and method is None and msg.get("id") in legacy:
            call, ask_method, ask_params = legacy.pop(msg["id"])
            if isinstance(msg.get("result"), dict):
                answer = SavedAnswer(ask_method, ask_params, msg["result"])
            else:
                error = msg.get("error")
                why = error.get("message", "rejected") if isinstance(error, dict) else "rejected"
                answer = SavedAnswer(ask_method, ask_params, reject=str(why))
            out.setdefault(call.index, []).append(answer)
        elif event.direction == "in" and method is None and msg.get("id") in by_id:
            call = by_id[msg["id"]]
            result = msg.get("result")
            if isinstance(result, dict) and result.get("resultType") == "input_required":
                awaiting_retry[(call.method, (call.params or {}).get("name"))] = call
                requests = result.get("inputRequests")
                for key, entry in requests.items() if isinstance(requests, dict) else ():
                    if isinstance(entry, dict) and isinstance(entry.get("method"), str):
                        entry_params = entry.get("params")
                        modern[str(key)] = (
                            call,
                            entry["method"],
                            entry_params if isinstance(entry_params, dict) else {},
                        )
                continue
            if call in open_calls:
                open_calls.remove(call)
    return out


def collection_from_session(recorded: RecordedSession, name: str = "") -> SessionConversion:
    """A collection of the session's calls (tools/call, resources/read, prompts/get,
    completion/complete), each with the recorded outcome and result as its assertions,
    plus a catalog entry per tool in the last tools/list (listed, inputSchema unchanged)."""
    calls = extract_calls(recorded)
    answers = _answers_by_call(recorded, calls)
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
                answers=tuple(answers.get(call.index, ())),
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
    for tool_name, tool in listed.items():
        asserts: list[Assertion] = [ToolExistsAssertion(True)]
        if isinstance(tool.get("inputSchema"), dict):
            asserts.append(InputSchemaAssertion(tool["inputSchema"]))
        collection.add(
            SavedCall(f"catalog: {tool_name}", "catalog", tool=tool_name, assertions=tuple(asserts))
        )
    for call_made in saved:
        collection.add(call_made)
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
