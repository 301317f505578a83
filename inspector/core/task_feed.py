"""What a session says about tasks, fed to the connection's `TaskClient`.

A status notification updates a task, a `tools/call` answered with a task is adopted (the
Tasks panel follows it), and a ready session tells the client which task protocol the
server speaks. Only the connection's current session is heard: the events of a session
the user left must not touch the tasks of the new one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Final

from inspector.features.tasks import TaskClient
from inspector.protocol.machine.events import NotificationReceived, RequestCompleted, SessionReady
from inspector.session import Session

__all__ = ["TaskFeed"]

_TASK_NOTIFICATIONS: Final = frozenset({"notifications/tasks/status", "notifications/tasks"})


class TaskFeed:
    def __init__(self, client: TaskClient, current: Callable[[], Session | None]) -> None:
        self.client = client
        self._current = current

    def follow(self, session: Session) -> None:
        """Hear `session` from now on (called before it connects)."""
        session.add_listener(
            functools.partial(self._on_item, session), notifications=_TASK_NOTIFICATIONS
        )

    def _on_item(self, session: Session, item: object) -> None:
        if session is not self._current():
            return
        if isinstance(item, NotificationReceived):
            note = item.notification
            if note.method in _TASK_NOTIFICATIONS and isinstance(note.params, dict):
                self.client.on_status_notification(note.params)
        elif isinstance(item, RequestCompleted):
            if item.method == "tools/call" and ("task" in item.result or "taskId" in item.result):
                self.client.adopt(item.result, "tools/call")
        elif isinstance(item, SessionReady):
            self.client.attach(item.era, item.capabilities)
