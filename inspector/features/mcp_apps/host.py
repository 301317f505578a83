"""The host side of one app view: the JSON-RPC the app posts, what the host answers and
sends, in the order the spec wants (ui/initialize, its result, the app's initialized, then
tool input and tool result), the app's requests through the host (server tools, resources,
links, messages, logs), size changes and teardown. Every message both ways is reported as a
traffic row (`trace`); bad input (not JSON-RPC, unknown methods, a flood, a tool the server
does not have, a handshake that never comes) is refused or flagged with a note.

Qt-free: the view hands `receive` each string the page posted and sends what `send` gets.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Final

from inspector.features.mcp_apps.consent import ConsentPolicy
from inspector.features.mcp_apps.events import AppEvent, AppServices, RpcFailure
from inspector.features.mcp_apps.handshake import (
    HOST_INFO,
    HostContext,
    host_capabilities,
    negotiate,
)
from inspector.features.mcp_apps.limits import MessageBudget
from inspector.features.mcp_apps.meta import AppResource, CspDeclaration, app_visibility
from inspector.features.mcp_apps.requests import AppRequests
from inspector.features.mcp_apps.trace import app_note_record, app_record
from inspector.protocol.wire.jsonrpc import (
    ErrorResponse,
    Invalid,
    Message,
    Notification,
    Request,
    RequestId,
    Response,
    encode,
)
from inspector.protocol.wire.jsonrpc import parse_frame as _parse

__all__ = ["HANDSHAKE_TIMEOUT", "AppEvent", "AppHost", "AppServices"]

log = logging.getLogger(__name__)

HANDSHAKE_TIMEOUT: Final = 10.0  # seconds from page load to the app's ui/initialize
TEARDOWN_TIMEOUT: Final = 2.0
MAX_MESSAGE: Final = 8 * 1024 * 1024  # a bigger message from the app is refused


class AppHost:
    def __init__(
        self,
        resource: AppResource,
        services: AppServices,
        send: Callable[[str], None],
        context: HostContext,
        enforced: CspDeclaration | None = None,
    ) -> None:
        self.resource = resource
        self.services = services
        self._send_text = send
        self.context = context
        self.enforced = enforced if enforced is not None else resource.csp
        self.consent = ConsentPolicy()
        self.budget = MessageBudget()
        self.app_info: dict[str, Any] = {}
        self.app_capabilities: dict[str, Any] = {}
        self.initialize_seen = False
        self.initialized = False
        self.closed = False
        self.size: tuple[int | None, int | None] = (None, None)
        self.model_context: dict[str, Any] | None = None
        self.messages: list[dict[str, Any]] = []  # ui/message requests, as sent
        self._arguments: dict[str, Any] | None = None
        self._result: dict[str, Any] | None = None
        self._cancelled: str | None = None
        self._delivered = False
        self._result_sent = False
        self._next_id = 0
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._handshake_timer: asyncio.TimerHandle | None = None
        self._requests = AppRequests(self)

    # ------------------------------------------------------------------ inputs
    @property
    def app_name(self) -> str:
        name = self.app_info.get("name")
        return repr(name) if isinstance(name, str) and name else self.resource.uri

    def page_loaded(self, timeout: float = HANDSHAKE_TIMEOUT) -> None:
        """The page is up: the app has `timeout` seconds to send ui/initialize."""
        if self._handshake_timer is not None:
            self._handshake_timer.cancel()
        if not self.initialize_seen and not self.closed:
            loop = asyncio.get_running_loop()
            self._handshake_timer = loop.call_later(timeout, self._handshake_late, timeout)

    def _handshake_late(self, timeout: float) -> None:
        self._handshake_timer = None
        if self.initialize_seen or self.closed:
            return
        self.flag(
            f"the app sent no ui/initialize within {timeout:g} s of loading: it is not an "
            "MCP App, or its script failed (see the page's console messages)"
        )

    def set_call(
        self,
        arguments: dict[str, Any],
        result: dict[str, Any] | None,
        call_id: str | int | None = None,
    ) -> None:
        """The tool call this app shows: its input, and its result once there is one."""
        self._arguments = arguments
        self._result = result
        self._cancelled = None
        self._delivered = False
        self.context.call_id = call_id
        if self.initialized:
            self._deliver()

    def set_result(self, result: dict[str, Any]) -> None:
        self._result = result
        if self.initialized:
            self._send_result(result)

    def cancel_call(self, reason: str) -> None:
        self._cancelled = reason
        if self.initialized:
            self._send_notification("ui/notifications/tool-cancelled", {"reason": reason})

    def change_context(self, **changes: Any) -> None:
        """theme=, width=, max_height=...: tells an initialized app what changed."""
        before = self.context.as_json()
        for key, value in changes.items():
            setattr(self.context, key, value)
        after = self.context.as_json()
        diff = {k: v for k, v in after.items() if before.get(k) != v}
        if diff and self.initialized:
            self._send_notification("ui/notifications/host-context-changed", diff)

    def receive(self, text: str) -> None:
        """One message the app posted (JSON text)."""
        if self.closed:
            return
        if not self.budget.take():
            self._over_budget(text)
            return
        dropped = self.budget.summary_due()
        if dropped:
            self.flag(
                f"rate limit: {dropped} app messages dropped unhandled (the log has the first)"
            )
        if len(text) > MAX_MESSAGE:
            head = text[:2000]
            self.services.report(
                app_record("from-app", head, f"refused: {len(text):,} characters, over 8 MiB")
            )
            self.problem(f"the app posted a {len(text):,}-character message; refused")
            return
        frame = _parse(text)
        if isinstance(frame, Invalid):
            self.services.report(app_record("from-app", text, frame=frame))
            self.problem(f"invalid JSON-RPC from the app: {frame.reason}")
            if frame.id is not None:
                self._send_error(frame.id, -32600, f"invalid request: {frame.reason}")
            return
        if isinstance(frame, Request):
            note = None if self.may_request(frame.method) else "before ui/initialize"
            self.services.report(app_record("from-app", text, note, frame))
            self._spawn(self._requests.answer(frame))
        elif isinstance(frame, Notification):
            self.services.report(app_record("from-app", text, frame=frame))
            self._requests.notified(frame)
        elif isinstance(frame, Response | ErrorResponse):
            waiter = self._waiting.pop(frame.id, None) if isinstance(frame.id, int) else None
            note = None if waiter is not None else "answers no request of the host"
            self.services.report(app_record("from-app", text, note, frame))
            if waiter is not None and not waiter.done():
                if isinstance(frame, Response):
                    waiter.set_result(frame.result if isinstance(frame.result, dict) else {})
                else:
                    waiter.set_exception(RpcFailure(frame.code, frame.message))

    def may_request(self, method: str) -> bool:
        return self.initialize_seen or method in ("ui/initialize", "ping")

    def _over_budget(self, text: str) -> None:
        if self.budget.dropped == 1:
            self.services.report(
                app_record(
                    "from-app",
                    text[:2000],
                    f"rate limit: the app sent over {self.budget.burst:g} messages at once "
                    f"(the budget is {self.budget.rate:g}/s); this one and the next are not "
                    "handled",
                )
            )
            self.problem("the app floods the host with messages; the excess is dropped")
        frame = _parse(text) if len(text) < 4096 else None
        if isinstance(frame, Request):
            refusal = "rate limited: too many messages from the app"
            self._send_text(encode(ErrorResponse(frame.id, -32000, refusal)))

    def flush_dropped(self) -> None:
        """Report dropped messages of a flood that has stopped (call about once a second)."""
        dropped = self.budget.summary_due()
        if dropped:
            self.flag(
                f"rate limit: {dropped} app messages dropped unhandled (the log has the first)"
            )

    @property
    def call(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """The arguments and result this app was given (None: not yet)."""
        return self._arguments, self._result

    @property
    def delivered(self) -> bool:
        """The call's input went out, and its result too once there is one."""
        return self._delivered and (self._result is None or self._result_sent)

    # ----------------------------------------------------------------- outputs
    def _deliver(self) -> None:
        """After initialized: the call's input, then its result (or its cancellation)."""
        if self._delivered or self._arguments is None:
            return
        self._delivered = True
        self._send_notification("ui/notifications/tool-input", {"arguments": self._arguments})
        self.services.event(AppEvent("sent", "the tool input went to the app"))
        if self._result is not None:
            self._send_result(self._result)
        elif self._cancelled is not None:
            self._send_notification("ui/notifications/tool-cancelled", {"reason": self._cancelled})
            self.services.event(AppEvent("sent", f"the call failed: {self._cancelled}"))

    def _send_result(self, result: dict[str, Any]) -> None:
        self._send_notification("ui/notifications/tool-result", result)
        self._result_sent = True
        error = " (isError)" if result.get("isError") is True else ""
        self.services.event(AppEvent("sent", f"the tool result went to the app{error}"))

    def initialize_result(self, params: dict[str, Any]) -> dict[str, Any]:
        self.initialize_seen = True
        if self._handshake_timer is not None:
            self._handshake_timer.cancel()
            self._handshake_timer = None
        info = params.get("appInfo")
        self.app_info = info if isinstance(info, dict) else {}
        caps = params.get("appCapabilities")
        self.app_capabilities = caps if isinstance(caps, dict) else {}
        return {
            "protocolVersion": negotiate(params.get("protocolVersion")),
            "hostInfo": dict(HOST_INFO),
            "hostCapabilities": host_capabilities(self.enforced),
            "hostContext": self.context.as_json(),
        }

    def on_initialized(self) -> None:
        if not self.initialize_seen:
            self.flag("the app sent ui/notifications/initialized before ui/initialize")
        if self.initialized:
            return
        self.initialized = True
        self.services.event(AppEvent("initialized", f"the app {self.app_name} is ready"))
        self._deliver()

    def _send(self, message: Message) -> None:
        if self.closed:
            return
        text = encode(message)
        self.services.report(app_record("to-app", text))
        self._send_text(text)

    def _send_notification(self, method: str, params: dict[str, Any]) -> None:
        self._send(Notification(method, params))

    def send_result(self, msg_id: RequestId, result: dict[str, Any]) -> None:
        self._send(Response(msg_id, result))

    def _send_error(self, msg_id: RequestId, code: int, message: str) -> None:
        self._send(ErrorResponse(msg_id, code, message))

    def send_error(self, msg_id: RequestId, code: int, message: str) -> None:
        self._send_error(msg_id, code, message)

    async def request(self, method: str, params: dict[str, Any], timeout: float) -> dict[str, Any]:
        """A request to the app; raises TimeoutError, RpcFailure."""
        self._next_id += 1
        msg_id = self._next_id
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[msg_id] = future
        self._send(Request(msg_id, method, params))
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(msg_id, None)

    async def teardown(self, timeout: float = TEARDOWN_TIMEOUT) -> bool:
        """ui/resource-teardown, then close: True when the app answered in time."""
        ok = False
        if self.initialized and not self.closed:
            try:
                await self.request("ui/resource-teardown", {}, timeout)
                ok = True
            except TimeoutError:
                self.flag(f"the app did not answer ui/resource-teardown within {timeout:g} s")
            except RpcFailure as exc:
                self.flag(f"the app failed ui/resource-teardown: {exc}")
        self.close()
        return ok

    def close(self) -> None:
        """The view is gone: nothing more goes in or out; pending work is cancelled."""
        if self.closed:
            return
        self.flush_dropped()
        self.closed = True
        if self._handshake_timer is not None:
            self._handshake_timer.cancel()
        for future in self._waiting.values():
            future.cancel()
        self._waiting.clear()
        for task in list(self._tasks):
            task.cancel()

    # ----------------------------------------------------------------- helpers
    def flag(self, text: str) -> None:
        """A note row in the log and a problem in the view."""
        self.services.report(app_note_record(f"app {self.resource.uri}: {text}"))
        self.problem(text)

    def problem(self, text: str) -> None:
        self.services.event(AppEvent("problem", text))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def may_call(self, name: str) -> str | None:
        """Why the app may not call the tool `name`, or None."""
        tool = self.services.tool(name)
        if tool is None:
            if self.services.tools_known():
                return f"the server has no tool {name!r}"
            return None  # not listed yet: let the server answer
        if "app" not in app_visibility(tool):
            return f"the tool {name!r} is not visible to apps (_meta.ui.visibility)"
        return None
