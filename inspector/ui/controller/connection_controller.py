"""The connection controller: the Qt face of one `ConnectionModel`.

The model (inspector/core, Qt-free) holds the session, its stores and the connect logic,
and reports changes with listeners. Widgets want signals (queued across their lifetimes,
disconnected when they are destroyed), so this adapter turns each listener into the
signal widgets connect to, and passes their intents and reads on to the model under the
names they have always used. Widgets never touch the Session directly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from inspector.core.connection import ConnectionModel
from inspector.core.connection_state import ConnState
from inspector.core.recording import ConnectionRecording
from inspector.features.catalog.lists import Catalog
from inspector.features.catalog.loader import CatalogLoader
from inspector.features.catalog.pins import PinStore
from inspector.features.forms.argument_memory import ArgumentMemory
from inspector.features.providers.rows import exchange_records
from inspector.features.providers.types import ModelExchange
from inspector.features.resource_watch import ResourceWatches
from inspector.features.tasks import TaskClient, TaskStore
from inspector.session import Session
from inspector.settings.profiles import Profile
from inspector.traffic.error_store import ErrorStore
from inspector.traffic.log import TrafficLog
from inspector.traffic.log_messages import LogMessageStore
from inspector.traffic.rounds import RequestRounds
from inspector.ui.asks.gui_responder import GuiResponder

if TYPE_CHECKING:
    from inspector.settings.profile_auth import ProfileAuth  # built on first use

__all__ = ["ConnState", "ConnectionController"]


class ConnectionController(QObject):
    state_changed = Signal(str, str)  # ConnState value, detail sentence
    server_ready = Signal(object)  # SessionReady
    tools_changed = Signal()
    notice = Signal(str)  # a short sentence for the status bar
    catalog_relisted = Signal(str, object)  # kind, ListDiff: a re-list changed the list
    pins_changed = Signal()  # catalog_loader.pin_alerts changed
    session_started = Signal(object)  # Session: a new one, before it connects
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

    def _route_model_traffic(self, session: Session) -> None:
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
    def state(self) -> ConnState:
        return self.model.state

    @property
    def detail(self) -> str:
        return self.model.detail

    @property
    def connected(self) -> bool:
        return self.model.connected

    @property
    def profile(self) -> Profile | None:
        return self.model.profile

    @property
    def session(self) -> Session | None:
        return self.model.session

    @property
    def responder(self) -> GuiResponder | None:
        """The live session's dialogs (None without a session, or answered by policy)."""
        responder = self.model.responder
        return responder if isinstance(responder, GuiResponder) else None

    @property
    def auth(self) -> ProfileAuth:
        return self.model.auth

    # ---------------------------------------------------------------- its stores
    @property
    def traffic(self) -> TrafficLog:
        return self.model.traffic

    @property
    def messages(self) -> LogMessageStore:
        return self.model.messages

    @property
    def errors(self) -> ErrorStore:
        return self.model.errors

    @property
    def catalog(self) -> Catalog:
        return self.model.catalog

    @property
    def catalog_loader(self) -> CatalogLoader:
        return self.model.catalog_loader

    @property
    def pins(self) -> PinStore | None:
        return self.model.pins

    @property
    def watches(self) -> ResourceWatches:
        return self.model.watches

    @property
    def rounds(self) -> RequestRounds:
        return self.model.rounds

    @property
    def task_store(self) -> TaskStore:
        return self.model.task_store

    @property
    def tasks(self) -> TaskClient:
        """The task client (the Tasks panel and a tool run as a task use it)."""
        return self.model.tasks

    @property
    def recording(self) -> ConnectionRecording | None:
        return self.model.recording

    @property
    def tools(self) -> list[dict[str, Any]] | None:
        """The listed tools' raw definitions; None until the first listing ended."""
        return self.model.tools

    @property
    def tools_error(self) -> str | None:
        return self.model.tools_error

    # ---------------------------------------------------------------- intents
    def start(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run `coro` as a kept task; a failure is reported, never lost."""
        return self.model.start(coro, name)

    def connect_profile(self, profile: Profile) -> asyncio.Task[Any]:
        return self.model.connect_profile(profile)

    def disconnect_server(self) -> asyncio.Task[Any]:
        return self.model.disconnect_server()

    def reconnect(self) -> asyncio.Task[Any] | None:
        return self.model.reconnect()

    def send_raw(self, text: str) -> asyncio.Task[Any]:
        return self.model.send_raw(text)

    async def shutdown(self) -> None:
        await self.model.shutdown()

    def set_roots(self, roots: list[dict[str, Any]]) -> str:
        return self.model.set_roots(roots)

    def elapsed(self) -> float:
        return self.model.elapsed()
