"""The bottom panels: console, notifications, errors, tasks, auth, session controls."""

from inspector.ui.panels.errors_panel import ErrorsPanel
from inspector.ui.panels.notifications_panel import NotificationsPanel
from inspector.ui.panels.server_console import ServerConsole

__all__ = ["ErrorsPanel", "NotificationsPanel", "ServerConsole"]
