"""Running saved calls over a connected session: one call, or a whole collection."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from inspector.collections.checks import judge_call
from inspector.collections.collection import (
    Collection,
    OutputSchemaAssertion,
    SavedAnswer,
    SavedCall,
)
from inspector.collections.env_refs import UnsetVariable, resolve_env
from inspector.collections.results import AssertionResult, CallResult, Outcome, RunReport
from inspector.core.server_connection import (
    Call,
    RequestCancelled,
    RequestError,
    RequestNotAllowed,
    RequestTimeout,
    ServerConnection,
    ServerError,
)
from inspector.features.output_schema import output_schema_violation
from inspector.protocol.machine.events import NotificationReceived
from inspector.protocol.wire.errors import PaginationError
from inspector.recording.replay import RecordedAnswer, ReplayResponder

__all__ = ["CollectionRunner", "run_collection"]

_LIST_CHANGED = "notifications/tools/list_changed"
_GRACE = 5.0  # seconds past a call's own timeout before the runner gives up on it


class CollectionRunner:
    """Runs saved calls on `session` (connected, in either era). The tool list (for
    catalog entries and outputSchema) is fetched when first needed, unless `tools` gives
    it, and fetched again after a tool call or a tools/list_changed; `forget_tools()`
    drops it.

    `stop(reason)` ends a run: the request in flight is cancelled the way a tool card's
    Cancel does it (`Call.cancel`: notifications/cancelled, or closing the response stream
    over streamable HTTP), its call ends "cancelled", and no further call is sent. The
    session stays connected. Cancelling the task of a run also cancels the request in
    flight (and then raises CancelledError as usual)."""

    def __init__(
        self,
        session: ServerConnection,
        *,
        timeout: float = 30.0,
        env: Mapping[str, str] | None = None,
        tools: Sequence[dict[str, Any]] | None = None,
    ) -> None:
        self.session = session
        self.timeout = timeout
        self.env: Mapping[str, str] = os.environ if env is None else env
        self._tools: dict[str, dict[str, Any]] | None = None
        self._tools_error: Outcome | None = None
        self._in_flight: Call | None = None
        self.stopped: str | None = None  # why the run was stopped (None: it was not)
        if tools is not None:
            self._tools = _by_name(tools)

    def stop(self, reason: str = "run stopped by the user") -> None:
        """Stop the run: cancel the request in flight (its call ends "cancelled") and
        send no further call. Idempotent; the runner stays stopped."""
        if self.stopped is None:
            self.stopped = reason
        call = self._in_flight
        if call is not None:
            call.cancel(self.stopped)

    def forget_tools(self) -> None:
        self._tools, self._tools_error = None, None

    async def _tool_list(self, timeout: float) -> dict[str, dict[str, Any]] | Outcome:
        if self._tools is not None:
            return self._tools
        if self._tools_error is not None:
            return self._tools_error
        try:
            tools = await asyncio.wait_for(self.session.list_tools(), timeout + _GRACE)
        except (RequestError, RequestNotAllowed, TimeoutError) as exc:
            self._tools_error = _failure(exc, "tools/list")
            return self._tools_error
        self._tools = _by_name(tools)
        return self._tools

    def _heard(self, item: object) -> None:
        if isinstance(item, NotificationReceived):
            self.forget_tools()  # tools/list_changed: list again when next needed

    def _follow_list_changes(self) -> Callable[[], None]:
        return self.session.add_listener(self._heard, notifications=(_LIST_CHANGED,))

    async def run_call(self, call: SavedCall) -> CallResult:
        """Send the call, wait for its end, judge every assertion. Never raises for what
        the server does; a call that cannot be sent is `not-run` with why."""
        unsubscribe = self._follow_list_changes()
        try:
            return await self._run_call(call)
        finally:
            unsubscribe()

    async def _run_call(self, call: SavedCall) -> CallResult:
        timeout = call.timeout_ms / 1000 if call.timeout_ms else self.timeout
        seen = CallResult(call, Outcome("ok"))
        if call.kind == "catalog" or any(
            isinstance(a, OutputSchemaAssertion) for a in call.assertions
        ):
            listed = await self._tool_list(timeout)
            if isinstance(listed, Outcome):
                seen.outcome = listed if call.kind == "catalog" else seen.outcome
                if call.kind != "catalog":
                    seen.notes.append(f"tools/list failed: {listed.describe()}")
            else:
                seen.tool = listed.get(call.target)
        if call.kind != "catalog":
            await self._send(call, timeout, seen)
            if call.kind == "tool":
                # A call may change the catalog; a modern server cannot say so (no
                # list_changed without a listen stream): list again when next needed.
                self.forget_tools()
        if seen.outcome.kind == "cancelled":
            return seen  # nothing to judge: the user gave up on it
        seen.assertions = judge_call(call, seen)
        if call.kind == "tool" and not any(
            isinstance(a, OutputSchemaAssertion) for a in call.assertions
        ):
            broken = await self._output_schema_kept(call, timeout, seen)
            if broken is not None:
                seen.assertions.append(broken)
        return seen

    async def _output_schema_kept(
        self, call: SavedCall, timeout: float, seen: CallResult
    ) -> AssertionResult | None:
        """As the SDK clients do, with or without an outputSchema assertion: a result
        whose structuredContent breaks the tool's outputSchema fails the call. The
        definition is the session's (listed now, every page, if no tools/list named it)."""
        if seen.result is None or seen.result.get("isError") is True:
            return None
        tool = seen.tool
        if tool is None:
            try:
                tool = await asyncio.wait_for(
                    self.session.tool_definition(call.target), timeout + _GRACE
                )
            except (RequestError, RequestNotAllowed, PaginationError, TimeoutError) as exc:
                seen.notes.append(f"structuredContent not checked: tools/list failed: {exc}")
                return None
        violation = output_schema_violation(tool, seen.result)
        return (
            None
            if violation is None
            else AssertionResult(OutputSchemaAssertion(), False, violation)
        )

    async def _send(self, call: SavedCall, timeout: float, seen: CallResult) -> None:
        try:
            params = resolve_env(call.params(), self.env)
        except UnsetVariable as exc:
            seen.outcome = Outcome("not-run", message=str(exc))
            return
        session = self.session
        responder = session.responder
        replayer = ReplayResponder([_recorded(a) for a in call.answers]) if call.answers else None
        if replayer is not None:
            session.responder = replayer
        try:
            if call.kind == "tool":
                await asyncio.wait_for(session.learn_tool(call.target), timeout + _GRACE)
            if self.stopped is not None:
                seen.outcome = Outcome("cancelled", message=self.stopped)
                return
            start = time.perf_counter()
            sent = session.start_request(call.method, params, timeout=timeout, override=True)
            self._in_flight = sent
            try:
                seen.result = await asyncio.wait_for(sent.result(), timeout + _GRACE)
            except BaseException:
                # Stopped, the task cancelled, or no end in time: the server must hear
                # that nobody waits for this request any more.
                sent.cancel(self.stopped or "the collection run stopped waiting")
                raise
            finally:
                self._in_flight = None
                seen.ms = (time.perf_counter() - start) * 1000
            seen.outcome = Outcome("isError" if seen.result.get("isError") is True else "ok")
        except RequestCancelled as exc:
            seen.outcome = (
                Outcome("cancelled", message=self.stopped)
                if self.stopped is not None
                else _failure(exc, call.method)
            )
        except (RequestError, RequestNotAllowed, TimeoutError) as exc:
            seen.outcome = _failure(exc, call.method)
            if isinstance(exc, ServerError) and exc.failure.error is not None:
                err = exc.failure.error
                seen.error = {"code": err.code, "message": err.message}
                if err.data is not None:
                    seen.error["data"] = err.data
        finally:
            if replayer is not None:
                if session.responder is replayer:
                    session.responder = responder
                for ask in replayer.missing_asks:
                    seen.notes.append(f"the server asked {ask.method} and no answer was saved")

    async def run(
        self,
        collection: Collection,
        *,
        names: Iterable[str] | None = None,
        on_start: Callable[[SavedCall], None] | None = None,
        on_result: Callable[[CallResult], None] | None = None,
    ) -> RunReport:
        """Run the collection's calls in order (only `names`, when given); `on_start` hears
        each call as it is sent, `on_result` its result. `stop()` ends the run after the
        call in flight is cancelled (`report.stopped` says why); cancelling the task also
        stops it (the request in flight is cancelled, the session's responder restored)."""
        wanted = None if names is None else set(names)
        report = RunReport(collection=collection.name)
        unsubscribe = self._follow_list_changes()
        try:
            for call in collection.calls:
                if self.stopped is not None:
                    break
                if wanted is not None and call.name not in wanted:
                    continue
                if on_start is not None:
                    on_start(call)
                result = await self._run_call(call)
                report.results.append(result)
                if on_result is not None:
                    on_result(result)
        finally:
            unsubscribe()
            report.stopped = self.stopped
            closed = self.session.closed
            if closed is not None:
                report.connection_lost = closed.reason
        return report


async def run_collection(
    session: ServerConnection,
    collection: Collection,
    *,
    timeout: float = 30.0,
    env: Mapping[str, str] | None = None,
    on_result: Callable[[CallResult], None] | None = None,
) -> RunReport:
    """Every call of `collection` on `session`, in order."""
    runner = CollectionRunner(session, timeout=timeout, env=env)
    return await runner.run(collection, on_result=on_result)


def _by_name(tools: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)}


def _recorded(answer: SavedAnswer) -> RecordedAnswer:
    return RecordedAnswer(
        answer.method, dict(answer.params), dict(answer.result or {}), answer.reject
    )


def _failure(exc: Exception, method: str) -> Outcome:
    if isinstance(exc, ServerError) and exc.failure.error is not None:
        return Outcome("error", exc.failure.error.code, exc.failure.error.message)
    if isinstance(exc, RequestTimeout | TimeoutError):
        return Outcome("timeout", message=str(exc) or f"{method}: no answer in time")
    return Outcome("failed", message=str(exc) or type(exc).__name__)
