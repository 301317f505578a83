"""A recorded session as the stores the live window shows: the offline view's model.

`load_offline(recorded)` feeds the file's events into a fresh `TrafficLog` (one
`TrafficRecord` per line, keeping direction, times, the raw text, notes and HTTP
exchanges, so pairing, latency, filters and the detail pane work as they do live),
rebuilds the `Catalog` from the recorded tools/resources/templates/prompts list results,
collects the stderr lines, the handshake outcome (`ready`), the user's actions, the
Playground's conversations (`conversation` lines), the logging notifications, and
everything wrong with the file or the traffic.

Qt-free, and cheap enough to run in a worker thread for a big file.
"""

from __future__ import annotations

import json
from array import array
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.features.catalog.lists import KIND_OF_LIST, Catalog, CatalogKind
from inspector.lint.finding import Finding, LintStore
from inspector.protocol.machine.events import SessionReady
from inspector.protocol.wire.jsonrpc import (
    ErrorResponse,
    Invalid,
    Notification,
    Request,
    Response,
    parse_frame,
)
from inspector.protocol.wire.versions import Era
from inspector.recording.reader import RecordedEvent, RecordedSession
from inspector.traffic.error_store import ErrorStore
from inspector.traffic.log import TrafficLog
from inspector.traffic.log_messages import LogMessageStore
from inspector.traffic.record import DIRECTIONS, KINDS, EntryKind, TrafficRecord, kind_of
from inspector.traffic.rounds import RequestRounds
from inspector.transports.base import HttpExchange

__all__ = [
    "OfflineLoader",
    "OfflineSession",
    "RecordedAction",
    "RecordedConversation",
    "load_offline",
    "ready_of",
]

_LIST_CHANGED: Final = {
    "notifications/tools/list_changed": "tools",
    "notifications/resources/list_changed": "resources",
    "notifications/prompts/list_changed": "prompts",
}
_EXCHANGE_FIELDS: Final = (
    "request_headers",
    "response_headers",
    "content_type",
    "note",
    "body_excerpt",
)


@dataclass(frozen=True)
class RecordedAction:
    t: float
    wall: float
    text: str


@dataclass(frozen=True)
class RecordedConversation:
    """A Playground conversation kept in the file (its last line of that `id`): the raw
    JSON, read by the Playground (a broken or newer one is said there, not here)."""

    id: str
    data: Any  # Conversation.to_json(), as written (or whatever a damaged line holds)
    wall: float


@dataclass
class OfflineSession:
    recorded: RecordedSession
    traffic: TrafficLog
    catalog: Catalog
    messages: LogMessageStore
    errors: ErrorStore
    stderr: list[str] = field(default_factory=list)
    ready: SessionReady | None = None
    actions: list[RecordedAction] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # the reader's problems and ours
    lint: LintStore = field(default_factory=LintStore)  # the recorded lint findings
    rounds: RequestRounds | None = None  # the MRTR rounds, grouped from the frames
    conversations: dict[str, RecordedConversation] = field(default_factory=dict)  # by id

    @property
    def title(self) -> str:
        """How the view names the session: the profile name, else the server or file."""
        name = self.recorded.connection.get("name")
        if isinstance(name, str) and name:
            return name
        if self.ready is not None:
            server = self.ready.server_info.get("name")
            if isinstance(server, str) and server:
                return server
        return self.recorded.path.name


_TRAFFIC_LINES: Final = frozenset({"frame", "stderr", "http", "note", "model"})


def ready_of(data: dict[str, Any]) -> SessionReady | None:
    """The `ready` line as the live session's SessionReady (None if it is unusable)."""
    try:
        era = Era(str(data.get("era", "legacy")))
    except ValueError:
        era = Era.LEGACY
    info = data.get("server_info")
    caps = data.get("capabilities")
    instructions = data.get("instructions")
    result = data.get("result")
    return SessionReady(
        era=era,
        protocol_version=str(data.get("protocol_version") or "?"),
        server_info=info if isinstance(info, dict) else {},
        capabilities=caps if isinstance(caps, dict) else {},
        instructions=instructions if isinstance(instructions, str) else None,
        result=result if isinstance(result, dict) else None,
    )


def _exchange(data: Any) -> HttpExchange | None:
    if not isinstance(data, dict):
        return None
    status = data.get("status")
    fields: dict[str, Any] = {}
    for name in _EXCHANGE_FIELDS:
        value = data.get(name)
        if name.endswith("headers"):
            if isinstance(value, dict):
                fields[name] = {str(k): str(v) for k, v in value.items()}
        elif isinstance(value, str):
            fields[name] = value
    return HttpExchange(
        method=str(data.get("method", "?")),
        url=str(data.get("url", "")),
        status=status if isinstance(status, int) and not isinstance(status, bool) else None,
        **fields,
    )


class OfflineLoader:
    """Builds the OfflineSession event by event: `run()` for a whole file, or `feed()` as a
    followed file grows, then `finish()`."""

    def __init__(self, recorded: RecordedSession, traffic: TrafficLog | None = None) -> None:
        """`traffic`: the log to fill (a file-backed one, recording/index), else a new one."""
        self.recorded = recorded
        self.traffic = TrafficLog() if traffic is None else traffic
        rounds = RequestRounds(self.traffic)
        rounds.group_by_content()  # before the first row: it listens as the log grows
        self.out = OfflineSession(
            recorded,
            self.traffic,
            Catalog(),
            LogMessageStore(self.traffic),
            ErrorStore(),
            notes=[f"the file: {p}" for p in recorded.problems],
            rounds=rounds,
        )
        self.exchanges: dict[int, HttpExchange] = {}
        self.list_requests: dict[Any, tuple[CatalogKind, bool]] = {}  # id -> kind, first page
        self.unknown: dict[str, int] = {}
        self.record_rows = array("q")  # the row of each traffic line of the file

    def run(self) -> OfflineSession:
        for event in self.recorded.events:
            self.feed(event)
        return self.finish()

    def feed(self, event: RecordedEvent) -> None:
        """One more event (a live tap's file grows while it is shown)."""
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is None:
            self.unknown[event.type] = self.unknown.get(event.type, 0) + 1
            return
        handler(event)
        if event.type in _TRAFFIC_LINES:
            self.record_rows.append(len(self.traffic) - 1)

    def finish(self) -> OfflineSession:
        for kind, count in self.unknown.items():
            self.out.notes.append(f"{count} line(s) of type {kind!r} were skipped (unknown)")
        for problem in self.recorded.problems:
            self.out.errors.add("session file", problem)
        self._mark_unlisted()
        return self.out

    def _mark_unlisted(self) -> None:
        """Say why a list is empty: the server did not offer it, or no one listed it."""
        caps = self.out.ready.capabilities if self.out.ready is not None else None
        for kind, lst in self.out.catalog.lists.items():
            if lst.loaded or lst.error:
                continue
            capability = (
                "prompts" if kind == "prompts" else "tools" if kind == "tools" else "resources"
            )
            if caps is not None and capability not in caps:
                lst.set_absent(f"The server did not offer {capability} in this session.")
            else:
                lst.set_absent(f"No {lst.method} was recorded in this session.")

    # -- rows -------------------------------------------------------------------
    def _row(self, event: RecordedEvent, kind: EntryKind, raw: str | bytes, **extra: Any) -> int:
        data = event.data
        wall = data.get("wall")
        record = TrafficRecord(
            direction=extra.pop("direction", ""),
            kind=kind,
            raw=raw,
            mono=event.t,
            wall=float(wall) if isinstance(wall, int | float) else 0.0,
            transport=str(data.get("transport", "")),
            **extra,
        )
        self.traffic.observe(record)
        return len(self.traffic) - 1

    def _on_frame(self, event: RecordedEvent) -> None:
        data = event.data
        raw = event.raw
        direction = event.direction if event.direction in DIRECTIONS else ""
        truncated = data.get("truncated") is True
        frame = parse_frame(raw)
        if truncated and not isinstance(frame, Invalid):
            frame = Invalid(raw, "over the size limit: only its head was kept")
        recorded_kind = data.get("kind")
        kind: EntryKind = (
            recorded_kind
            if recorded_kind in KINDS and recorded_kind not in ("stderr", "http", "note")
            else kind_of(frame)
        )
        size = data.get("size")
        note = data.get("note")
        sse_id = data.get("sse_id")
        index = self._row(
            event,
            kind,
            raw,
            direction=direction,
            frame=frame,
            size=size if isinstance(size, int) else len(raw),
            truncated=truncated,
            note=note if isinstance(note, str) else None,
            http=self._via(data.get("via")),
            sse_event_id=sse_id if isinstance(sse_id, str) else None,
        )
        if kind == "invalid" or isinstance(frame, Invalid):
            shown = raw if isinstance(raw, str) else repr(raw)
            reason = note if isinstance(note, str) else getattr(frame, "reason", "invalid")
            self.out.errors.add("invalid frame", f"{reason}: {shown[:300]}", index)
        elif isinstance(note, str):
            self.out.errors.add("note", note, index)
        elif isinstance(frame, ErrorResponse) and direction == "in":
            method = self.traffic[index].method or "a request"
            self.out.errors.add(
                "request failed", f"{method}: {frame.message} ({frame.code})", index
            )
        self._follow(frame, direction, index)

    def _via(self, via: Any) -> HttpExchange | None:
        if not isinstance(via, dict):
            return None
        xid = via.get("xid")
        if isinstance(xid, int) and xid in self.exchanges:
            return self.exchanges[xid]
        return _exchange(via)

    def _follow(self, frame: object, direction: str, index: int) -> None:
        """What a frame means for the other stores: list results, list changes, logs."""
        if isinstance(frame, Request) and direction == "out":
            kind = KIND_OF_LIST.get(frame.method)
            if kind is not None:
                params = frame.params if isinstance(frame.params, dict) else {}
                self.list_requests[frame.id] = (kind, "cursor" not in params)
        elif isinstance(frame, Response | ErrorResponse) and direction == "in":
            wanted = self.list_requests.pop(frame.id, None)
            if wanted is None:
                return
            kind, first = wanted
            target = self.out.catalog[kind]
            if isinstance(frame, ErrorResponse):
                target.fail(f"{target.method} failed: {frame.message} ({frame.code})")
                target.end_reload()
                return
            if first:
                target.begin_reload()
            target.apply_page(frame.result, first=first)
            if not target.has_more:
                target.end_reload()
        elif isinstance(frame, Notification) and direction == "in":
            if frame.method == "notifications/message":
                params = frame.params if isinstance(frame.params, dict) else {}
                self.out.messages.add(str(params.get("level", "info")), index)
            elif frame.method in _LIST_CHANGED:
                self.out.catalog.list_changed(_LIST_CHANGED[frame.method])

    def _on_stderr(self, event: RecordedEvent) -> None:
        text = event.raw if isinstance(event.raw, str) else event.raw.decode("utf-8", "replace")
        self.out.stderr.append(text)
        self._row(event, "stderr", text, truncated=event.data.get("truncated") is True)

    def _on_http(self, event: RecordedEvent) -> None:
        exchange = _exchange(event.data.get("exchange")) or HttpExchange("?", "", None)
        xid = event.data.get("xid")
        if isinstance(xid, int):
            self.exchanges[xid] = exchange
        note = event.data.get("note")
        summary = f"{exchange.method} {exchange.url} → {exchange.status}"
        self._row(
            event, "http", summary, http=exchange, note=note if isinstance(note, str) else None
        )

    def _on_note(self, event: RecordedEvent) -> None:
        note = event.data.get("note")
        self._row(event, "note", event.raw, note=note if isinstance(note, str) else None)

    def _on_model(self, event: RecordedEvent) -> None:
        """An exchange with a model provider (sampling answered by a model): its own rows."""
        note = event.data.get("note")
        direction = event.direction if event.direction in DIRECTIONS else ""
        self._row(
            event,
            "model",
            event.raw,
            direction=direction,
            note=note if isinstance(note, str) else None,
        )

    def _on_action(self, event: RecordedEvent) -> None:
        text = str(event.data.get("text", ""))
        wall = event.data.get("wall")
        self.out.actions.append(
            RecordedAction(event.t, float(wall) if isinstance(wall, int | float) else 0.0, text)
        )
        data = event.data.get("data")
        if isinstance(data, dict) and data:
            text += "  " + json.dumps(data, ensure_ascii=False, default=str)
        self._row(event, "note", text, note="user action")

    def _on_lint(self, event: RecordedEvent) -> None:
        """A finding about the row-th traffic line of the file (written as it was linted)."""
        row = event.data.get("row")
        if isinstance(row, int) and not isinstance(row, bool) and 0 <= row < len(self.record_rows):
            self.out.lint.add([Finding.from_json(event.data, self.record_rows[row])])
        else:
            self.out.notes.append(f"a lint line points at no traffic line ({row!r})")

    def _on_conversation(self, event: RecordedEvent) -> None:
        """A Playground conversation: a later line of the same id replaces the earlier."""
        key = str(event.data.get("id") or f"line-{len(self.out.conversations) + 1}")
        wall = event.data.get("wall")
        self.out.conversations.pop(key, None)  # (the latest goes last, in order)
        self.out.conversations[key] = RecordedConversation(
            key,
            event.data.get("conversation"),
            float(wall) if isinstance(wall, int | float) else 0.0,
        )

    def _on_ready(self, event: RecordedEvent) -> None:
        if self.out.ready is None:
            self.out.ready = ready_of(event.data)


def load_offline(recorded: RecordedSession) -> OfflineSession:
    return OfflineLoader(recorded).run()
