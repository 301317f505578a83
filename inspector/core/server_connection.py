"""The one way to reach a server: `ServerConnection`, one session with one server and every
request the inspector sends it, and `open_connection` / `connected`, its headless
constructor (profile + secrets + responder -> a connected object).

Everything that talks to a server goes through a `ServerConnection`: the GUI (its
`ConnectionModel` holds one per session, `ConnectionModel.server`), and every headless
command (`cli`, `test`, `diff`, `replay`, `watch`, `check`, the conformance client).
Its methods are the request API: lists, tool calls, prompts, reads, subscriptions,
completions, ping, the log level, any method by name (`request`), and the raw channel
(`send_raw`: a message exactly as written, for the composer and for `check`'s deliberately
malformed ones). `McpClient` (inspector/session/client.py) underneath knows each protocol
era's spelling of a request; a new kind of request gets a method here and, if the eras spell
it differently, one in `McpClient`.

This is the only module that constructs a `Session` (tests/architecture checks it). The
floors above the connection floor (ui, cli, compare, collections, watch) do not import the
session floor: the names they need (`Call`, the request errors, responders) are re-exported
here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Collection
from typing import TYPE_CHECKING, Any

from inspector.common.listeners import Unsubscribe
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.machine.events import ProgressUpdate, SessionReady
from inspector.protocol.wire.versions import Era
from inspector.session import (
    AskRejected,
    Call,
    ConnectError,
    ConnectionClosed,
    ConnectTimeout,
    InputRejected,
    NotSentAgain,
    PolicyResponder,
    ProgressCallback,
    ProtocolFailure,
    RequestCancelled,
    RequestError,
    RequestNotAllowed,
    RequestTimeout,
    Responder,
    ServerError,
    Session,
    SessionError,
    SessionItem,
    SessionListener,
    TransportFailure,
    load_answers,
)
from inspector.session.call import Timeout
from inspector.session.client import CallOptions, tool_call_params
from inspector.session.expiry import SAFE_TO_REPLAY
from inspector.settings.connect import client_config_for, roots_for, transport_for
from inspector.settings.profiles import Profile
from inspector.traffic.record import TrafficBatchObserver, TrafficObserver, TrafficRecord
from inspector.transports.base import Transport, TransportClosed

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from inspector.auth import OAuth
    from inspector.storage.secrets import SecretStore

__all__ = [
    "SAFE_TO_REPLAY",
    "AskRejected",
    "Call",
    "CallOptions",
    "ConnectError",
    "ConnectTimeout",
    "ConnectionClosed",
    "InputRejected",
    "NotSentAgain",
    "PolicyResponder",
    "ProgressCallback",
    "ProgressUpdate",
    "ProtocolFailure",
    "RequestCancelled",
    "RequestError",
    "RequestNotAllowed",
    "RequestTimeout",
    "Responder",
    "ServerConnection",
    "ServerError",
    "SessionError",
    "SessionItem",
    "SessionListener",
    "TransportFailure",
    "close_within",
    "connected",
    "connection_for",
    "load_answers",
    "open_connection",
    "tool_call_params",
]

CLOSE_WAIT = 10.0  # seconds a headless command waits for a connection to close


class ServerConnection:
    """One session with one server (not connected until `connect`), and its request API.

    Requests raise what the session floor raises (`SessionError` and its kinds, re-exported
    here). A `start_*` method returns the `Call` at once (progress, cancel); its plain form
    awaits the result."""

    def __init__(
        self,
        transport: Transport,
        config: ClientConfig | None = None,
        responder: Responder | None = None,
    ) -> None:
        self.session = Session(transport, config, responder)

    # ------------------------------------------------------------------ lifecycle
    async def connect(self, timeout: float | None = None) -> SessionReady:
        """Start the transport and run the handshake. Raises `ConnectError` (or its
        `ConnectTimeout`)."""
        return await self.session.connect(timeout=timeout)

    async def reinitialize(self, timeout: float | None = 30.0) -> SessionReady:
        """A new handshake on the same transport (the server lost the session)."""
        return await self.session.reinitialize(timeout)

    async def close(self) -> None:
        """Shut the server down (the transport's ladder) and fail what is pending."""
        await self.session.close()

    async def __aenter__(self) -> ServerConnection:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def auto_reinitialize(self) -> bool:
        """On HTTP 404 for the session, start one new session by itself."""
        return self.session.auto_reinitialize

    @auto_reinitialize.setter
    def auto_reinitialize(self, value: bool) -> None:
        self.session.auto_reinitialize = value

    @property
    def responder(self) -> Responder:
        """What answers the server's asks (sampling, elicitation, roots)."""
        return self.session.responder

    @responder.setter
    def responder(self, value: Responder) -> None:
        self.session.responder = value

    # ------------------------------------------------------------------ state
    @property
    def era(self) -> Era:
        return self.session.era

    @property
    def transport_kind(self) -> str:
        return self.session.transport_kind

    @property
    def protocol_version(self) -> str | None:
        return self.session.protocol_version

    @property
    def server_info(self) -> dict[str, Any]:
        return self.session.server_info

    @property
    def server_capabilities(self) -> dict[str, Any]:
        return self.session.server_capabilities

    @property
    def instructions(self) -> str | None:
        return self.session.instructions

    @property
    def ready_info(self) -> SessionReady | None:
        """What the handshake said (None before it ended)."""
        return self.session.ready_info

    @property
    def is_ready(self) -> bool:
        return self.session.is_ready

    @property
    def closed(self) -> TransportClosed | None:
        """Set once the transport has ended (with the reason and the server's last stderr)."""
        return self.session.closed

    @property
    def session_expired(self) -> str | None:
        """Why the server no longer knows the session (HTTP 404), if it said so."""
        return self.session.session_expired

    # ------------------------------------------------------------------ observers
    def add_listener(
        self, listener: SessionListener, *, notifications: Collection[str] | None = None
    ) -> Unsubscribe:
        """What the session hears (notifications, stderr, asks, its end)."""
        return self.session.add_listener(listener, notifications=notifications)

    def add_traffic_observer(
        self, observer: TrafficObserver, many: TrafficBatchObserver | None = None
    ) -> Unsubscribe:
        """Every frame both ways, valid or not (the log, the recorder, lint)."""
        return self.session.add_traffic_observer(observer, many)

    def report_side_traffic(self, record: TrafficRecord) -> None:
        """A row beside MCP for this session's log and recording (a model exchange, a note)."""
        self.session.report_side_traffic(record)

    # ------------------------------------------------------------------ lists
    async def list_all(
        self, method: str, items_key: str, params: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Every page of a list method (follows nextCursor; stops on loops)."""
        return await self.session.client.list_all(method, items_key, params)

    async def list_tools(self) -> list[dict[str, Any]]:
        return await self.session.client.list_tools()

    async def list_tools_page(self, cursor: str | None = None) -> dict[str, Any]:
        """One page of tools/list, as the server sent it."""
        return await self.session.client.list_tools_page(cursor)

    @property
    def excluded_tools(self) -> dict[str, str]:
        """Tools left out of tools/list (modern HTTP, invalid x-mcp-header), with why."""
        return self.session.client.excluded_tools

    @property
    def mirrors_tool_headers(self) -> bool:
        """Whether x-mcp-header tool arguments go out as Mcp-Param-* headers (modern HTTP)."""
        return self.session.client.mirrors_tool_headers

    async def list_resources(self) -> list[dict[str, Any]]:
        return await self.session.client.list_resources()

    async def list_resource_templates(self) -> list[dict[str, Any]]:
        return await self.session.client.list_resource_templates()

    async def list_prompts(self) -> list[dict[str, Any]]:
        return await self.session.client.list_prompts()

    # ------------------------------------------------------------------ tools
    def start_tool_call(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        on_progress: ProgressCallback | None = None,
        timeout: Timeout = "default",
        override: bool = False,
        extra: dict[str, Any] | None = None,
    ) -> Call:
        """tools/call as a Call. `extra` adds top-level params (e.g. `task`, to run the call
        as a task)."""
        return self.session.client.start_tool_call(
            name,
            arguments,
            on_progress=on_progress,
            timeout=timeout,
            override=override,
            extra=extra,
        )

    async def call_tool(
        self, name: str, arguments: dict[str, Any] | None = None, **options: Unpack[CallOptions]
    ) -> dict[str, Any]:
        """tools/call, awaited (over modern HTTP, the tool's definition is learnt first)."""
        return await self.session.client.call_tool(name, arguments, **options)

    def request_id(self, call: Call) -> str | int | None:
        """The JSON-RPC id `call` went out under (its latest round), to find its rows in the
        traffic log; None once it is over."""
        return self.session.conn.wire_id_of(call.key)

    async def tool_definition(self, name: str) -> dict[str, Any] | None:
        """The tool's definition (its outputSchema, to check a result against): as last
        listed in this session, else from a listing of every page (once per name)."""
        return await self.session.client.tool_definition(name)

    async def learn_tool(self, name: str) -> None:
        """Modern HTTP: know the tool's x-mcp-header arguments before calling it."""
        await self.session.client.learn_tool(name)

    # ------------------------------------------------------------------ resources
    def start_read_resource(self, uri: str, *, override: bool = False) -> Call:
        return self.session.client.start_read_resource(uri, override=override)

    async def read_resource(self, uri: str, *, override: bool = False) -> dict[str, Any]:
        return await self.session.client.read_resource(uri, override=override)

    def subscribe(self, uri: str) -> Call:
        """Watch a resource (legacy resources/subscribe; modern: a listen stream to cancel)."""
        return self.session.client.subscribe(uri)

    def unsubscribe(self, uri: str) -> Call:
        """Legacy only: resources/unsubscribe."""
        return self.session.client.unsubscribe(uri)

    def listen(self, notifications: dict[str, Any]) -> Call:
        """Modern: a subscriptions/listen stream with this filter."""
        return self.session.client.listen(notifications)

    # ------------------------------------------------------------------ prompts
    def start_get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, *, override: bool = False
    ) -> Call:
        return self.session.client.start_get_prompt(name, arguments, override=override)

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, *, override: bool = False
    ) -> dict[str, Any]:
        return await self.session.client.get_prompt(name, arguments, override=override)

    # ------------------------------------------------------------------ completion
    def start_complete(
        self,
        ref: dict[str, Any],
        argument_name: str,
        value: str,
        context_arguments: dict[str, str] | None = None,
        *,
        override: bool = False,
    ) -> Call:
        return self.session.client.start_complete(
            ref, argument_name, value, context_arguments, override=override
        )

    async def complete(
        self,
        ref: dict[str, Any],
        argument_name: str,
        value: str,
        context_arguments: dict[str, str] | None = None,
        *,
        override: bool = False,
    ) -> dict[str, Any]:
        return await self.session.client.complete(
            ref, argument_name, value, context_arguments, override=override
        )

    # ------------------------------------------------------------------ ping, logging
    def start_ping(self) -> Call:
        return self.session.client.start_ping()

    async def ping(self) -> dict[str, Any]:
        return await self.session.client.ping()

    async def set_log_level(self, level: str) -> dict[str, Any]:
        """Legacy: logging/setLevel. Modern: the level rides in every request's _meta."""
        return await self.session.client.set_log_level(level)

    def clear_log_level(self) -> bool:
        """Stop asking for logs where the protocol can (modern: True); legacy cannot unset
        logging/setLevel (False, nothing sent)."""
        return self.session.client.clear_log_level()

    # ------------------------------------------------------------------ any method
    def start_request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: Timeout = "default",
        on_progress: ProgressCallback | None = None,
        override: bool = False,
    ) -> Call:
        """Any method by name (tasks/*, server/discover, a probe), paired and timed like
        the others. Prefer a named method above when there is one."""
        return self.session.start_request(
            method, params, timeout=timeout, on_progress=on_progress, override=override
        )

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: Timeout = "default",
        on_progress: ProgressCallback | None = None,
        override: bool = False,
    ) -> dict[str, Any]:
        return await self.start_request(
            method, params, timeout=timeout, on_progress=on_progress, override=override
        ).result()

    # ------------------------------------------------------------------ tasks
    # The tasks extension: legacy servers declare it (capabilities.tasks), modern ones
    # answer per request; `override` sends past the core capability check (modern: the
    # extension's methods are not core requests). `TaskClient` (features/tasks.py) keeps
    # the tasks and their polling over these.
    async def list_tasks(self) -> list[dict[str, Any]]:
        """Legacy tasks/list, every page."""
        return await self.session.client.list_all("tasks/list", "tasks")

    async def get_task(self, task_id: str, *, override: bool = False) -> dict[str, Any]:
        return await self.request("tasks/get", {"taskId": task_id}, override=override)

    async def task_result(self, task_id: str, *, override: bool = False) -> dict[str, Any]:
        """Legacy tasks/result: blocks until the task ends (no timeout: it may take long)."""
        return await self.request(
            "tasks/result", {"taskId": task_id}, timeout=None, override=override
        )

    async def cancel_task(self, task_id: str, *, override: bool = False) -> dict[str, Any]:
        return await self.request("tasks/cancel", {"taskId": task_id}, override=override)

    async def update_task(
        self, task_id: str, input_responses: dict[str, Any], *, override: bool = False
    ) -> dict[str, Any]:
        """Modern tasks/update: the answers to a task's input requests."""
        params = {"taskId": task_id, "inputResponses": input_responses}
        return await self.request("tasks/update", params, override=override)

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        """A client notification (e.g. notifications/roots/list_changed)."""
        self.session.notify(method, params)

    # ------------------------------------------------------------------ the raw channel
    async def send_raw(self, text: str) -> Call | None:
        """The raw channel: send `text` exactly as written (one line), valid or not; a
        request in it is paired and returns a Call. The composer's hand-written messages
        and the deliberately malformed ones go here; nothing checks them first."""
        return await self.session.send_raw(text)

    def fresh_id(self) -> int:
        """A request id no request in flight uses, for a message written by hand."""
        return self.session.fresh_id()

    @property
    def client_info(self) -> dict[str, Any]:
        return self.session.client_info

    @property
    def client_capabilities(self) -> dict[str, Any]:
        return self.session.client_capabilities


# ---------------------------------------------------------------------- headless
def connection_for(
    profile: Profile,
    secrets: SecretStore | None = None,
    responder: Responder | None = None,
    *,
    oauth: OAuth | None = None,
    transport: Transport | None = None,
    config: ClientConfig | None = None,
) -> ServerConnection:
    """A connection to `profile`'s server, not connected yet: its transport from the profile
    (or `transport`), its client config from the profile (or `config`), its asks answered by
    `responder` (None: by policy, with the profile's roots). Raises `SetupError` when the
    profile cannot give a transport."""
    if transport is None:
        transport = transport_for(profile, secrets, oauth=oauth)
    return ServerConnection(
        transport,
        config if config is not None else client_config_for(profile),
        responder if responder is not None else PolicyResponder({}, roots_for(profile)),
    )


async def open_connection(
    profile: Profile,
    secrets: SecretStore | None = None,
    responder: Responder | None = None,
    *,
    timeout: float | None,
    before_connect: Callable[[ServerConnection], None] | None = None,
    oauth: OAuth | None = None,
    transport: Transport | None = None,
    config: ClientConfig | None = None,
) -> ServerConnection:
    """A connected `ServerConnection` (the other arguments: `connection_for`). Nothing is
    sent but the handshake. `before_connect` sees it first (to observe its traffic). Raises
    `SetupError` (or the transport's error), or `ConnectError` / `ConnectTimeout`: then the
    connection is closed first (given `CLOSE_WAIT` seconds)."""
    conn = connection_for(
        profile, secrets, responder, oauth=oauth, transport=transport, config=config
    )
    if before_connect is not None:
        before_connect(conn)
    try:
        await conn.connect(timeout)
    except BaseException:
        await close_within(conn)
        raise
    return conn


async def close_within(conn: ServerConnection, seconds: float = CLOSE_WAIT) -> None:
    """Close `conn`, giving up after `seconds` (a headless command must end)."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(conn.close(), seconds)


@contextlib.asynccontextmanager
async def connected(
    profile: Profile,
    secrets: SecretStore | None = None,
    responder: Responder | None = None,
    *,
    timeout: float | None,
    before_connect: Callable[[ServerConnection], None] | None = None,
    oauth: OAuth | None = None,
    transport: Transport | None = None,
    config: ClientConfig | None = None,
) -> AsyncIterator[ServerConnection]:
    """`open_connection` as `async with`: closed when the block ends (`close_within`)."""
    conn = await open_connection(
        profile,
        secrets,
        responder,
        timeout=timeout,
        before_connect=before_connect,
        oauth=oauth,
        transport=transport,
        config=config,
    )
    try:
        yield conn
    finally:
        await close_within(conn)
