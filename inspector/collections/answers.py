"""The answers a client gave to the server's asks during each of its requests, read from
frames (a session file's, or the live traffic log's: anything with `.direction` and
`.raw`). A legacy ask (a server request) belongs to the latest request still waiting when
it came; a modern one (an `input_required` result) to the request it answered, whose
retries carry the `inputResponses`."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, Protocol

from inspector.collections.collection import SavedAnswer
from inspector.protocol.machine.asks import ask_kind

__all__ = ["Frame", "answers_by_request", "answers_during"]

_HANDSHAKE: Final = frozenset({"initialize", "server/discover"})

WireId = str | int


class Frame(Protocol):
    @property
    def direction(self) -> str: ...

    @property
    def raw(self) -> str | bytes: ...


@dataclass
class _Request:
    key: WireId  # the wire id of its first round
    method: str
    name: Any


def _json(raw: str | bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, TypeError, RecursionError):
        return None


def _wire_id(msg: dict[str, Any]) -> WireId | None:
    value = msg.get("id")
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None  # absent, null, or not an id a request could carry
    return value


def answers_by_request(frames: Iterable[Frame]) -> dict[WireId, list[SavedAnswer]]:
    """Answers per request, keyed by the wire id of the request's first round."""
    out: dict[WireId, list[SavedAnswer]] = {}
    by_id: dict[WireId, _Request] = {}
    waiting: list[_Request] = []
    retrying: dict[tuple[str, Any], _Request] = {}
    legacy: dict[WireId, tuple[_Request, str, dict[str, Any]]] = {}
    modern: dict[str, tuple[_Request, str, dict[str, Any]]] = {}
    for frame in frames:
        msg = _json(frame.raw)
        if not isinstance(msg, dict):
            continue
        method, wire = msg.get("method"), _wire_id(msg)
        raw_params = msg.get("params")
        params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
        if frame.direction == "out" and isinstance(method, str) and wire is not None:
            if method in _HANDSHAKE:
                continue
            responses = params.get("inputResponses")
            for key, value in responses.items() if isinstance(responses, dict) else ():
                asked = modern.pop(str(key), None)
                if asked is not None and isinstance(value, dict):
                    out.setdefault(asked[0].key, []).append(SavedAnswer(asked[1], asked[2], value))
            retry = retrying.pop((method, params.get("name")), None)
            if retry is not None and ("inputResponses" in params or "requestState" in params):
                by_id[wire] = retry
                continue
            request = _Request(wire, method, params.get("name"))
            by_id[wire] = request
            waiting.append(request)
        elif frame.direction == "in" and isinstance(method, str) and wire is not None:
            if ask_kind(method) is not None and waiting:
                legacy[wire] = (waiting[-1], method, params)
        elif frame.direction == "out" and method is None and wire in legacy:
            request, ask_method, ask_params = legacy.pop(wire)
            if isinstance(msg.get("result"), dict):
                answer = SavedAnswer(ask_method, ask_params, msg["result"])
            else:
                error = msg.get("error")
                why = error.get("message", "rejected") if isinstance(error, dict) else "rejected"
                answer = SavedAnswer(ask_method, ask_params, reject=str(why))
            out.setdefault(request.key, []).append(answer)
        elif frame.direction == "in" and method is None and wire in by_id:
            request = by_id[wire]
            result = msg.get("result")
            if isinstance(result, dict) and result.get("resultType") == "input_required":
                retrying[(request.method, request.name)] = request
                asks = result.get("inputRequests")
                for key, entry in asks.items() if isinstance(asks, dict) else ():
                    if isinstance(entry, dict) and isinstance(entry.get("method"), str):
                        entry_params = entry.get("params")
                        modern[str(key)] = (
                            request,
                            entry["method"],
                            entry_params if isinstance(entry_params, dict) else {},
                        )
                continue
            if request in waiting:
                waiting.remove(request)
    return out


def answers_during(frames: Iterable[Frame], request_id: WireId) -> tuple[SavedAnswer, ...]:
    """The answers given during the request whose first round had `request_id` (e.g.
    "Save call" from a row of the traffic log)."""
    return tuple(answers_by_request(frames).get(request_id, ()))
