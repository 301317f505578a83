"""Tool calls in flight and their results, Qt-free.

A `ToolCallRecord` follows one tools/call: progress notifications (with their message),
the outcome (a result, a tool error with `isError: true`, a JSON-RPC error with its code,
a cancellation, a timeout, a lost connection) and what the result says when checked:
structuredContent validated against the tool's outputSchema, and compared with the
serialized JSON the spec asks servers to put in a text block as well. The call card in the
GUI listens to the record; the record outlives the card (a call keeps running when its view
is closed).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.features.content_blocks import JSON_PREVIEW_LIMIT
from inspector.features.forms.fields import FieldError, validate_values
from inspector.protocol.machine.events import ProgressUpdate
from inspector.protocol.wire.jsonrpc import error_name
from inspector.session import (
    Call,
    ConnectionClosed,
    NotSentAgain,
    RequestCancelled,
    RequestTimeout,
    ServerError,
    SessionError,
)

__all__ = [
    "CallStatus",
    "ResultCheck",
    "ToolCallRecord",
    "check_result",
    "follow_call",
]

log = logging.getLogger(__name__)

CallStatus: TypeAlias = Literal[
    "running", "ok", "tool_error", "rpc_error", "cancelled", "timeout", "failed"
]
_ids = itertools.count(1)


@dataclass
class ResultCheck:
    """What a tools/call result holds, and what is wrong with it."""

    content: list[Any]
    structured: Any  # structuredContent, or None
    has_structured: bool
    is_error: bool
    structured_errors: list[FieldError] = field(default_factory=list)
    schema_problem: str | None = None  # the outputSchema itself could not be used
    content_match: str | None = None  # how structuredContent compares with the text JSON
    content_match_ok: bool = True
    problems: list[str] = field(default_factory=list)  # about the result's shape

    @property
    def validated(self) -> bool:
        return self.has_structured and self.schema_problem is None


def check_result(result: Any, output_schema: Any = None) -> ResultCheck:
    if not isinstance(result, dict):
        return ResultCheck([], None, False, False, problems=["the result is not an object"])
    problems: list[str] = []
    content = result.get("content")
    if content is None:
        problems.append("the result has no 'content' (the spec requires it)")
        content = []
    elif not isinstance(content, list):
        problems.append(f"'content' is a {type(content).__name__}, not a list")
        content = [content]
    is_error = result.get("isError") is True
    if "isError" in result and not isinstance(result["isError"], bool):
        problems.append("'isError' is not a boolean")
    has_structured = "structuredContent" in result
    structured = result.get("structuredContent")
    check = ResultCheck(content, structured, has_structured, is_error, problems=problems)
    if has_structured and not isinstance(structured, dict):
        problems.append(f"structuredContent is a {type(structured).__name__}, not an object")
    if isinstance(output_schema, dict) and not is_error:
        if not has_structured:
            check.structured_errors.append(
                FieldError((), "the tool declares an outputSchema but sent no structuredContent")
            )
        else:
            report = validate_values(output_schema, structured)
            check.structured_errors.extend(report.errors)
            check.schema_problem = report.schema_problem
    if has_structured:
        check.content_match, check.content_match_ok = _compare_with_text(content, structured)
    return check


def _compare_with_text(content: list[Any], structured: Any) -> tuple[str, bool]:
    """spec 2025-06-18 tools: a tool returning structured content SHOULD also return the
    serialized JSON in a TextContent block."""
    parsed_any = False
    first_difference = ""
    for index, block in enumerate(content):
        if not (isinstance(block, dict) and block.get("type") == "text"):
            continue
        text = block.get("text")
        if not isinstance(text, str) or len(text) > JSON_PREVIEW_LIMIT:
            continue  # a huge text is not parsed on the GUI thread
        if text.lstrip()[:1] not in ("{", "["):
            continue
        try:
            value = json.loads(text)
        except ValueError:
            continue
        parsed_any = True
        if value == structured:
            return f"matches the JSON in content[{index}]", True
        if not first_difference:
            first_difference = f"content[{index}] differs: {_first_difference(value, structured)}"
    if parsed_any:
        return (
            f"structuredContent differs from the JSON text in content ({first_difference})",
            False,
        )
    return "no text block carries structuredContent as JSON (the spec says it SHOULD)", False


def _first_difference(text_value: Any, structured: Any, path: str = "") -> str:
    where = path or "(top)"
    if isinstance(text_value, dict) and isinstance(structured, dict):
        for key in list(structured) + [k for k in text_value if k not in structured]:
            if key not in text_value:
                return f"{path}.{key} is only in structuredContent".lstrip(".")
            if key not in structured:
                return f"{path}.{key} is only in the text".lstrip(".")
            if text_value[key] != structured[key]:
                return _first_difference(text_value[key], structured[key], f"{path}.{key}")
    if isinstance(text_value, list) and isinstance(structured, list):
        if len(text_value) != len(structured):
            counts = f"{len(text_value)} items in the text, {len(structured)}"
            return f"{where}: {counts} in structuredContent"
        for i, (a, b) in enumerate(zip(text_value, structured, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
    in_text, in_structured = _short_json(text_value), _short_json(structured)
    return f"{where.lstrip('.')}: {in_text} in the text, {in_structured} in structuredContent"


def _short_json(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


Listener: TypeAlias = Callable[["ToolCallRecord"], None]


@dataclass
class ToolCallRecord:
    tool: str
    arguments: dict[str, Any]
    output_schema: Any = None
    started: float = field(default_factory=time.monotonic)
    started_wall: float = field(default_factory=time.time)
    serial: int = field(default_factory=lambda: next(_ids))
    status: CallStatus = "running"
    progress: float | None = None
    total: float | None = None
    progress_message: str | None = None
    progress_count: int = 0
    finished: float | None = None
    result: dict[str, Any] | None = None
    check: ResultCheck | None = None
    error_code: int | None = None
    error_message: str = ""
    error_data: Any = None
    validated_before_sending: bool = True  # False: sent with "Send anyway"
    note: str = ""  # e.g. "called although excluded", "run as a task"
    task_id: str | None = None  # the call created a task (run as task)
    # the server lost the session before answering; the call was not sent again (it may
    # have run): the user decides, and the card offers to run it again
    not_sent_again: bool = False
    call: Call | None = field(default=None, repr=False)
    _listeners: Listeners[[ToolCallRecord]] = field(
        default_factory=lambda: Listeners("tool call listener"), repr=False
    )

    # -- listeners -------------------------------------------------------------
    def on_change(self, listener: Listener) -> Unsubscribe:
        return self._listeners.add(listener)

    def _changed(self) -> None:
        self._listeners.emit(self)

    # -- state -------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.status == "running"

    def elapsed(self, now: float | None = None) -> float:
        end = self.finished if self.finished is not None else (now or time.monotonic())
        return max(0.0, end - self.started)

    @property
    def fraction(self) -> float | None:
        """Progress as 0..1 when the server sent a total."""
        if self.progress is None or not self.total:
            return None
        return max(0.0, min(1.0, self.progress / self.total))

    @property
    def error_title(self) -> str:
        if self.error_code is None:
            return self.error_message
        return f"JSON-RPC error {self.error_code} ({error_name(self.error_code)})"

    def on_progress(self, update: ProgressUpdate) -> None:
        self.progress = update.progress
        self.total = update.total
        if update.message is not None:
            self.progress_message = update.message
        self.progress_count += 1
        self._changed()

    def cancel(self) -> None:
        if self.call is not None and self.running:
            self.call.cancel("cancelled by the user")

    def finish(self, result: dict[str, Any]) -> None:
        self.result = result
        self.check = check_result(result, self.output_schema)
        self.status = "tool_error" if self.check.is_error else "ok"
        self._end()

    def finish_as_task(self, result: dict[str, Any], task_id: str) -> None:
        """The server created a task instead of answering: the Tasks panel follows it."""
        self.result = result
        self.task_id = task_id
        self.status = "ok"
        self._end()

    def fail(self, exc: SessionError) -> None:
        if isinstance(exc, ServerError):
            self.status = "rpc_error"
            self.error_code = exc.code
            self.error_data = exc.data
            error = exc.failure.error
            self.error_message = error.message if error is not None else str(exc)
        elif isinstance(exc, RequestCancelled):
            self.status = "cancelled"
            self.error_message = str(exc)
        elif isinstance(exc, RequestTimeout):
            self.status = "timeout"
            self.error_message = str(exc)
        else:
            self.status = "failed"
            self.not_sent_again = isinstance(exc, NotSentAgain)
            closed = isinstance(exc, ConnectionClosed) and not self.not_sent_again
            prefix = "the connection closed: " if closed else ""
            self.error_message = f"{prefix}{exc}"
        self._end()

    def _end(self) -> None:
        self.finished = time.monotonic()
        self.call = None
        self._changed()


async def follow_call(
    record: ToolCallRecord,
    call: Call,
    adopt_task: Callable[[dict[str, Any]], str | None] | None = None,
) -> None:
    """Wait for the call's outcome and put it in the record (never raises a SessionError).
    `adopt_task` takes a result that created a task and returns the task id."""
    record.call = call
    try:
        result = await call.result()
    except SessionError as exc:
        record.fail(exc)
        return
    except asyncio.CancelledError:
        if record.running:
            record.status = "cancelled"
            record.error_message = "stopped (the app or the view closed)"
            record._end()
        raise
    task_id = adopt_task(result) if adopt_task is not None else None
    if task_id is not None:
        record.finish_as_task(result, task_id)
    else:
        record.finish(result)
