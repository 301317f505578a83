"""What connects, disconnects and sends, enabled in one place, for the current tab.

Disconnect and Send raw follow the connection state. While a recorded session is shown
instead of the live view nothing may connect: the Recent menu and all four actions are off
until the recording is closed, whatever the state does meanwhile (the tab turns its own
connection toolbar off). The window calls these again when another tab becomes current.
"""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from inspector.core.connection_state import ConnState

__all__ = ["ConnectionActions"]


class ConnectionActions:
    def __init__(
        self,
        connect: QAction,
        disconnect: QAction,
        reconnect: QAction,
        send_raw: QAction,
        recent: QMenu,
    ) -> None:
        self.connect = connect
        self.disconnect = disconnect
        self.reconnect = reconnect
        self.send_raw = send_raw
        self.recent = recent
        self.offline = False

    def state_changed(self, state: ConnState) -> None:
        live = not self.offline
        self.disconnect.setEnabled(live and state in (ConnState.CONNECTED, ConnState.CONNECTING))
        self.send_raw.setEnabled(live and state is ConnState.CONNECTED)

    def set_offline(self, offline: bool, state: ConnState) -> None:
        """A recording is shown (`offline`), or the live view is back."""
        self.offline = offline
        self.connect.setEnabled(not offline)
        self.reconnect.setEnabled(not offline)
        self.state_changed(state)
        self.recent_filled()

    def recent_filled(self) -> None:
        """The Recent menu was filled again: on when it has entries and nothing blocks it."""
        self.recent.setEnabled(not self.offline and not self.recent.isEmpty())
