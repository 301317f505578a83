"""The connection controller: the Qt face of one `ConnectionModel`, a signal bridge.

The model (inspector/core, Qt-free) holds the session, its stores and the connect logic,
and reports changes with listeners. Widgets want signals (queued across their lifetimes,
disconnected when they are destroyed), so this adapter turns each listener into the
signal widgets connect to. Everything else widgets reach through `model`: its stores and
intents (`controller.model.traffic`, `controller.model.connect_profile(...)`), and the
server's request API (`controller.model.ready_server()`, a `ServerConnection`). Widgets
never touch the Session.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from inspector.core.connection import ConnectionModel
from inspector.core.connection_state import ConnState
from inspector.core.server_connection import ServerConnection
from inspector.features.forms.argument_memory import ArgumentMemory
from inspector.features.providers.rows import exchange_records
from inspector.features.providers.types import ModelExchange
from inspector.ui.asks.gui_responder import GuiResponder

__all__ = ["ConnState", "ConnectionController"]


class ConnectionController(QObject):
    state_changed = Signal(str, str)  # ConnState value, detail sentence
    server_ready = Signal(object)  # SessionReady
    tools_changed = Signal()
    notice = Signal(str)  # a short sentence for the status bar
    catalog_relisted = Signal(str, object)  # kind, ListDiff: a re-list changed the list
    pins_changed = Signal()  # catalog_loader.pin_alerts changed
    session_started = Signal(object)  # ServerConnection: a new one, before it connects
    console_line = Signal(str)  # for the server console (stderr, connect and disconnect)

    def __init__(self, model: ConnectionModel, arguments: ArgumentMemory) -> None:
        """`arguments`: the app's remembered arguments (the tool views fill forms from it)."""
        super().__init__()
        self.model = model
        self.arguments = arguments
        model.state_changed.add(self._state_changed)
        model.server_ready.add(self.server_ready.emit)
        model.tools_changed.add(self.tools_changed.emit)
        model.notice.add(self.notice.emit)
        model.relisted.add(self.catalog_relisted.emit)
        model.catalog_loader.pins_changed.add(self.pins_changed.emit)
        model.session_started.add(self.session_started.emit)
        model.session_started.add(self._route_model_traffic)
        model.console.add(self.console_line.emit)

    def _route_model_traffic(self, session: ServerConnection) -> None:
        """The model exchanges of this session's sampling dialogs go to its traffic (the log
        shows them as `model` rows and the recording keeps them)."""
        responder = self.responder
        if responder is None:
            return

        def report(exchange: ModelExchange) -> None:
            for record in exchange_records(exchange):
                session.report_side_traffic(record)

        responder.model_exchanges.add(report)

    def _state_changed(self, state: ConnState, detail: str) -> None:
        self.state_changed.emit(state.value, detail)

    # ---------------------------------------------------------------- the connection
    @property
    def responder(self) -> GuiResponder | None:
        """The live session's dialogs (None without a session, or answered by policy)."""
        responder = self.model.responder
        return responder if isinstance(responder, GuiResponder) else None
