"""The app's requests and notifications to the host, one handler per method, each checking
its params (a bad one gets -32602 with the reason) and asking for consent where the policy
says (`consent`). Server calls go through the session (and so show as ordinary traffic)."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol
from urllib.parse import urlsplit

from inspector.features.mcp_apps.consent import ConsentPolicy, ConsentQuestion
from inspector.features.mcp_apps.events import AppEvent, AppServices, RpcFailure
from inspector.protocol.wire.jsonrpc import Notification, Request, RequestId


class HostPort(Protocol):
    """What the handlers use of the AppHost."""

    services: AppServices
    consent: ConsentPolicy
    initialize_seen: bool
    size: tuple[int | None, int | None]
    model_context: dict[str, Any] | None
    messages: list[dict[str, Any]]

    @property
    def app_name(self) -> str: ...
    def may_request(self, method: str) -> bool: ...
    def may_call(self, name: str) -> str | None: ...
    def initialize_result(self, params: dict[str, Any]) -> dict[str, Any]: ...
    def on_initialized(self) -> None: ...
    def send_result(self, msg_id: RequestId, result: dict[str, Any]) -> None: ...
    def send_error(self, msg_id: RequestId, code: int, message: str) -> None: ...
    def flag(self, text: str) -> None: ...
    def problem(self, text: str) -> None: ...


__all__ = ["AppRequests", "HostPort"]

log = logging.getLogger(__name__)

INVALID_PARAMS: Final = -32602
NOT_FOUND: Final = -32601
REFUSED: Final = -32000
LINK_SCHEMES: Final = frozenset({"http", "https", "mailto"})
_MAX_PIXELS: Final = 1_000_000  # a size past this is nonsense, not a request
_LEVELS: Final = frozenset(
    {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
)
_PASS_THROUGH: Final = frozenset({"resources/read", "resources/list", "resources/templates/list"})


def _params(frame: Request | Notification) -> dict[str, Any]:
    params = frame.params
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise RpcFailure(INVALID_PARAMS, "params must be an object")
    return params


class AppRequests:
    def __init__(self, host: HostPort) -> None:
        self.host = host
        self._handlers: dict[str, Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]] = {
            "ui/initialize": self._initialize,
            "ping": self._ping,
            "tools/call": self._call_tool,
            "ui/open-link": self._open_link,
            "ui/message": self._message,
            "ui/update-model-context": self._model_context,
            "ui/request-display-mode": self._display_mode,
        }

    async def answer(self, frame: Request) -> None:
        host = self.host
        try:
            if not host.may_request(frame.method):
                raise RpcFailure(-32600, f"{frame.method} before ui/initialize")
            handler = self._handlers.get(frame.method)
            if handler is not None:
                result = await handler(_params(frame))
            elif frame.method in _PASS_THROUGH:
                result = await host.services.server_request(frame.method, _params(frame))
            else:
                raise RpcFailure(NOT_FOUND, f"the host does not offer {frame.method}")
        except RpcFailure as exc:
            if exc.code in (NOT_FOUND, INVALID_PARAMS, REFUSED):
                host.problem(f"{frame.method} refused: {exc.message}")
            host.send_error(frame.id, exc.code, exc.message)
            return
        except Exception as exc:  # a server error, a closed session...
            code = getattr(exc, "code", None)
            host.send_error(
                frame.id, code if isinstance(code, int) else -32603, str(exc) or repr(exc)
            )
            return
        host.send_result(frame.id, result)

    def notified(self, frame: Notification) -> None:
        host = self.host
        try:
            params = _params(frame)
        except RpcFailure as exc:
            host.flag(f"{frame.method}: {exc.message}")
            return
        method = frame.method
        if method == "ui/notifications/initialized":
            host.on_initialized()
        elif method == "ui/notifications/size-changed":
            width, height = params.get("width"), params.get("height")
            if not all(_size_number(v) for v in (width, height)):
                host.flag(
                    "ui/notifications/size-changed: width and height must be finite numbers >= 0"
                )
                return
            host.size = (
                int(width) if width is not None else None,
                int(height) if height is not None else None,
            )
            host.services.event(AppEvent("size", f"the app asks for {width} × {height}", host.size))
        elif method == "notifications/message":
            level = params.get("level")
            if level not in _LEVELS:
                host.flag(f"notifications/message: unknown level {level!r}")
                return
            data = params.get("data")
            text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
            host.services.event(AppEvent("log", f"[{level}] {text[:500]}", params))
        elif method == "ui/notifications/request-teardown":
            host.services.event(AppEvent("teardown", "the app asks to be closed"))
        elif method == "notifications/cancelled":
            pass  # the app gave up on one of its requests: the answer is still sent
        else:
            host.flag(f"unknown notification {method!r} from the app (ignored)")

    # ---------------------------------------------------------------- requests
    async def _initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        host = self.host
        if host.initialize_seen:
            host.flag("the app sent ui/initialize again; answered as the first time")
        if not isinstance(params.get("protocolVersion"), str):
            raise RpcFailure(INVALID_PARAMS, "ui/initialize needs protocolVersion (a string)")
        if not isinstance(params.get("appInfo"), dict):
            raise RpcFailure(INVALID_PARAMS, "ui/initialize needs appInfo (an object)")
        return host.initialize_result(params)

    async def _ping(self, _params: dict[str, Any]) -> dict[str, Any]:
        return {}

    async def _call_tool(self, params: dict[str, Any]) -> dict[str, Any]:
        host = self.host
        name = params.get("name")
        if not isinstance(name, str) or not name:
            raise RpcFailure(INVALID_PARAMS, "tools/call needs a tool name")
        arguments = params.get("arguments", {})
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise RpcFailure(INVALID_PARAMS, "tools/call arguments must be an object")
        why = host.may_call(name)
        if why is not None:
            raise RpcFailure(INVALID_PARAMS, why)
        if not host.consent.allowed("tool", name):
            detail = json.dumps(arguments, ensure_ascii=False, indent=2)[:2000]
            await self._ask(ConsentQuestion("tool", name, detail, host.app_name))
        return await host.services.call_tool(name, arguments)

    async def _open_link(self, params: dict[str, Any]) -> dict[str, Any]:
        host = self.host
        url = params.get("url")
        if not isinstance(url, str) or not url:
            raise RpcFailure(INVALID_PARAMS, "ui/open-link needs a url")
        scheme = urlsplit(url).scheme.lower()
        if scheme not in LINK_SCHEMES:
            raise RpcFailure(
                INVALID_PARAMS, f"links with the {scheme or 'empty'} scheme are not opened"
            )
        where = urlsplit(url).netloc or url
        await self._ask(ConsentQuestion("link", url, where, host.app_name))
        if not host.services.open_link(url):
            return {"isError": True}
        return {}

    async def _message(self, params: dict[str, Any]) -> dict[str, Any]:
        content = params.get("content")
        if params.get("role") != "user" or not isinstance(content, list):
            raise RpcFailure(INVALID_PARAMS, "ui/message needs role 'user' and a content list")
        self.host.messages.append(params)
        texts = [
            c.get("text", "") for c in content if isinstance(c, dict) and c.get("type") == "text"
        ]
        text = (
            " ".join(t for t in texts if isinstance(t, str)) or f"{len(content)} content block(s)"
        )
        self.host.services.event(
            AppEvent("message", f"the app sent a message for the chat: {text[:300]}", params)
        )
        return {}

    async def _model_context(self, params: dict[str, Any]) -> dict[str, Any]:
        self.host.model_context = params
        self.host.services.event(AppEvent("context", "the app updated the model context", params))
        return {}

    async def _display_mode(self, params: dict[str, Any]) -> dict[str, Any]:
        mode = params.get("mode")
        if mode not in ("inline", "fullscreen", "pip"):
            raise RpcFailure(INVALID_PARAMS, f"unknown display mode {mode!r}")
        return {"mode": "inline"}  # the only one this host has

    async def _ask(self, question: ConsentQuestion) -> None:
        consent = self.host.consent
        if consent.pending:
            raise RpcFailure(REFUSED, "another request of the app is waiting for the user")
        consent.pending = True
        try:
            decision = await self.host.services.confirm(question)
        finally:
            consent.pending = False
        if not consent.record(question, decision):
            raise RpcFailure(REFUSED, f"the user declined ({question.kind}: {question.subject})")


def _size_number(value: object) -> bool:
    """A size-changed dimension: absent, or a finite pixel count >= 0 (not a bool)."""
    if value is None:
        return True
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value) and 0 <= value <= _MAX_PIXELS
