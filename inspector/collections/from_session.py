"""From a session file to a test: each call recorded in it becomes a saved call whose
snapshot is the recorded result (volatile fields ignored when compared), with the answers
given to the server's asks during that call. Works on files recorded by the app, by
`cli --record` and by a tap (whose header knows no era: it is read from the frames)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.collections.model import (
    Assertion,
    CallKind,
    Collection,
    InputSchemaAssertion,
    OutcomeAssertion,
    SavedAnswer,
    SavedCall,
    SnapshotAssertion,
    ToolExistsAssertion,
)
from inspector.collections.snapshots import snapshot_of
from inspector.protocol.asks import ask_kind
from inspector.protocol.config import META_VERSION
from inspector.recording.reader import RecordedSession
from inspector.recording.replay import RecordedCall, clean_params, extract_calls

__all__ = ["SessionConversion", "collection_from_session", "recorded_era"]

_HANDSHAKE: Final = frozenset({"initialize", "server/discover"})
_KIND_OF_METHOD: Final[dict[str, CallKind]] = {
    "tools/call": "tool",
    "resources/read": "resource",
    "prompts/get": "prompt",
    "completion/complete": "completion",
}


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
    collection = Collection(name=name or recorded.path.stem)
    conversion = SessionConversion(collection, recorded_era(recorded))
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
        kind = _KIND_OF_METHOD.get(call.method)
        if kind is None:
            skipped[call.method] = skipped.get(call.method, 0) + 1
            continue
        if call.cancelled or not call.answered:
            why = "cancelled" if call.cancelled else "never answered"
            conversion.notes.append(f"{call.label}: {why} in the recording; left out")
            continue
        made = _saved(call, kind, tuple(answers.get(call.index, ())))
        if made is None:
            conversion.notes.append(f"{call.label}: its params are not usable; left out")
            continue
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


def _saved(
    call: RecordedCall, kind: CallKind, answers: tuple[SavedAnswer, ...]
) -> SavedCall | None:
    params = clean_params(call.params) or {}
    params.pop("_meta", None)
    asserts: list[Assertion] = []
    if call.error is not None:
        code = call.error.get("code")
        asserts.append(OutcomeAssertion("error", code if isinstance(code, int) else None))
    else:
        result = call.result or {}
        asserts.append(OutcomeAssertion("isError" if result.get("isError") is True else "ok"))
        asserts.append(SnapshotAssertion(snapshot_of(result)))
    fields: dict[str, Any] = {"answers": answers, "assertions": tuple(asserts)}
    if kind == "tool":
        if not isinstance(params.get("name"), str):
            return None
        arguments = params.get("arguments")
        fields.update(
            tool=params["name"], arguments=arguments if isinstance(arguments, dict) else {}
        )
        label = params["name"]
    elif kind == "resource":
        if not isinstance(params.get("uri"), str):
            return None
        fields["uri"] = params["uri"]
        label = f"read {params['uri']}"
    elif kind == "prompt":
        if not isinstance(params.get("name"), str):
            return None
        fields["prompt"] = params["name"]
        if isinstance(params.get("arguments"), dict):
            fields["arguments"] = params["arguments"]
        label = f"prompt {params['name']}"
    else:
        ref, argument = params.get("ref"), params.get("argument")
        if not isinstance(ref, dict) or not isinstance(argument, dict):
            return None
        if ref.get("type") not in ("ref/prompt", "ref/resource"):
            return None
        if not isinstance(argument.get("name"), str) or not isinstance(argument.get("value"), str):
            return None
        fields.update(ref=ref, argument=argument)
        context = params.get("context")
        if isinstance(context, dict):
            fields["context"] = context
        label = f"complete {ref.get('name') or ref.get('uri')} {argument['name']}"
    return SavedCall(label, kind, **fields)
