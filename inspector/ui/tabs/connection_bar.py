"""The connection bar: profile picker, connect/disconnect/reconnect, and what we are
connected to (state, negotiated version, era, server name)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QPushButton, QWidget

from inspector.settings.profile_labels import distinct_labels
from inspector.settings.profiles import Profile
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["ConnectionBar"]

_STATE_TEXT = {
    ConnState.DISCONNECTED: "Disconnected",
    ConnState.CONNECTING: "Connecting…",
    ConnState.CONNECTED: "Connected",
    ConnState.DISCONNECTING: "Disconnecting…",
    ConnState.FAILED: "Could not connect",
    ConnState.LOST: "Server exited",
}


class ConnectionBar(QWidget):
    profile_chosen = Signal(str)  # profile id
    connect_clicked = Signal()
    disconnect_clicked = Signal()
    reconnect_clicked = Signal()
    profiles_clicked = Signal()
    send_raw_clicked = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("connectionBar")
        self.profile_combo = QComboBox()
        self.profile_combo.setObjectName("profileCombo")
        self.profile_combo.setMinimumWidth(200)
        # Long profile names must not widen the window: show about 28 characters.
        self.profile_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.profile_combo.setMinimumContentsLength(28)
        self.profile_combo.currentIndexChanged.connect(self._chosen)
        self.profiles_button = QPushButton("Profiles…")
        self.connect_button = QPushButton("Connect")
        self.connect_button.setObjectName("connectButton")
        self.disconnect_button = QPushButton("Disconnect")
        self.reconnect_button = QPushButton("Reconnect")
        self.send_raw_button = QPushButton("Send raw…")
        self.state_label = PlainLabel("Disconnected")
        self.state_label.setObjectName("stateLabel")
        bold = self.state_label.font()
        bold.setBold(True)
        self.state_label.setFont(bold)
        self.version_label = PlainLabel()
        self.era_label = PlainLabel()
        self.server_label = ElidedLabel()
        self.server_label.setObjectName("serverLabel")
        self.profiles_button.clicked.connect(self.profiles_clicked)
        self.connect_button.clicked.connect(self.connect_clicked)
        self.disconnect_button.clicked.connect(self.disconnect_clicked)
        self.reconnect_button.clicked.connect(self.reconnect_clicked)
        self.send_raw_button.clicked.connect(self.send_raw_clicked)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(PlainLabel("Server:"))
        layout.addWidget(self.profile_combo)
        layout.addWidget(self.profiles_button)
        layout.addWidget(self.connect_button)
        layout.addWidget(self.disconnect_button)
        layout.addWidget(self.reconnect_button)
        layout.addSpacing(12)
        layout.addWidget(self.state_label)
        layout.addWidget(self.version_label)
        layout.addWidget(self.era_label)
        layout.addWidget(self.server_label, 1)
        layout.addWidget(self.send_raw_button)
        self.set_state(ConnState.DISCONNECTED, "")

    # ---------------------------------------------------------------- profiles
    def set_profiles(self, profiles: list[Profile], current_id: str | None) -> None:
        self.profile_combo.blockSignals(True)
        self.profile_combo.clear()
        labels = [
            profile.name
            + (
                "  (HTTP)"
                if profile.transport == "http" and "http" not in profile.name.lower()
                else ""
            )
            for profile in profiles
        ]
        for profile, label in zip(profiles, distinct_labels(profiles, labels), strict=True):
            self.profile_combo.addItem(label, profile.id)
        index = self.profile_combo.findData(current_id) if current_id else 0
        self.profile_combo.setCurrentIndex(max(0, index))
        self.profile_combo.blockSignals(False)

    def show_source(self, text: str) -> None:
        """What a read-only tab shows instead of a profile (a recording, a followed tap):
        the Server box names it, as its only entry (no profile is picked)."""
        self.profile_combo.blockSignals(True)
        self.profile_combo.clear()
        self.profile_combo.addItem(text, None)
        self.profile_combo.blockSignals(False)

    def current_profile_id(self) -> str | None:
        data = self.profile_combo.currentData()
        return data if isinstance(data, str) else None

    def _chosen(self, _index: int) -> None:
        profile_id = self.current_profile_id()
        if profile_id is not None:
            self.profile_chosen.emit(profile_id)

    # ---------------------------------------------------------------- state
    def set_state(self, state: ConnState, detail: str) -> None:
        busy = state in (ConnState.CONNECTING, ConnState.DISCONNECTING)
        connected = state is ConnState.CONNECTED
        self._can_connect = not busy
        self.connect_button.setEnabled(not busy)
        self.disconnect_button.setEnabled(connected or state is ConnState.CONNECTING)
        self.reconnect_button.setEnabled(not busy and state is not ConnState.DISCONNECTED)
        self.send_raw_button.setEnabled(connected)
        self.state_label.setText(_STATE_TEXT[state])
        c = colors()
        color = {
            ConnState.CONNECTED: c.ok,
            ConnState.CONNECTING: c.warn,
            ConnState.DISCONNECTING: c.warn,
            ConnState.FAILED: c.error,
            ConnState.LOST: c.error,
        }.get(state)
        self.state_label.setStyleSheet(f"color: {color.name()}" if color is not None else "")
        if state in (ConnState.CONNECTED, ConnState.DISCONNECTING):
            return  # what is connected stays until the connection has ended
        # Connecting, failed, lost or disconnected: nothing is connected, so no protocol,
        # era or server name of an earlier session may remain.
        self.version_label.setText("")
        self.era_label.setText("")
        self.server_label.setText("" if state is ConnState.DISCONNECTED else detail)

    def set_server(self, name: str, version: str, era: str) -> None:
        self.version_label.setText(f"protocol {version}")
        self.era_label.setText(f"{era} era")
        self.server_label.setText(name)
