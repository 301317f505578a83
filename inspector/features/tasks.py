"""Tasks: long-running requests the server runs in the background, in both eras.

Qt-free. Two protocols:
- **Legacy** (spec 2025-11-25, experimental): the server declares `capabilities.tasks`
  (`list`, `cancel`, `requests.tools.call`); the client asks for a task with
  `params.task = {ttl}` on tools/call and gets `CreateTaskResult {task}`; then
  tasks/get (status), tasks/result (blocks until the result; queued server requests
  such as an elicitation arrive while it waits), tasks/list, tasks/cancel, and
  `notifications/tasks/status`.
- **Modern** (the `io.modelcontextprotocol/tasks` extension, SEP-2663): the client declares
  the extension in its per-request capabilities and the server may answer tools/call with
  `resultType: "task"` (the task's fields inline); tasks/get returns the task with the
  result or error inline, or `inputRequests` (answered with tasks/update); tasks/cancel;
  no tasks/list and no tasks/result.

`TaskStore` holds what is known (the panel adapts it); `TaskClient` drives the requests
over a Session (polling at the server's `pollInterval`, answering input requests through
the same Responder as every other server ask).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal, Protocol, TypeAlias

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.protocol.machine.asks import ServerAsk, ask_kind
from inspector.protocol.wire.versions import Era
from inspector.session import AskRejected, Call, SessionError

__all__ = [
    "EXTENSION",
    "TERMINAL",
    "TaskClient",
    "TaskInfo",
    "TaskStore",
    "TasksMode",
    "created_task",
    "parse_task",
    "task_request_params",
    "tasks_mode",
]

log = logging.getLogger(__name__)

EXTENSION: Final = "io.modelcontextprotocol/tasks"
META_CLIENT_CAPS: Final = "io.modelcontextprotocol/clientCapabilities"
TERMINAL: Final = frozenset({"completed", "failed", "cancelled"})
STATUSES: Final = ("working", "input_required", "completed", "failed", "cancelled")
DEFAULT_POLL_MS: Final = 1000
MIN_POLL_MS: Final = 100
MAX_POLL_MS: Final = 30_000
TasksMode: TypeAlias = Literal["legacy", "modern"]
# Modern task input requests get their own ask ids, far from the connection's own.
_ask_ids = itertools.count(1_000_000_000)


@dataclass(frozen=True, slots=True)
class TaskInfo:
    task_id: str
    status: str
    status_message: str | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None
    origin: str = ""  # e.g. "tools/call get-sum", or "tasks/list"
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    input_requests: dict[str, Any] | None = None
    raw: dict[str, Any] = field(default_factory=dict)
    problems: tuple[str, ...] = ()
    seen_mono: float = 0.0
    note: str | None = None  # what the client is doing about it ("waiting for tasks/result")

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_task(value: Any, era: Era) -> TaskInfo | None:
    """A Task object (either era's field names); None if there is no usable taskId."""
    if not isinstance(value, dict):
        return None
    task_id = value.get("taskId")
    if not isinstance(task_id, str) or not task_id:
        return None
    problems: list[str] = []
    status = value.get("status")
    if status not in STATUSES:
        problems.append(f"status {status!r} is not a task status")
    # 2025-11-25 names ttl/pollInterval; the extension names ttlMs/pollIntervalMs.
    ttl = value.get("ttlMs" if era is Era.MODERN else "ttl", value.get("ttl", value.get("ttlMs")))
    poll = value.get(
        "pollIntervalMs" if era is Era.MODERN else "pollInterval",
        value.get("pollInterval", value.get("pollIntervalMs")),
    )
    message = value.get("statusMessage")
    result = value.get("result")
    error = value.get("error")
    inputs = value.get("inputRequests")
    return TaskInfo(
        task_id=task_id,
        status=str(status),
        status_message=message if isinstance(message, str) else None,
        created_at=value.get("createdAt") if isinstance(value.get("createdAt"), str) else None,
        last_updated_at=(
            value.get("lastUpdatedAt") if isinstance(value.get("lastUpdatedAt"), str) else None
        ),
        ttl_ms=_int(ttl),
        poll_interval_ms=_int(poll),
        result=result if isinstance(result, dict) else None,
        error=error if isinstance(error, dict) else None,
        input_requests=inputs if isinstance(inputs, dict) else None,
        raw=value,
        problems=tuple(problems),
        seen_mono=time.monotonic(),
    )


def created_task(result: dict[str, Any], era: Era) -> TaskInfo | None:
    """The task a tools/call result created, if it is a CreateTaskResult (either era)."""
    if era is Era.MODERN:
        return parse_task(result, era) if result.get("resultType") == "task" else None
    return parse_task(result.get("task"), era) if "task" in result else None


def tasks_mode(era: Era, capabilities: dict[str, Any]) -> TasksMode | None:
    """Does the server offer tasks: legacy `capabilities.tasks` or the modern extension."""
    if era is Era.MODERN:
        extensions = capabilities.get("extensions")
        return "modern" if isinstance(extensions, dict) and EXTENSION in extensions else None
    return "legacy" if isinstance(capabilities.get("tasks"), dict) else None


def legacy_tool_tasks(capabilities: dict[str, Any]) -> bool:
    tasks = capabilities.get("tasks")
    requests = tasks.get("requests") if isinstance(tasks, dict) else None
    tools = requests.get("tools") if isinstance(requests, dict) else None
    return isinstance(tools, dict) and tools.get("call") is not None


def task_request_params(
    params: dict[str, Any], mode: TasksMode, ttl_ms: int | None = None
) -> dict[str, Any]:
    """tools/call params asking for a task: legacy `task: {ttl}`; modern: the extension
    declared in this request's client capabilities (the server then decides)."""
    out = dict(params)
    if mode == "legacy":
        out["task"] = {"ttl": ttl_ms} if ttl_ms is not None else {}
        return out
    meta = dict(out.get("_meta") or {})
    caps = dict(meta.get(META_CLIENT_CAPS) or {})
    extensions = dict(caps.get("extensions") or {})
    extensions[EXTENSION] = {}
    caps["extensions"] = extensions
    meta[META_CLIENT_CAPS] = caps
    out["_meta"] = meta
    return out


class TaskStore:
    """The tasks this session knows, in the order first seen. Listeners get the task id
    that changed (None: everything changed, e.g. cleared)."""

    def __init__(self) -> None:
        self.mode: TasksMode | None = None
        self._tasks: dict[str, TaskInfo] = {}
        self._listeners: Listeners[[str | None]] = Listeners("task store listener")

    def on_change(self, listener: Callable[[str | None], None]) -> Unsubscribe:
        return self._listeners.add(listener)

    def _changed(self, task_id: str | None) -> None:
        self._listeners.emit(task_id)

    def __len__(self) -> int:
        return len(self._tasks)

    def ids(self) -> list[str]:
        return list(self._tasks)

    def get(self, task_id: str) -> TaskInfo | None:
        return self._tasks.get(task_id)

    def reset(self, mode: TasksMode | None) -> None:
        self.mode = mode
        self._tasks.clear()
        self._changed(None)

    def upsert(self, task: TaskInfo, origin: str | None = None) -> TaskInfo:
        """Merge a newer view of a task (a result or origin already known is kept)."""
        old = self._tasks.get(task.task_id)
        if old is not None:
            task = replace(
                task,
                origin=origin or task.origin or old.origin,
                result=task.result if task.result is not None else old.result,
                error=task.error if task.error is not None else old.error,
                note=task.note if task.note is not None else old.note,
            )
        elif origin:
            task = replace(task, origin=origin)
        self._tasks[task.task_id] = task
        self._changed(task.task_id)
        return task

    def update(self, task_id: str, **changes: Any) -> None:
        old = self._tasks.get(task_id)
        if old is not None:
            self._tasks[task_id] = replace(old, **changes)
            self._changed(task_id)


class TaskChannel(Protocol):
    """What `TaskClient` sends through: the connection's request API
    (`inspector.core.server_connection.ServerConnection`; this floor cannot name it)."""

    @property
    def era(self) -> Era: ...

    @property
    def is_ready(self) -> bool: ...

    async def learn_tool(self, name: str) -> None: ...

    def start_tool_call(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        extra: dict[str, Any] | None = None,
    ) -> Call: ...

    async def list_tasks(self) -> list[dict[str, Any]]: ...

    async def get_task(self, task_id: str, *, override: bool = False) -> dict[str, Any]: ...

    async def task_result(self, task_id: str, *, override: bool = False) -> dict[str, Any]: ...

    async def cancel_task(self, task_id: str, *, override: bool = False) -> dict[str, Any]: ...

    async def update_task(
        self, task_id: str, input_responses: dict[str, Any], *, override: bool = False
    ) -> dict[str, Any]: ...


class TaskClient:
    """Drives tasks over the current connection. Every public coroutine raises SessionError
    subclasses on failure (the caller reports them)."""

    def __init__(
        self,
        store: TaskStore,
        session: Callable[[], TaskChannel | None],
        responder: Callable[[], Any] | None = None,
    ) -> None:
        self.store = store
        self._session = session
        self._responder = responder  # -> an object with `async respond(ask)`, or None
        self._followers: dict[str, asyncio.Task[None]] = {}
        self._answered: dict[str, set[str]] = {}  # task id -> input keys already answered
        self._waiting_result: set[str] = set()
        self._background: set[asyncio.Task[None]] = set()

    def session(self) -> TaskChannel:
        session = self._session()
        if session is None or not session.is_ready:
            raise SessionError("not connected")
        return session

    @property
    def mode(self) -> TasksMode | None:
        return self.store.mode

    def attach(self, era: Era, capabilities: dict[str, Any]) -> None:
        """A new session is ready: forget the old one's tasks and polling."""
        self.stop()
        self._answered.clear()
        self._waiting_result.clear()
        self.store.reset(tasks_mode(era, capabilities))

    def stop(self, reason: str = "the session ended") -> None:
        """Stop polling, and withdraw input requests still waiting for the user."""
        for task in [*self._followers.values(), *self._background]:
            task.cancel(reason)
        self._followers.clear()
        self._background.clear()

    @property
    def _override(self) -> bool:
        return self.mode == "modern"  # the extension's methods are not core requests

    # ------------------------------------------------------------------ intents
    async def call_tool(
        self, name: str, arguments: dict[str, Any], ttl_ms: int | None = None
    ) -> tuple[TaskInfo | None, dict[str, Any]]:
        """tools/call as a task. Returns (the created task, the raw result); the task is None
        when the server answered directly (modern servers decide per request)."""
        mode = self.mode or "legacy"
        session = self.session()
        await session.learn_tool(name)  # modern HTTP: its Mcp-Param-* headers
        extra = task_request_params({}, mode, ttl_ms)
        result = await session.start_tool_call(name, arguments, extra=extra).result()
        task = self.adopt(result, f"tools/call {name}")
        return task, result

    def adopt(self, result: dict[str, Any], origin: str) -> TaskInfo | None:
        """Take in a CreateTaskResult (from any tools/call) and start following the task."""
        session = self._session()
        era = session.era if session is not None else Era.LEGACY
        task = created_task(result, era)
        if task is None:
            return None
        if self.store.mode is None:
            self.store.mode = "modern" if era is Era.MODERN else "legacy"
        task = self.store.upsert(task, origin)
        self.follow(task.task_id)
        return task

    async def refresh(self) -> None:
        """Legacy: tasks/list (every page). Modern: re-poll every known task."""
        if self.mode == "legacy":
            session = self.session()
            for item in await session.list_tasks():
                task = parse_task(item, Era.LEGACY)
                if task is not None:
                    known = self.store.get(task.task_id)
                    self.store.upsert(task, None if known else "tasks/list")
                    if not task.terminal:
                        self.follow(task.task_id)
                    elif task.status == "completed" and (known is None or known.result is None):
                        pass  # the result is fetched on demand (tasks/result)
            return
        for task_id in self.store.ids():
            await self.get(task_id)

    async def get(self, task_id: str) -> TaskInfo | None:
        result = await self.session().get_task(task_id, override=self._override)
        return self._take(task_id, result)

    def _take(self, task_id: str, result: Any) -> TaskInfo | None:
        session = self._session()
        era = session.era if session is not None else Era.LEGACY
        task = parse_task(result, era)
        if task is None:
            self.store.update(task_id, note="tasks/get answered without a task")
            return None
        task = self.store.upsert(task)
        if task.status == "input_required":
            self._on_input_required(task)
        return task

    async def result(self, task_id: str) -> dict[str, Any]:
        """Legacy tasks/result: blocks until the task ends (no timeout: it may take long)."""
        if self.mode == "modern":
            task = await self.get(task_id)
            if task is None or task.result is None:
                raise ValueError("the task has no result yet (modern tasks inline it in tasks/get)")
            return task.result
        self.store.update(task_id, note="waiting for tasks/result")
        self._waiting_result.add(task_id)
        try:
            result = await self.session().task_result(task_id, override=self._override)
        except Exception as exc:
            self.store.update(task_id, note=f"tasks/result failed: {exc}")
            raise
        finally:
            self._waiting_result.discard(task_id)
        self.store.update(task_id, result=result, note="result received")
        return dict(result)

    async def cancel(self, task_id: str) -> None:
        result = await self.session().cancel_task(task_id, override=self._override)
        session = self._session()
        era = session.era if session is not None else Era.LEGACY
        task = parse_task(result, era)  # legacy answers with the task; modern with {}
        if task is not None:
            self.store.upsert(task)
        else:
            self.store.update(task_id, note="cancel requested (cooperative)")

    def on_status_notification(self, params: dict[str, Any]) -> None:
        """notifications/tasks/status (legacy) or notifications/tasks (modern)."""
        session = self._session()
        era = session.era if session is not None else Era.LEGACY
        task = parse_task(params, era)
        if task is not None:
            known = self.store.get(task.task_id) is not None
            # A server may announce a task before the tools/call that created it returns.
            task = self.store.upsert(task, None if known else "status notification")
            if task.status == "input_required":
                self._on_input_required(task)
            elif not known and not task.terminal:
                self.follow(task.task_id)

    # ------------------------------------------------------------------ polling
    def follow(self, task_id: str) -> None:
        """Poll the task until it ends (at the server's suggested interval)."""
        running = self._followers.get(task_id)
        if running is not None and not running.done():
            return
        self._followers[task_id] = asyncio.get_running_loop().create_task(
            self._follow(task_id), name=f"follow task {task_id}"
        )

    async def _follow(self, task_id: str) -> None:
        try:
            while True:
                task = self.store.get(task_id)
                if task is None or task.terminal:
                    break
                interval = task.poll_interval_ms or DEFAULT_POLL_MS
                await asyncio.sleep(min(max(interval, MIN_POLL_MS), MAX_POLL_MS) / 1000)
                try:
                    await self.get(task_id)
                except Exception as exc:
                    self.store.update(task_id, note=f"polling stopped: {exc}")
                    return
            task = self.store.get(task_id)
            if (
                task is not None
                and task.status == "completed"
                and task.result is None
                and self.mode == "legacy"
                and task_id not in self._waiting_result
            ):
                with contextlib.suppress(Exception):  # the failure is noted in the store
                    await self.result(task_id)
        finally:
            if self._followers.get(task_id) is asyncio.current_task():
                self._followers.pop(task_id, None)

    def _on_input_required(self, task: TaskInfo) -> None:
        loop = asyncio.get_running_loop()
        if self.mode == "legacy":
            # spec 2025-11-25 tasks: on input_required the requestor should call tasks/result;
            # the server delivers its queued requests (elicitation, sampling) meanwhile.
            if task.task_id not in self._waiting_result:
                self._keep(loop.create_task(self._result_quietly(task.task_id)))
            return
        answered = self._answered.setdefault(task.task_id, set())
        fresh = {k: v for k, v in (task.input_requests or {}).items() if k not in answered}
        if fresh:
            answered.update(fresh)  # spec: deduplicate input request keys across polls
            self._keep(loop.create_task(self._answer_inputs(task.task_id, fresh)))

    async def _result_quietly(self, task_id: str) -> None:
        with contextlib.suppress(Exception):
            await self.result(task_id)

    def _keep(self, task: asyncio.Task[None]) -> None:
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _answer_inputs(self, task_id: str, requests: dict[str, Any]) -> None:
        responder = self._responder() if self._responder is not None else None
        responses: dict[str, Any] = {}
        for key, entry in requests.items():
            method = entry.get("method") if isinstance(entry, dict) else None
            kind = ask_kind(method) if isinstance(method, str) else None
            if kind is None or responder is None:
                self.store.update(task_id, note=f"cannot answer input request {key!r} ({method!r})")
                continue
            params = entry.get("params")
            ask = ServerAsk(
                ask_id=next(_ask_ids),
                kind=kind,
                method=str(method),
                params=params if isinstance(params, dict) else {},
                era=Era.MODERN,
                input_key=str(key),
                request_method=f"task {task_id}",
            )
            try:
                responses[str(key)] = await responder.respond(ask)
            except AskRejected as exc:
                # The extension has no error slot either: leave the task waiting, say so.
                self.store.update(task_id, note=f"input request {key!r} rejected: {exc}")
        if not responses:
            return
        try:
            await self.session().update_task(task_id, responses, override=self._override)
        except Exception as exc:
            self.store.update(task_id, note=f"tasks/update failed: {exc}")
            return
        self.store.update(task_id, note=f"answered {', '.join(responses)} (tasks/update)")
        self.follow(task_id)
