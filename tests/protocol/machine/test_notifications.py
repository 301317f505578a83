"""Server notifications become typed events; odd ones stay visible, flagged."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.protocol.machine.events import (
    ListChanged,
    LogMessage,
    NotificationReceived,
    ProgressUpdate,
    ProtocolViolation,
    ResourceUpdated,
    ServerCancelled,
    SubscriptionAcknowledged,
)
from inspector.protocol.machine.notifications import type_notification
from inspector.protocol.wire.jsonrpc import Notification
from tests.helpers.fake_server import META, legacy_session, modern_session, of_type, one


def typed(method: str, params: dict[str, Any] | None = None) -> object:
    return type_notification(Notification(method, params))


@pytest.mark.parametrize("session", [legacy_session, modern_session])
@pytest.mark.parametrize("name", ["tools", "resources", "prompts"])
def test_list_changed(session: Any, name: str) -> None:
    _, server = session()
    events = server.notify(f"notifications/{name}/list_changed")
    received = one(events, NotificationReceived)
    assert received.typed == ListChanged(name)  # type: ignore[arg-type]
    assert received.notification == Notification(f"notifications/{name}/list_changed")
    assert of_type(events, ProtocolViolation) == []


def test_resource_updated() -> None:
    _, server = legacy_session()
    events = server.notify("notifications/resources/updated", {"uri": "file:///log.txt"})
    assert one(events, NotificationReceived).typed == ResourceUpdated("file:///log.txt")


def test_log_message() -> None:
    _, server = legacy_session()
    events = server.notify(
        "notifications/message", {"level": "warning", "logger": "db", "data": {"rows": 3}}
    )
    assert one(events, NotificationReceived).typed == LogMessage("warning", "db", {"rows": 3})


def test_progress_names_the_request() -> None:
    conn, server = modern_session()
    key = conn.send_request("tools/call", {"name": "slow"}, now=0.0, progress=True)
    req = server.last_request("tools/call")
    assert req.params is not None
    token = req.params["_meta"]["progressToken"]
    events = server.notify(
        "notifications/progress",
        {"progressToken": token, "progress": 3, "total": 10, "message": "3 of 10"},
    )
    update = one(events, NotificationReceived).typed
    assert update == ProgressUpdate(token, 3.0, 10.0, "3 of 10", key)
    assert of_type(events, ProtocolViolation) == []


@pytest.mark.parametrize("token", ["never-issued", 42])
def test_progress_with_an_unknown_token_is_flagged(token: str | int) -> None:
    _, server = legacy_session()
    events = server.notify("notifications/progress", {"progressToken": token, "progress": 1})
    update = one(events, NotificationReceived).typed
    assert isinstance(update, ProgressUpdate)
    assert update.request_key is None
    violation = one(events, ProtocolViolation)
    assert violation.rule == "progress-token"
    assert repr(token) in violation.message


def test_progress_after_the_request_ended_is_flagged() -> None:
    conn, server = legacy_session()
    conn.send_request("tools/call", {"name": "x"}, now=0.0, progress=True)
    req = server.last_request("tools/call")
    assert req.params is not None
    token = req.params["_meta"]["progressToken"]
    server.reply(req, {"content": []})
    events = server.notify("notifications/progress", {"progressToken": token, "progress": 1})
    assert one(events, ProtocolViolation).rule == "progress-token"


def test_cancelled_is_typed() -> None:
    _, server = legacy_session()
    events = server.notify("notifications/cancelled", {"requestId": 12, "reason": "shutdown"})
    assert one(events, NotificationReceived).typed == ServerCancelled(12, "shutdown")


def test_subscription_acknowledged_names_the_listen_request() -> None:
    conn, server = modern_session()
    key = conn.send_request(
        "subscriptions/listen", {"notifications": {"toolsListChanged": True}}, now=0.0
    )
    listen = server.last_request("subscriptions/listen")
    events = server.notify(
        "notifications/subscriptions/acknowledged",
        {
            "_meta": {META + "subscriptionId": listen.id},
            "notifications": {"toolsListChanged": True},
        },
    )
    ack = one(events, NotificationReceived).typed
    assert ack == SubscriptionAcknowledged(listen.id, {"toolsListChanged": True}, key)
    assert of_type(events, ProtocolViolation) == []


def test_unknown_notification_is_shown_and_flagged() -> None:
    _, server = legacy_session("2025-06-18")
    events = server.notify("notifications/vendor/thing", {"x": 1})
    received = one(events, NotificationReceived)
    assert received.typed is None
    assert received.notification.params == {"x": 1}
    violation = one(events, ProtocolViolation)
    assert violation.rule == "unknown-notification"
    assert "2025-06-18" in violation.message


@pytest.mark.parametrize(
    ("session", "method"),
    [
        (legacy_session, "notifications/subscriptions/acknowledged"),
        (modern_session, "notifications/tasks/status"),
    ],
)
def test_notification_of_another_version_is_flagged(session: Any, method: str) -> None:
    _, server = session()
    events = server.notify(method, {"notifications": {}})
    assert one(events, ProtocolViolation).rule == "unknown-notification"


def test_notification_received_comes_first() -> None:
    _, server = legacy_session()
    events = server.notify("notifications/progress", {"progressToken": "zz", "progress": 1})
    assert isinstance(events[0], NotificationReceived)


# ----------------------------------------------------------- malformed params
@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("notifications/resources/updated", {}),
        ("notifications/resources/updated", {"uri": 5}),
        ("notifications/progress", {"progress": 1}),
        ("notifications/progress", {"progressToken": True, "progress": 1}),
        ("notifications/progress", {"progressToken": "t", "progress": "half"}),
        ("notifications/progress", {"progressToken": "t", "progress": False}),
        ("notifications/unknown", None),
    ],
)
def test_malformed_params_stay_untyped(method: str, params: dict[str, Any] | None) -> None:
    assert typed(method, params) is None


def test_odd_fields_get_safe_defaults() -> None:
    assert typed("notifications/message", {"data": "x"}) == LogMessage("info", None, "x")
    assert typed("notifications/message", None) == LogMessage("info", None, None)
    assert typed(
        "notifications/progress", {"progressToken": 1, "progress": 0.5, "total": True}
    ) == ProgressUpdate(1, 0.5, None, None, None)
    assert typed("notifications/cancelled", {"requestId": True}) == ServerCancelled(None, None)
    assert typed("notifications/subscriptions/acknowledged", {"notifications": 3}) == (
        SubscriptionAcknowledged(None, {})
    )
