"""Templates and checks for the raw message composer ("Send raw…"). Qt-free.

A template exists for every client request and notification the negotiated version
defines. The checks only warn: sending something invalid on purpose is how a user
tests a server's error handling.
"""

from __future__ import annotations

import json
from typing import Any, Final

from inspector.protocol.wire.jsonrpc import Message, Notification, Request
from inspector.protocol.wire.versions import LATEST_LEGACY, Era, era_of, features

__all__ = ["check_message", "methods_for", "template_for"]

_PARAMS: Final[dict[str, dict[str, Any]]] = {
    "initialize": {
        "protocolVersion": LATEST_LEGACY,
        "capabilities": {},
        "clientInfo": {"name": "raw-composer", "version": "0"},
    },
    "tools/call": {"name": "TOOL", "arguments": {}},
    "resources/read": {"uri": "file:///example.txt"},
    "resources/subscribe": {"uri": "file:///example.txt"},
    "resources/unsubscribe": {"uri": "file:///example.txt"},
    "prompts/get": {"name": "PROMPT", "arguments": {}},
    "completion/complete": {
        "ref": {"type": "ref/prompt", "name": "PROMPT"},
        "argument": {"name": "ARGUMENT", "value": ""},
    },
    "logging/setLevel": {"level": "debug"},
    "subscriptions/listen": {"notifications": {"toolsListChanged": True}},
    "tasks/get": {"taskId": "TASK"},
    "tasks/result": {"taskId": "TASK"},
    "tasks/cancel": {"taskId": "TASK"},
    "notifications/cancelled": {"requestId": 1, "reason": "cancelled by hand"},
    "notifications/progress": {"progressToken": "TOKEN", "progress": 1, "total": 10},
}
# Params each request must carry (a missing one is a warning, not a refusal).
_REQUIRED: Final[dict[str, tuple[str, ...]]] = {
    "initialize": ("protocolVersion", "capabilities", "clientInfo"),
    "tools/call": ("name",),
    "resources/read": ("uri",),
    "resources/subscribe": ("uri",),
    "resources/unsubscribe": ("uri",),
    "prompts/get": ("name",),
    "completion/complete": ("ref", "argument"),
    "logging/setLevel": ("level",),
    "tasks/get": ("taskId",),
    "tasks/result": ("taskId",),
    "tasks/cancel": ("taskId",),
    "notifications/cancelled": ("requestId",),
    "notifications/progress": ("progressToken", "progress"),
}
_META_KEYS: Final = (
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientInfo",
    "io.modelcontextprotocol/clientCapabilities",
)


def methods_for(version: str) -> tuple[list[str], list[str]]:
    """(requests, notifications) the client may send in this version, sorted."""
    f = features(version)
    return sorted(f.client_requests), sorted(f.client_notifications)


def template_for(
    method: str,
    version: str,
    msg_id: int | None,
    *,
    client_info: dict[str, Any] | None = None,
    capabilities: dict[str, Any] | None = None,
) -> str:
    """Pretty JSON for `method`. Requests get `msg_id`; modern requests carry `_meta`."""
    _, notifications = methods_for(version)
    is_notification = method in notifications or method.startswith("notifications/")
    params = json.loads(json.dumps(_PARAMS.get(method, {})))
    if method == "initialize":
        params["protocolVersion"] = version if era_of(version) is Era.LEGACY else LATEST_LEGACY
    if era_of(version) is Era.MODERN and not is_notification:
        params["_meta"] = {
            _META_KEYS[0]: version,
            _META_KEYS[1]: client_info or {"name": "raw-composer", "version": "0"},
            _META_KEYS[2]: capabilities or {},
        }
    message: Message = (
        Notification(method, params or None)
        if is_notification
        else Request(msg_id if msg_id is not None else 1, method, params)
    )
    return json.dumps(message.to_dict(), indent=2, ensure_ascii=False)


def check_message(text: str, version: str | None) -> list[str]:
    """Warnings about `text` as a JSON-RPC message for `version`; empty when it looks fine."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        return [f"not valid JSON: {exc}"]
    if isinstance(value, list):
        return ["a JSON array is a batch: MCP dropped batches after 2025-03-26"]
    if not isinstance(value, dict):
        return ["a JSON-RPC message must be a JSON object"]
    warnings: list[str] = []
    if value.get("jsonrpc") != "2.0":
        warnings.append('"jsonrpc" must be "2.0"')
    method = value.get("method")
    has_id = "id" in value
    if has_id and not (isinstance(value["id"], str | int) and not isinstance(value["id"], bool)):
        warnings.append('"id" must be a string or an integer')
    if method is None:
        if not ({"result", "error"} & value.keys()):
            warnings.append('no "method": not a request or notification (nor a response)')
        return warnings
    if not isinstance(method, str):
        warnings.append('"method" must be a string')
        return warnings
    params = value.get("params")
    if params is not None and not isinstance(params, dict):
        warnings.append('MCP "params" must be an object')
        params = None
    if version is not None:
        requests, notifications = methods_for(version)
        if has_id and method not in requests:
            warnings.append(f"{method} is not a client request in protocol {version}")
        if not has_id and method not in notifications:
            if method in requests:
                warnings.append(f"{method} is a request: it needs an id")
            else:
                warnings.append(f"{method} is not a client notification in protocol {version}")
        if has_id and era_of(version) is Era.MODERN and method != "server/discover":
            meta = (params or {}).get("_meta")
            missing = [k for k in _META_KEYS if not isinstance(meta, dict) or k not in meta]
            if missing:
                warnings.append(f"modern requests carry _meta with {', '.join(missing)}")
    for name in _REQUIRED.get(method, ()):
        if name not in (params or {}):
            warnings.append(f"{method} needs params.{name}")
    return warnings
