"""Turn a server notification into its typed view. Unknown or malformed ones stay untyped."""

from __future__ import annotations

from typing import Any

from inspector.protocol.events import (
    ListChanged,
    LogMessage,
    ProgressUpdate,
    ResourceUpdated,
    ServerCancelled,
    SubscriptionAcknowledged,
    TypedNotification,
)
from inspector.protocol.jsonrpc import Notification

__all__ = ["type_notification"]

_LIST_CHANGED = {
    "notifications/tools/list_changed": "tools",
    "notifications/resources/list_changed": "resources",
    "notifications/prompts/list_changed": "prompts",
}


def type_notification(note: Notification) -> TypedNotification | None:
    params: dict[str, Any] = note.params or {}
    method = note.method
    if method in _LIST_CHANGED:
        return ListChanged(_LIST_CHANGED[method])  # type: ignore[arg-type]
    if method == "notifications/resources/updated":
        uri = params.get("uri")
        return ResourceUpdated(uri) if isinstance(uri, str) else None
    if method == "notifications/message":
        level = params.get("level")
        logger = params.get("logger")
        return LogMessage(
            level if isinstance(level, str) else "info",
            logger if isinstance(logger, str) else None,
            params.get("data"),
        )
    if method == "notifications/progress":
        token = params.get("progressToken")
        progress = params.get("progress")
        total = params.get("total")
        message = params.get("message")
        if not isinstance(token, str | int) or isinstance(token, bool):
            return None
        if not isinstance(progress, int | float) or isinstance(progress, bool):
            return None
        return ProgressUpdate(
            token,
            float(progress),
            float(total)
            if isinstance(total, int | float) and not isinstance(total, bool)
            else None,
            message if isinstance(message, str) else None,
            None,
        )
    if method == "notifications/cancelled":
        rid = params.get("requestId")
        reason = params.get("reason")
        return ServerCancelled(
            rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None,
            reason if isinstance(reason, str) else None,
        )
    if method == "notifications/subscriptions/acknowledged":
        meta = params.get("_meta")
        sid = meta.get("io.modelcontextprotocol/subscriptionId") if isinstance(meta, dict) else None
        filt = params.get("notifications")
        return SubscriptionAcknowledged(
            sid if isinstance(sid, str | int) and not isinstance(sid, bool) else None,
            filt if isinstance(filt, dict) else {},
        )
    return None
