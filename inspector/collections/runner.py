"""Running saved calls over a connected session: one call, or a whole collection."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from inspector.collections.checks import judge_call
from inspector.collections.env_refs import UnsetVariable, resolve_env
from inspector.collections.model import (
    Collection,
    OutputSchemaAssertion,
    SavedAnswer,
    SavedCall,
)
from inspector.collections.results import CallResult, Outcome, RunReport
from inspector.protocol.events import NotificationReceived
from inspector.recording.replay import RecordedAnswer, ReplayResponder
from inspector.session import (
    RequestError,
    RequestNotAllowed,
    RequestTimeout,
    ServerError,
    Session,
)

__all__ = ["CollectionRunner", "run_collection"]

_LIST_CHANGED = "notifications/tools/list_changed"
_GRACE = 5.0  # seconds past a call's own timeout before the runner gives up on it


class CollectionRunner:
    """Runs saved calls on `session` (connected, in either era). The tool list (for
    catalog entries and outputSchema) is fetched when first needed, unless `tools` gives
    it, and fetched again after a tool call or a tools/list_changed; `forget_tools()`
    drops it."""

    def __init__(
        self,
        session: Session,
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
        if tools is not None:
            self._tools = _by_name(tools)

    def forget_tools(self) -> None:
        self._tools, self._tools_error = None, None

    async def _tool_list(self, timeout: float) -> dict[str, dict[str, Any]] | Outcome:
        if self._tools is not None:
            return self._tools
        if self._tools_error is not None:
            return self._tools_error
        try:
            tools = await asyncio.wait_for(self.session.client.list_tools(), timeout + _GRACE)
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
        seen.assertions = judge_call(call, seen)
        return seen

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
                await asyncio.wait_for(session.client.learn_tool(call.target), timeout + _GRACE)
            start = time.perf_counter()
            try:
                seen.result = await asyncio.wait_for(
                    session.request(call.method, params, timeout=timeout, override=True),
                    timeout + _GRACE,
                )
            finally:
                seen.ms = (time.perf_counter() - start) * 1000
            seen.outcome = Outcome("isError" if seen.result.get("isError") is True else "ok")
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
        each call as it is sent, `on_result` its result. Cancel the task to stop a run
        (the session's responder is restored)."""
        wanted = None if names is None else set(names)
        report = RunReport(collection=collection.name)
        unsubscribe = self._follow_list_changes()
        try:
            for call in collection.calls:
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
            closed = self.session.closed
            if closed is not None:
                report.connection_lost = closed.reason
        return report


async def run_collection(
    session: Session,
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
