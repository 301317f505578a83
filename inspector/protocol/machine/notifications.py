"""Turn a server notification into its typed view. Unknown or malformed ones stay untyped."""

from __future__ import annotations

from typing import Any

from inspector.protocol.machine.events import (
    ListChanged,
    LogMessage,
    ProgressUpdate,
    ResourceUpdated,
    ServerCancelled,
    SubscriptionAcknowledged,
    TypedNotification,
)
from inspector.protocol.wire.jsonrpc import Notification

__all__ = ["type_notification"]

_LIST_CHANGED = {
    "notifications/tools/list_changed": "tools",
    "notifications/resources/list_changed": "resources",
    "notifications/prompts/list_changed": "prompts",
}


def _as_float(value: Any) -> float | None:
    """A JSON number as a float; None when it is not one, or an integer beyond a double."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        return float(value)
    except OverflowError:
        return None


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
        value = _as_float(progress)
        if value is None:
            return None
        has_total = isinstance(total, int | float) and not isinstance(total, bool)
        total_value = _as_float(total) if has_total else None
        if has_total and total_value is None:
            return None  # an integer beyond a double: kept untyped, flagged by the caller
        return ProgressUpdate(
            token, value, total_value, message if isinstance(message, str) else None, None
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
