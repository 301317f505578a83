"""A catalog snapshot: everything one server offers at one moment, as plain JSON.

Built from a live session by listing every kind the server declares, all pages
(`snapshot_from_session`), or from a connection's already-loaded `Catalog`
(`snapshot_from_catalog`). A listing that fails half-way keeps the items it got and says
why in `errors`, so a side that died mid-listing still shows what it listed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from inspector.core.server_connection import RequestTimeout, ServerConnection, SessionError
from inspector.features.catalog.lists import KINDS, Catalog, CatalogKind
from inspector.features.catalog.loader import CAPABILITY_OF
from inspector.protocol.wire.errors import PaginationError
from inspector.protocol.wire.pagination import Paginator

__all__ = [
    "DOC_KEY",
    "IDENTITY",
    "LIST_METHOD",
    "CatalogSnapshot",
    "HasCatalog",
    "snapshot_from_catalog",
    "snapshot_from_connection",
    "snapshot_from_session",
]

log = logging.getLogger(__name__)

# kind -> the field that names an item (lists are matched by it, never by position)
IDENTITY: Final[dict[CatalogKind, str]] = {
    "tools": "name",
    "resources": "uri",
    "templates": "uriTemplate",
    "prompts": "name",
}
# kind -> (list method, the key of the items in its result)
LIST_METHOD: Final[dict[CatalogKind, tuple[str, str]]] = {
    "tools": ("tools/list", "tools"),
    "resources": ("resources/list", "resources"),
    "templates": ("resources/templates/list", "resourceTemplates"),
    "prompts": ("prompts/list", "prompts"),
}
# kind -> its key in the compared document (the words of the spec's list results)
DOC_KEY: Final[dict[CatalogKind, str]] = {k: v[1] for k, v in LIST_METHOD.items()}
MAX_PAGES: Final = 1000  # a server handing out fresh cursors forever stops here


@dataclass
class CatalogSnapshot:
    """What one server offers. Item lists are raw definitions in server order."""

    tools: list[dict[str, Any]] = field(default_factory=list)
    resources: list[dict[str, Any]] = field(default_factory=list)
    templates: list[dict[str, Any]] = field(default_factory=list)
    prompts: list[dict[str, Any]] = field(default_factory=list)
    server_info: dict[str, Any] = field(default_factory=dict)
    capabilities: dict[str, Any] = field(default_factory=dict)
    instructions: str | None = None
    protocol_version: str | None = None
    era: str | None = None  # "legacy" | "modern"; context, never a difference
    transport: str | None = None  # "stdio" | "http"; context
    errors: dict[str, str] = field(default_factory=dict)  # kind -> why its listing failed
    incomplete: dict[str, str] = field(default_factory=dict)  # kind -> why only part is here
    timed_out: bool = False  # a listing got no answer in time

    def items(self, kind: CatalogKind) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = getattr(self, kind)
        return items

    @property
    def complete(self) -> bool:
        return not self.errors and not self.incomplete

    def to_json(self) -> dict[str, Any]:
        return {
            "era": self.era,
            "protocolVersion": self.protocol_version,
            "transport": self.transport,
            "serverInfo": self.server_info,
            "capabilities": self.capabilities,
            "instructions": self.instructions,
            **{DOC_KEY[k]: self.items(k) for k in KINDS},
            "errors": dict(self.errors),
            "incomplete": dict(self.incomplete),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CatalogSnapshot:
        """The inverse of `to_json` (lenient: what is not the right type is left empty)."""

        def dicts(value: Any) -> list[dict[str, Any]]:
            return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []

        def mapping(value: Any) -> dict[str, Any]:
            return dict(value) if isinstance(value, dict) else {}

        def text(value: Any) -> str | None:
            return value if isinstance(value, str) else None

        snap = cls(
            server_info=mapping(data.get("serverInfo")),
            capabilities=mapping(data.get("capabilities")),
            instructions=text(data.get("instructions")),
            protocol_version=text(data.get("protocolVersion")),
            era=text(data.get("era")),
            transport=text(data.get("transport")),
            errors={str(k): str(v) for k, v in mapping(data.get("errors")).items()},
            incomplete={str(k): str(v) for k, v in mapping(data.get("incomplete")).items()},
        )
        for kind in KINDS:
            snap.items(kind).extend(dicts(data.get(DOC_KEY[kind])))
        return snap

    def counts(self) -> dict[str, int]:
        return {k: len(self.items(k)) for k in KINDS}


async def snapshot_from_session(
    session: ServerConnection, into: CatalogSnapshot | None = None
) -> CatalogSnapshot:
    """List every kind the server declares, every page. A failing kind keeps what it got
    (see `errors`); the other kinds are still listed. Raises nothing but cancellation;
    `into` (filled as the listing goes) keeps what was listed when the caller gives up."""
    snap = _with_header(into if into is not None else CatalogSnapshot(), session)
    for kind in KINDS:
        if CAPABILITY_OF[kind] not in session.server_capabilities:
            continue
        if session.closed is not None:
            snap.errors[kind] = f"not listed: the connection had ended ({session.closed.reason})"
            continue
        await _list_kind(session, kind, snap)
    return snap


async def _list_kind(session: ServerConnection, kind: CatalogKind, snap: CatalogSnapshot) -> None:
    method, key = LIST_METHOD[kind]
    pager = Paginator(method, key, max_pages=MAX_PAGES)
    items = snap.items(kind)
    # Stays if the caller gives up (a timeout cancels this): what is here is only a part.
    unfinished = f"{method}: the listing did not finish"
    snap.incomplete[kind] = unfinished
    try:
        while (params := pager.next_params()) is not None:
            if pager.pages >= MAX_PAGES:
                snap.incomplete[kind] = f"{method}: stopped after {MAX_PAGES} pages"
                return
            before = len(pager.items)
            pager.add_page(await session.request(method, params or None))
            items.extend(i for i in pager.items[before:] if isinstance(i, dict))
        del snap.incomplete[kind]
    except PaginationError as exc:
        snap.incomplete[kind] = str(exc)
    except SessionError as exc:
        del snap.incomplete[kind]
        snap.timed_out = snap.timed_out or isinstance(exc, RequestTimeout)
        text = str(exc) or type(exc).__name__
        snap.errors[kind] = text if text.startswith(method) else f"{method}: {text}"
        log.info("listing %s failed after %d item(s): %s", kind, len(items), text)
    finally:
        skipped = len(pager.items) - len(items)
        if skipped and snap.incomplete.get(kind) != unfinished:
            snap.incomplete.setdefault(kind, f"{method}: {skipped} item(s) were not JSON objects")


def _with_header(snap: CatalogSnapshot, session: ServerConnection) -> CatalogSnapshot:
    """`snap` with what `session` says of the server beside its lists: server info,
    capabilities, instructions, protocol version, era and transport."""
    snap.server_info = dict(session.server_info or {})
    snap.capabilities = dict(session.server_capabilities or {})
    snap.instructions = session.instructions
    snap.protocol_version = session.protocol_version
    snap.era = session.era.value
    snap.transport = session.transport_kind
    return snap


def snapshot_from_catalog(
    catalog: Catalog, session: ServerConnection | None = None
) -> CatalogSnapshot:
    """A snapshot of what a connection already listed (no request is sent), with the
    header of its live `session` when given. A list with more pages to load, a failed one
    or a stale one is marked incomplete."""
    snap = CatalogSnapshot() if session is None else _with_header(CatalogSnapshot(), session)
    for kind in KINDS:
        lst = catalog[kind]
        snap.items(kind).extend(item.raw for item in lst)
        if lst.error:
            snap.errors[kind] = lst.error
        elif lst.has_more:
            snap.incomplete[kind] = f"{lst.method}: more pages to load"
        elif lst.stale:
            snap.incomplete[kind] = f"{lst.method}: changed since it was listed"
    return snap


class HasCatalog(Protocol):
    """What a connection offers to be snapshotted (`app.ConnectionModel` fits)."""

    @property
    def catalog(self) -> Catalog: ...

    @property
    def server(self) -> ServerConnection | None: ...


def snapshot_from_connection(conn: HasCatalog) -> CatalogSnapshot:
    """A snapshot of what a connection has already listed, with its live session's server
    info, capabilities and instructions (none once it is disconnected). No request is
    sent; `snapshot_from_session(conn.server)` lists everything afresh."""
    return snapshot_from_catalog(conn.catalog, conn.server)
