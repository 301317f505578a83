"""Replay a recorded session against a server and diff every answer semantically.

The client's requests are re-sent in order with the same parameters (our own `_meta`
stamps and MRTR fields are stripped: the live session adds fresh ones and runs MRTR
itself). The server's sampling, elicitation and roots asks are answered with the answers
recorded for them, matched by method and content, in order. Each new answer is compared
with the recorded one; the handshake result (capabilities, serverInfo) is compared too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from inspector.features.output_schema import output_schema_violation
from inspector.protocol.machine.asks import ServerAsk, ask_kind
from inspector.protocol.wire.errors import PaginationError
from inspector.recording.diff import Change, IgnoreRules, diff_json
from inspector.recording.reader import RecordedSession
from inspector.session import AskRejected, RequestError, RequestNotAllowed, ServerError, Session

__all__ = [
    "CallOutcome",
    "RecordedAnswer",
    "RecordedCall",
    "ReplayReport",
    "ReplayResponder",
    "extract_answers",
    "extract_calls",
    "replay",
]

_HANDSHAKE = frozenset({"initialize", "server/discover"})
_OUR_META = frozenset(
    {
        "io.modelcontextprotocol/protocolVersion",
        "io.modelcontextprotocol/clientInfo",
        "io.modelcontextprotocol/clientCapabilities",
        "io.modelcontextprotocol/logLevel",
        "progressToken",
    }
)

Status = Literal[
    "same", "drift", "now-fails", "newly-succeeds", "skipped", "error-changed", "breaks-schema"
]


@dataclass
class RecordedCall:
    index: int
    method: str
    params: dict[str, Any] | None
    wire_id: Any
    progress: bool = False
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    cancelled: bool = False

    @property
    def answered(self) -> bool:
        return self.result is not None or self.error is not None

    @property
    def label(self) -> str:
        params = self.params or {}
        name = params.get("name") or params.get("uri")
        return f"#{self.index} {self.method}" + (f" {name}" if isinstance(name, str) else "")


@dataclass
class RecordedAnswer:
    method: str
    params: dict[str, Any]
    result: dict[str, Any] | None = None
    rejection: str | None = None
    used: bool = False


@dataclass
class CallOutcome:
    call: RecordedCall
    status: Status
    changes: list[Change] = field(default_factory=list)
    message: str | None = None
    new_result: dict[str, Any] | None = None
    new_error: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.call.index,
            "method": self.call.method,
            "params": self.call.params,
            "status": self.status,
            "message": self.message,
            "changes": [c.to_dict() for c in self.changes],
        }


@dataclass
class ReplayReport:
    handshake_changes: list[Change] = field(default_factory=list)
    outcomes: list[CallOutcome] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    answers_used: int = 0
    answers_missing: int = 0

    @property
    def drifted(self) -> bool:
        return bool(self.handshake_changes) or any(
            o.status not in ("same", "skipped") for o in self.outcomes
        )

    @property
    def verdict(self) -> str:
        """The report's last line: DRIFT, no drift, or no drift but a broken schema."""
        broken = any(o.status == "breaks-schema" for o in self.outcomes)
        drift = any(o.status not in ("same", "skipped", "breaks-schema") for o in self.outcomes)
        if self.handshake_changes or drift:
            return "DRIFT"
        return "no drift, but a result breaks its schema" if broken else "no drift"

    def to_dict(self) -> dict[str, Any]:
        return {
            "drifted": self.drifted,
            "handshake_changes": [c.to_dict() for c in self.handshake_changes],
            "calls": [o.to_dict() for o in self.outcomes],
            "problems": self.problems,
            "answers_used": self.answers_used,
            "answers_missing": self.answers_missing,
        }

    def summary(self) -> str:
        lines: list[str] = []
        same = sum(o.status == "same" for o in self.outcomes)
        drift = [o for o in self.outcomes if o.status not in ("same", "skipped")]
        broken = sum(o.status == "breaks-schema" for o in self.outcomes)
        skipped = sum(o.status == "skipped" for o in self.outcomes)
        lines.append(
            f"replayed {len(self.outcomes)} request(s): {same} same, "
            f"{len(drift) - broken} drifted, "
            + (f"{broken} breaking their tool's outputSchema, " if broken else "")
            + f"{skipped} skipped; {self.answers_used} recorded answer(s) reused"
        )
        if self.handshake_changes:
            lines.append("handshake (capabilities / serverInfo) drifted:")
            lines.extend(f"  {c.describe()}" for c in self.handshake_changes)
        for outcome in drift:
            lines.append(f"{outcome.call.label}: {outcome.status}")
            if outcome.message:
                lines.append(f"  {outcome.message}")
            lines.extend(f"  {c.describe()}" for c in outcome.changes[:50])
            if len(outcome.changes) > 50:
                lines.append(f"  … and {len(outcome.changes) - 50} more change(s)")
        for problem in self.problems:
            lines.append(f"note: {problem}")
        lines.append(self.verdict)
        return "\n".join(lines)


def _json(raw: str | bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, TypeError):
        return None


def clean_params(params: Any) -> dict[str, Any] | None:
    """Strip what the live session stamps itself (our _meta keys, MRTR fields)."""
    if not isinstance(params, dict):
        return None
    cleaned = {k: v for k, v in params.items() if k not in ("inputResponses", "requestState")}
    meta = cleaned.get("_meta")
    if isinstance(meta, dict):
        rest = {k: v for k, v in meta.items() if k not in _OUR_META}
        if rest:
            cleaned["_meta"] = rest
        else:
            del cleaned["_meta"]
    return cleaned


def _is_mrtr_retry(params: Any) -> bool:
    return isinstance(params, dict) and ("inputResponses" in params or "requestState" in params)


def extract_calls(recorded: RecordedSession) -> list[RecordedCall]:
    calls: list[RecordedCall] = []
    by_id: dict[Any, RecordedCall] = {}
    awaiting_retry: dict[tuple[str, Any], RecordedCall] = {}
    for event in recorded.frames():
        msg = _json(event.raw)
        if not isinstance(msg, dict):
            continue
        if event.direction == "out" and "method" in msg:
            method, params = msg["method"], msg.get("params")
            if "id" not in msg:
                if method == "notifications/cancelled" and isinstance(params, dict):
                    target = by_id.get(params.get("requestId"))
                    if target is not None and not target.answered:
                        target.cancelled = True
                continue
            if method in _HANDSHAKE:
                continue
            name = params.get("name") if isinstance(params, dict) else None
            if _is_mrtr_retry(params) and (method, name) in awaiting_retry:
                by_id[msg["id"]] = awaiting_retry.pop((method, name))
                continue
            meta = params.get("_meta") if isinstance(params, dict) else None
            call = RecordedCall(
                index=len(calls) + 1,
                method=str(method),
                params=clean_params(params),
                wire_id=msg["id"],
                progress=isinstance(meta, dict) and "progressToken" in meta,
            )
            calls.append(call)
            by_id[msg["id"]] = call
        elif event.direction == "in" and "method" not in msg and "id" in msg:
            found = by_id.get(msg["id"])
            if found is None:
                continue
            if isinstance(msg.get("result"), dict):
                result = msg["result"]
                if result.get("resultType") == "input_required":
                    name = (found.params or {}).get("name")
                    awaiting_retry[(found.method, name)] = found
                    continue
                found.result = result
            elif isinstance(msg.get("error"), dict):
                found.error = msg["error"]
    return calls


def extract_answers(recorded: RecordedSession) -> list[RecordedAnswer]:
    """The answers given to the server's asks: legacy server requests and our responses,
    and modern inputRequests with the inputResponses of the retry."""
    answers: list[RecordedAnswer] = []
    legacy_asks: dict[Any, RecordedAnswer] = {}
    modern_asks: dict[str, RecordedAnswer] = {}
    for event in recorded.frames():
        msg = _json(event.raw)
        if not isinstance(msg, dict):
            continue
        if event.direction == "in" and isinstance(msg.get("method"), str) and "id" in msg:
            if ask_kind(msg["method"]) is not None:
                params = msg.get("params")
                answer = RecordedAnswer(msg["method"], params if isinstance(params, dict) else {})
                legacy_asks[msg["id"]] = answer
        elif event.direction == "out" and "method" not in msg and msg.get("id") in legacy_asks:
            answer = legacy_asks.pop(msg["id"])
            if isinstance(msg.get("result"), dict):
                answer.result = msg["result"]
            else:
                error = msg["error"] if isinstance(msg.get("error"), dict) else {}
                answer.rejection = str(error.get("message", "rejected"))
            answers.append(answer)
        elif event.direction == "in" and isinstance(msg.get("result"), dict):
            requests = msg["result"].get("inputRequests")
            if msg["result"].get("resultType") == "input_required" and isinstance(requests, dict):
                for key, entry in requests.items():
                    if isinstance(entry, dict) and isinstance(entry.get("method"), str):
                        params = entry.get("params")
                        modern_asks[str(key)] = RecordedAnswer(
                            entry["method"], params if isinstance(params, dict) else {}
                        )
        elif event.direction == "out" and isinstance(msg.get("params"), dict):
            responses = msg["params"].get("inputResponses")
            if isinstance(responses, dict):
                for key, value in responses.items():
                    asked = modern_asks.pop(str(key), None)
                    if asked is not None and isinstance(value, dict):
                        asked.result = value
                        answers.append(asked)
    return answers


class ReplayResponder:
    """Answers asks with recorded answers: same method and same params first, then the next
    unused answer for that method, in order."""

    def __init__(self, answers: list[RecordedAnswer]) -> None:
        self.answers = answers
        self.used = 0
        self.missing = 0
        self.missing_asks: list[ServerAsk] = []

    async def respond(self, ask: ServerAsk) -> dict[str, Any]:
        candidates = [a for a in self.answers if not a.used and a.method == ask.method]
        exact = [a for a in candidates if clean_params(a.params) == clean_params(ask.params)]
        pool = exact or candidates
        chosen = pool[0] if pool else None
        if chosen is None:
            self.missing += 1
            self.missing_asks.append(ask)
            if ask.kind == "roots":
                return {"roots": []}
            raise AskRejected(f"no recorded answer for this {ask.method} request")
        chosen.used = True
        self.used += 1
        if chosen.rejection is not None:
            raise AskRejected(chosen.rejection)
        assert chosen.result is not None
        return dict(chosen.result)


def _error_dict(exc: RequestError | RequestNotAllowed) -> dict[str, Any]:
    if isinstance(exc, ServerError) and exc.failure.error is not None:
        err = exc.failure.error
        out: dict[str, Any] = {"code": err.code, "message": err.message}
        if err.data is not None:
            out["data"] = err.data
        return out
    return {"code": None, "message": str(exc)}


async def replay(
    recorded: RecordedSession,
    session: Session,
    *,
    ignore: IgnoreRules | None = None,
    on_progress: Callable[[int, int, CallOutcome], None] | None = None,
) -> ReplayReport:
    """Replay `recorded` on a connected `session` (whose responder should be a
    ReplayResponder built from the same recording)."""
    rules = ignore or IgnoreRules()
    report = ReplayReport()
    ready = recorded.ready
    if ready is not None and session.ready_info is not None:
        old = {"capabilities": ready.get("capabilities"), "serverInfo": ready.get("server_info")}
        new = {
            "capabilities": session.ready_info.capabilities,
            "serverInfo": session.ready_info.server_info,
        }
        report.handshake_changes = diff_json(old, new, rules)
    calls = extract_calls(recorded)
    for i, call in enumerate(calls, start=1):
        outcome = await _replay_one(session, call, rules)
        name = (call.params or {}).get("name")
        if call.method == "tools/call" and isinstance(name, str) and outcome.new_result:
            await _check_output_schema(session, name, outcome)
        report.outcomes.append(outcome)
        if on_progress is not None:
            on_progress(i, len(calls), outcome)
    responder = session.responder
    if isinstance(responder, ReplayResponder):
        report.answers_used = responder.used
        report.answers_missing = responder.missing
        if responder.missing:
            report.problems.append(
                f"{responder.missing} ask(s) from the server had no recorded answer "
                "(rejected; roots answered empty)"
            )
    return report


async def _replay_one(session: Session, call: RecordedCall, rules: IgnoreRules) -> CallOutcome:
    if call.cancelled:
        return CallOutcome(call, "skipped", message="cancelled in the recording; not re-sent")
    if not call.answered:
        return CallOutcome(call, "skipped", message="never answered in the recording")
    try:
        name = (call.params or {}).get("name")
        if call.method == "tools/call" and isinstance(name, str):
            await session.client.learn_tool(name)  # modern HTTP: its Mcp-Param-* headers
        result = await session.request(
            call.method,
            call.params,
            on_progress=(lambda _u: None) if call.progress else None,
            override=True,
        )
    except (RequestError, RequestNotAllowed) as exc:
        # RequestNotAllowed: the protocol core refused to send it to this server (e.g. a
        # method its negotiated version lacks); for the user, the request now fails.
        new_error = _error_dict(exc)
        if call.error is not None:
            old = {"code": call.error.get("code"), "message": call.error.get("message")}
            new = {"code": new_error.get("code"), "message": new_error.get("message")}
            changes = diff_json(old, new, rules)
            status: Status = "error-changed" if changes else "same"
            return CallOutcome(call, status, changes, new_error=new_error)
        return CallOutcome(call, "now-fails", message=f"now fails: {exc}", new_error=new_error)
    if call.error is not None:
        return CallOutcome(
            call,
            "newly-succeeds",
            message=f"failed in the recording ({call.error.get('code')} "
            f"{call.error.get('message')}), succeeds now",
            new_result=result,
        )
    changes = diff_json(call.result, result, rules)
    # A tool result's isError is the tool's own success or failure: report the flip as a
    # whole request that now fails or newly succeeds, with the changes under it.
    was_error = (call.result or {}).get("isError") is True
    is_error = result.get("isError") is True
    if was_error != is_error and call.method == "tools/call":
        flip: Status = "now-fails" if is_error else "newly-succeeds"
        message = (
            "the tool now returns isError: true"
            if is_error
            else "the tool returned isError: true in the recording, succeeds now"
        )
        return CallOutcome(call, flip, changes, message=message, new_result=result)
    return CallOutcome(call, "drift" if changes else "same", changes, new_result=result)


async def _check_output_schema(session: Session, name: str, outcome: CallOutcome) -> None:
    """As the SDK clients do: the result against the tool's outputSchema (the tools listed
    first, every page, when the replay has not listed them). A result that breaks it is
    "breaks-schema" where it would be "same", and said in the message otherwise."""
    try:
        tool = await session.client.tool_definition(name)
    except (RequestError, RequestNotAllowed, PaginationError) as exc:
        outcome.message = f"structuredContent not checked: tools/list failed: {exc}"
        return
    violation = output_schema_violation(tool, outcome.new_result)
    if violation is None:
        return
    if outcome.status == "same":
        outcome.status = "breaks-schema"
    outcome.message = "; ".join(m for m in (outcome.message, violation) if m)
