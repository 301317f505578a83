"""From what the user saw to a saved call: a `CallDraft` (a workspace view's call, or a
traffic log row and its answer) and the assertions picked in the dialog become a
`SavedCall` of the collection model. Qt-free.

Secrets stay out of the file: a top-level argument whose name or schema marks it secret
is written as `${env:NAME}` (resolved from the environment when the call runs).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Final

from inspector.collections.answers import answers_during
from inspector.collections.call_draft import CallDraft
from inspector.collections.collection import (
    Assertion,
    SavedAnswer,
    SavedCall,
)
from inspector.collections.saving import KIND_OF_METHOD, saved_call_for
from inspector.features.forms.secret_fields import DEFAULT_SECRET_NAMES, secret_reason
from inspector.traffic.log import TrafficEntry, TrafficLog
from inspector.traffic.rounds import RequestRounds

__all__ = [
    "SAVABLE_METHODS",
    "DraftError",
    "draft_from_entry",
    "saved_call",
    "secret_arguments",
    "suggested_pointer",
    "with_answer",
]

SAVABLE_METHODS: Final = frozenset(KIND_OF_METHOD)
# What the client adds to a request for itself, never part of the call the user made.
_CLIENT_PARAMS: Final = ("_meta", "inputResponses", "requestState", "task")
_ENV_NAME: Final = re.compile(r"[^A-Za-z0-9]+")
_SCAN: Final = 20_000


class DraftError(ValueError):
    """A row or a draft that cannot become a saved call; the message says why."""


# ---------------------------------------------------------------- log rows
def _object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _request_of(log: TrafficLog, entry: TrafficEntry) -> TrafficEntry | None:
    if entry.kind == "request":
        return entry
    if entry.kind in ("response", "error"):
        pair = log.pair_of(entry)
        return pair if pair is not None and pair.kind == "request" else None
    return None


def draft_from_entry(
    log: TrafficLog, entry: TrafficEntry, rounds: RequestRounds | None = None
) -> CallDraft:
    """The call of a request row (or of the request a response row answers), with its
    answer when the log has it and the answers given to the server's asks meanwhile. A row
    of an MRTR conversation (`rounds`) stands for the whole: the first request, the final
    answer. Raises DraftError for any other row."""
    request = _request_of(log, entry)
    if request is None or request.direction != "out":
        raise DraftError("only a request this client sent (or its answer) can be saved")
    conversation = rounds.conversation(request.index) if rounds is not None else []
    sent = [i for i in conversation if log.entries[i].kind == "request"]
    if sent:
        request = log.entries[sent[0]]
    message = _object(request.text())
    method = message.get("method") if message is not None else None
    if message is None or method not in SAVABLE_METHODS:
        raise DraftError(
            f"{method or 'this request'} cannot be saved: only tools/call, resources/read, "
            "prompts/get and completion/complete can"
        )
    params = message.get("params")
    if not isinstance(params, dict):
        raise DraftError(f"the {method} request has no params object")
    params = {k: v for k, v in params.items() if k not in _CLIENT_PARAMS}
    answer = log.pair_of(log.entries[sent[-1]] if sent else request)
    result: dict[str, Any] | None = None
    code: int | None = None
    error_message = ""
    latency: float | None = None
    if answer is not None:
        latency = (answer.mono - request.mono) * 1000
        body = _object(answer.text()) or {}
        if isinstance(body.get("result"), dict):
            result = body["result"]
        error = body.get("error")
        if isinstance(error, dict) and isinstance(error.get("code"), int):
            code = error["code"]
            error_message = str(error.get("message", ""))
    answers = _answers(log, request, answer)
    return CallDraft(
        str(method),
        params,
        result=result,
        error_code=code,
        error_message=error_message,
        latency_ms=latency,
        answers=answers,
    )


def _answers(
    log: TrafficLog, request: TrafficEntry, answer: TrafficEntry | None
) -> tuple[SavedAnswer, ...]:
    """What the client answered to the server's asks during the call (all its rounds):
    read from the rows between its first request and its final answer only, so a save
    in a long session never reads the whole log."""
    wire_id = request.msg_id
    if isinstance(wire_id, bool) or not isinstance(wire_id, str | int):
        return ()
    stop = answer.index + 1 if answer is not None else min(len(log), request.index + _SCAN)
    rows = (log.entries[i] for i in range(request.index, stop))
    return tuple(
        replace(a, params={k: v for k, v in a.params.items() if k != "_meta"})  # run-specific
        for a in answers_during(rows, wire_id)
    )


def with_answer(
    log: TrafficLog,
    draft: CallDraft,
    rounds: RequestRounds | None = None,
    *,
    scan: int = _SCAN,
) -> CallDraft:
    """The latest identical request of the log, answered, when there is one (the call the
    view just made, the completion the form's completer just sent): with its answer and
    the answers given to the server's asks. Else `draft` as it is. Looks at the last
    `scan` rows only: a long session never stalls the dialog."""
    entries = log.entries
    stop = max(0, len(entries) - scan)
    for index in range(len(entries) - 1, stop - 1, -1):
        entry = entries[index]
        if entry.kind != "request" or entry.direction != "out" or entry.method != draft.method:
            continue
        try:
            found = draft_from_entry(log, entry, rounds)
        except DraftError:
            continue
        if found.params == draft.params and found.outcome is not None:
            return found
    return draft


# ---------------------------------------------------------------- the saved call
def secret_arguments(
    arguments: dict[str, Any], schema: dict[str, Any] | None, names: Iterable[str]
) -> dict[str, str]:
    """argument name -> the `${env:NAME}` written for it, for top-level secret fields."""
    names = tuple(names)
    props = schema.get("properties") if isinstance(schema, dict) else None
    out: dict[str, str] = {}
    for key, value in arguments.items():
        sub = props.get(key) if isinstance(props, dict) else None
        if value in (None, "") or not isinstance(value, str):
            continue
        if secret_reason(key, sub if isinstance(sub, dict) else None, names) is not None:
            out[key] = "${env:" + _ENV_NAME.sub("_", key).strip("_").upper() + "}"
    return out


def saved_call(
    draft: CallDraft,
    name: str,
    assertions: tuple[Assertion, ...] = (),
    *,
    schema: dict[str, Any] | None = None,
    secret_names: Iterable[str] = DEFAULT_SECRET_NAMES,
) -> SavedCall:
    """The saved call of `draft` under `name` (through the collection model's
    `saved_call_for`), with the assertions picked (`assertion_rows.build_assertions`), its
    secret arguments as `${env:NAME}`.
    Raises DraftError when the draft cannot be saved as it is."""
    name = name.strip()
    if not name:
        raise DraftError("the call needs a name")
    params = dict(draft.params)
    arguments = params.get("arguments")
    if draft.method in ("tools/call", "prompts/get") and isinstance(arguments, dict):
        params["arguments"] = {**arguments, **secret_arguments(arguments, schema, secret_names)}
    try:
        call = saved_call_for(
            draft.method, params, name=name, snapshot=False, answers=draft.answers
        )
    except ValueError as exc:
        raise DraftError(str(exc)) from exc
    return call.with_assertions(assertions)


def suggested_pointer(result: dict[str, Any] | None) -> tuple[str, Any] | None:
    """A pointer worth asserting on, and its current value: the first text content, else
    the first structuredContent member, else the first key of the result."""
    if not isinstance(result, dict):
        return None
    for list_key in ("content", "contents", "messages"):
        items = result.get(list_key)
        if isinstance(items, list) and items and isinstance(items[0], dict):
            first = items[0]
            if isinstance(first.get("text"), str):
                return f"/{list_key}/0/text", first["text"]
            inner = first.get("content")
            if isinstance(inner, dict) and isinstance(inner.get("text"), str):
                return f"/{list_key}/0/content/text", inner["text"]
    structured = result.get("structuredContent")
    if isinstance(structured, dict) and structured:
        key = next(iter(structured))
        return f"/structuredContent/{_escape(key)}", structured[key]
    completion = result.get("completion")
    if isinstance(completion, dict) and "values" in completion:
        return "/completion/values", completion["values"]
    return None


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")
